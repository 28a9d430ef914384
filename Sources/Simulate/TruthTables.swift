import Foundation
import MobilityCore

/// The truth as CSV files, in the pipeline's own column names so they compare directly.
struct TruthTables {
    var truth: Truth
    var startSeconds: Double

    /// Stays at a geofenced place long enough to be a dwell, seconds (the dwell detector's
    /// default minimum).
    static let dwellMinimumSeconds = 300.0

    func write(to folder: String) throws {
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        var stays = "device,place_id,place_kind,started_at,finished_at,duration_s,is_activity\n"
        var dwells = "device,geofence_id,entered_at,exited_at,duration_s\n"
        for stay in truth.stays.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            let duration = Int(stay.durationSeconds.rounded())
            stays += "\(stay.device),\(stay.place.id),\(stay.place.kind.rawValue),\(iso(stay.startSeconds)),\(iso(stay.endSeconds)),"
                + "\(duration),\(stay.durationSeconds >= Truth.activityMinimumSeconds)\n"
            if stay.durationSeconds >= Self.dwellMinimumSeconds {
                dwells += "\(stay.device),\(stay.place.id),\(iso(stay.startSeconds)),\(iso(stay.endSeconds)),\(duration)\n"
            }
        }
        var legs = "device,mode,started_at,finished_at,duration_s,distance_m\n"
        for leg in truth.legs.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            legs += "\(leg.device),\(leg.mode.rawValue),\(iso(leg.startSeconds)),\(iso(leg.endSeconds)),"
                + "\(Int((leg.endSeconds - leg.startSeconds).rounded())),\(Int(leg.distanceMeters.rounded()))\n"
        }
        var trips = "device,origin,destination,started_at,finished_at,duration_s,main_mode,leg_modes\n"
        for trip in truth.trips.sorted(by: { ($0.device, $0.startSeconds) < ($1.device, $1.startSeconds) }) {
            trips += "\(trip.device),\(trip.origin.id),\(trip.destination.id),\(iso(trip.startSeconds)),\(iso(trip.endSeconds)),"
                + "\(Int((trip.endSeconds - trip.startSeconds).rounded())),\(trip.mainMode.rawValue),"
                + trip.legModes.map(\.rawValue).joined(separator: ">") + "\n"
        }
        var rides = "device,train,from_station,to_station,scheduled_departure,departed_at,scheduled_arrival,arrived_at,"
            + "departure_delay_s,arrival_delay_s\n"
        for ride in truth.rides.sorted(by: { ($0.device, $0.departureSeconds) < ($1.device, $1.departureSeconds) }) {
            rides += "\(ride.device),\(ride.train),\(ride.from.id),\(ride.to.id),\(iso(ride.scheduledDepartureSeconds)),"
                + "\(iso(ride.departureSeconds)),\(iso(ride.scheduledArrivalSeconds)),\(iso(ride.arrivalSeconds)),"
                + "\(Int(ride.departureSeconds - ride.scheduledDepartureSeconds)),\(Int((ride.arrivalSeconds - ride.scheduledArrivalSeconds).rounded()))\n"
        }
        for (name, text) in [("stays.csv", stays), ("dwells.csv", dwells), ("legs.csv", legs), ("trips.csv", trips), ("rides.csv", rides)] {
            try TextFile.write(text, to: path(name))
        }
    }
}
