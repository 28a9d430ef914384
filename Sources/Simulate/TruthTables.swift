import Foundation
import MobilityCore

/// The truth as CSV files, in the pipeline's own column names (times as ISO 8601 and Unix
/// seconds, units in names) so they compare directly with its outputs.
struct TruthTables {
    var truth: Truth
    var city: City

    /// Stays at a geofenced place long enough to be a dwell, seconds (the dwell detector's
    /// default minimum).
    static let dwellMinimumSeconds = 300.0

    func write(to folder: String) throws {
        func span(_ start: Double, _ end: Double) -> [String] {
            [iso(start), FixedPoint.text(start, digits: 3), iso(end), FixedPoint.text(end, digits: 3), "\(Int((end - start).rounded()))"]
        }
        var stays = CSVWriter(columns: [
            "device", "place_id", "place_kind", "started_at", "started_unix_s", "finished_at",
            "finished_unix_s", "duration_s", "is_activity", "lat", "lon"
        ])
        var dwells = CSVWriter(columns: [
            "device", "geofence_id", "started_at", "started_unix_s", "finished_at", "finished_unix_s", "duration_s"
        ])
        for stay in truth.stays.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            let (lat, lon) = city.coordinates(stay.place.position)
            stays.append(
                [stay.device, stay.place.id, stay.place.kind.rawValue] + span(stay.startSeconds, stay.endSeconds)
                    + [
                        "\(stay.durationSeconds >= Truth.activityMinimumSeconds)", FixedPoint.text(lat, digits: 6),
                        FixedPoint.text(lon, digits: 6)
                    ])
            if stay.durationSeconds >= Self.dwellMinimumSeconds {
                dwells.append([stay.device, stay.place.id] + span(stay.startSeconds, stay.endSeconds))
            }
        }
        var legs = CSVWriter(columns: [
            "device", "travel_mode", "started_at", "started_unix_s", "finished_at", "finished_unix_s",
            "duration_s", "distance_m"
        ])
        for leg in truth.legs.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            legs.append([leg.device, leg.mode.rawValue] + span(leg.startSeconds, leg.endSeconds) + ["\(Int(leg.distanceMeters.rounded()))"])
        }
        var trips = CSVWriter(columns: [
            "device", "origin_geofence_id", "destination_geofence_id", "started_at", "started_unix_s",
            "finished_at", "finished_unix_s", "duration_s", "main_mode", "leg_modes"
        ])
        for trip in truth.trips.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            trips.append(
                [trip.device, trip.origin.id, trip.destination.id] + span(trip.startSeconds, trip.endSeconds)
                    + [trip.mainMode.rawValue, trip.legModes.map(\.rawValue).joined(separator: ">")])
        }
        var rides = CSVWriter(columns: [
            "device", "train", "from_station", "to_station", "scheduled_departure_at", "departed_at",
            "scheduled_arrival_at", "arrived_at", "departure_delay_s", "arrival_delay_s"
        ])
        for ride in truth.rides.sorted(by: { ($0.device, $0.departureSeconds) < ($1.device, $1.departureSeconds) }) {
            rides.append([
                ride.device, ride.train, ride.from.id, ride.to.id, iso(ride.scheduledDepartureSeconds), iso(ride.departureSeconds),
                iso(ride.scheduledArrivalSeconds), iso(ride.arrivalSeconds),
                "\(Int(ride.departureSeconds - ride.scheduledDepartureSeconds))",
                "\(Int((ride.arrivalSeconds - ride.scheduledArrivalSeconds).rounded()))"
            ])
        }
        for (name, table) in [("stays.csv", stays), ("dwells.csv", dwells), ("legs.csv", legs), ("trips.csv", trips), ("rides.csv", rides)]
        {
            try table.write(to: (folder as NSString).appendingPathComponent(name))
        }
    }
}
