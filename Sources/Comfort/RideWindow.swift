import MobilityCore

/// Where a check-in's ride lies in time, from the device's fixes and the station geofences.
///
/// - Departure: the last fix inside the origin station's geofence before the device leaves
///   it, looking from 15 min before the check-in (passengers check in on the platform or on
///   board); the check-in time when no fix is there.
/// - Arrival: the first fix inside the destination station's geofence after departure, i.e.
///   the start of the stay there. DESIGN.md speaks of the start of the dwell; a dwell needs
///   5 min, and passengers often leave a station faster, so the entry is used (a train
///   reaches the geofence edge some 15–20 s before it stops at a 100 m circle).
/// - End of the ride: the arrival; without one, the end of the device's data or the check-in
///   plus `maxRideSeconds`, whichever comes first.
public struct RideWindow: Hashable, Sendable {
    public enum Parameters {
        /// Longest ride searched for, seconds (3 h).
        public static let maxRideSeconds = 3 * 3600.0
        /// How long before the check-in the departure is looked for, seconds.
        public static let boardingLookbackSeconds = 900.0
    }

    public var startSeconds: Double
    public var endSeconds: Double
    public var departureSeconds: Double?
    public var arrivalSeconds: Double?

    /// A ride known by its first and last sample (a recording measured as a ride of its own).
    public init(startSeconds: Double, endSeconds: Double) {
        (self.startSeconds, self.endSeconds) = (startSeconds, endSeconds)
    }

    /// The times a check-in's ride is looked for in, and can lie in: from the boarding look-back
    /// before the check-in to `maxRideSeconds` after it.
    public static func searched(checkinSeconds: Double, maxRideSeconds: Double = Parameters.maxRideSeconds) -> ClosedRange<Double> {
        (checkinSeconds - Parameters.boardingLookbackSeconds)...(checkinSeconds + maxRideSeconds)
    }

    /// `points` sorted by time (the device's track); nil when the device has no fix near the ride.
    public init(
        checkinSeconds: Double, points: [TrackPoint], origin: Geofence?, destination: Geofence?,
        maxRideSeconds: Double = Parameters.maxRideSeconds
    ) {
        let searched = Self.searched(checkinSeconds: checkinSeconds, maxRideSeconds: maxRideSeconds)
        let from = searched.lowerBound, until = searched.upperBound
        let nearby = points.filter { $0.timeSeconds >= from && $0.timeSeconds <= until }
        func inside(_ fence: Geofence?, _ point: TrackPoint) -> Bool {
            fence.map { GeofenceContainment.contains($0, latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees) }
                ?? false
        }
        // Departure: the end of the first run of fixes inside the origin station that lasts past
        // the check-in or ends within 30 min after it.
        var departure: Double?
        if origin != nil {
            var index = 0
            while index < nearby.count {
                guard inside(origin, nearby[index]) else { index += 1; continue }
                var last = index
                while last + 1 < nearby.count, inside(origin, nearby[last + 1]) { last += 1 }
                if nearby[last].timeSeconds >= checkinSeconds - 60 || last + 1 == nearby.count {
                    departure = nearby[last].timeSeconds; break
                }
                index = last + 1
            }
        }
        let leaving = departure ?? checkinSeconds
        let arrival = destination == nil ? nil : nearby.first { $0.timeSeconds > leaving && inside(destination, $0) }?.timeSeconds
        departureSeconds = departure
        arrivalSeconds = arrival
        startSeconds = leaving
        endSeconds = arrival ?? min(until, nearby.last.map { max($0.timeSeconds, leaving) } ?? until)
    }
}
