/// One timed GPS fix as the trip stages and the store see it: time, position and the receiver's accuracy.
///
/// A slimmer value than `PositionFix` (32 bytes): the stages walk millions of them.
public struct TrackPoint: Hashable, Sendable {
    public var timeSeconds: Double
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// Horizontal accuracy in metres; NaN when the input did not say.
    public var accuracyMeters: Double

    public init(timeSeconds: Double, latitudeDegrees: Double, longitudeDegrees: Double, accuracyMeters: Double = .nan) {
        self.timeSeconds = timeSeconds
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.accuracyMeters = accuracyMeters
    }

    public static func == (lhs: TrackPoint, rhs: TrackPoint) -> Bool {
        lhs.timeSeconds == rhs.timeSeconds && lhs.latitudeDegrees == rhs.latitudeDegrees
            && lhs.longitudeDegrees == rhs.longitudeDegrees
            && (lhs.accuracyMeters == rhs.accuracyMeters || (lhs.accuracyMeters.isNaN && rhs.accuracyMeters.isNaN))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timeSeconds)
        hasher.combine(latitudeDegrees)
        hasher.combine(longitudeDegrees)
    }

    /// Orders by time, then position, so any input order gives one sequence.
    public static func precedes(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
        if a.timeSeconds != b.timeSeconds { return a.timeSeconds < b.timeSeconds }
        if a.latitudeDegrees != b.latitudeDegrees { return a.latitudeDegrees < b.latitudeDegrees }
        return a.longitudeDegrees < b.longitudeDegrees
    }

    public static func distanceMeters(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        Geodesy.haversineMeters(
            latitude1: a.latitudeDegrees, longitude1: a.longitudeDegrees,
            latitude2: b.latitudeDegrees, longitude2: b.longitudeDegrees)
    }
}
