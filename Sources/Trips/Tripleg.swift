import MobilityCore

/// A stretch of movement in one mode between two staypoints (or a track's ends).
public struct Tripleg: Hashable, Sendable {
    public var device: String
    /// Track indices of the first and last fix (inclusive). Consecutive legs of one movement
    /// share their boundary fix, so their distances and durations add up.
    public var firstFix: Int
    public var lastFix: Int
    public var startSeconds: Double
    public var endSeconds: Double
    public var distanceMeters: Double
    /// Nil when no classifier covered any of its fixes.
    public var mode: Mode?
    /// Who decided the mode; nil with the mode.
    public var modeSource: Decider?
    /// Why the mode is what it is, when that is not plain from its source: a coarse `vehicle`,
    /// a source that overruled another, a flight or a jump, a leg nothing decided.
    public var modeNote: String? = nil
    /// What the mode was decided from, when the trip stage weighed the leg as a whole
    /// (`LegFusion`); nil when it did not.
    public var evidence: LegEvidence? = nil
    /// Index of the staypoint just before and just after it in the device's staypoints; nil
    /// at a track boundary or a data gap.
    public var previousStaypoint: Int?
    public var nextStaypoint: Int?
    /// Set by `TripBuilder`: index of its trip.
    public var trip: Int?
    /// A leg made from IMU windows alone, where no fix was recorded (`TimeLegs`): its times and
    /// mode are known, its fix indices mean nothing, and it has no distance and no geometry.
    public var byTime = false
    /// Its person said it was no trip (`Correction.notATrip`): it joins no trip (`TripBuilder`).
    public var notATrip = false

    public init(
        device: String, firstFix: Int, lastFix: Int, startSeconds: Double, endSeconds: Double, distanceMeters: Double,
        mode: Mode?, modeSource: Decider?, previousStaypoint: Int? = nil, nextStaypoint: Int? = nil
    ) {
        (self.device, self.firstFix, self.lastFix, self.startSeconds, self.endSeconds) = (
            device, firstFix, lastFix, startSeconds, endSeconds
        )
        (self.distanceMeters, self.mode, self.modeSource) = (distanceMeters, mode, modeSource)
        (self.previousStaypoint, self.nextStaypoint) = (previousStaypoint, nextStaypoint)
    }

    public var durationSeconds: Double { endSeconds - startSeconds }
    public var fixCount: Int { byTime ? 0 : lastFix - firstFix + 1 }
}

/// Trip-level parameters: tripleg splitting and the trip definition.
public struct TripParameters: Hashable, Sendable, Codable {
    /// A time between fixes longer than this splits a tripleg and a trip, seconds
    /// (trackintel `generate_triplegs`/`generate_trips` `gap_threshold` 15 min).
    public var gapSeconds = 900.0
    /// Mode runs shorter than this join their longer neighbour, so one odd window never makes
    /// a leg, seconds.
    public var minimumLegSeconds = 60.0
    /// Staypoints at least this long are activities that end and start trips, seconds
    /// (trackintel `create_activity_flag` 15 min). A staypoint during a geofence dwell is an
    /// activity whatever its length, unless the geofence is a transfer point.
    public var activityMinimumSeconds = 900.0
    /// Geofence kinds where people change vehicles, not stop for a purpose: a short stay in
    /// one (waiting for a train) stays inside its trip instead of ending it.
    public var transferKinds = ["bus_stop", "station"]
    /// A stay shorter than this between two public-transport legs (bus, train, boat) is a
    /// change of vehicle inside the trip, not an activity, seconds. Travel surveys count a
    /// change of vehicle as part of one trip (MiD 2017 Methodenbericht §3.2, "Wege": changing
    /// the means of transport does not end a trip; the Dutch ODiN's "verplaatsing" likewise),
    /// and a wait for the next bus or train of a journey rarely lasts half an hour; a longer
    /// stay is taken for an activity, as trackintel takes every stay of 15 min.
    public var transferMaximumSeconds = 1800.0
    /// How far from a stay, seconds, the public-transport legs around it may end and start for
    /// it to be a change of vehicle (`transferMaximumSeconds`): the walk between platforms or
    /// stops, and a still leg on the platform, lie between them.
    public var transferWalkSeconds = 600.0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case gapSeconds, minimumLegSeconds, activityMinimumSeconds, transferKinds, transferMaximumSeconds, transferWalkSeconds
    }

    /// Keys missing from a configuration file of an earlier version keep their defaults.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TripParameters()
        gapSeconds = try container.decodeIfPresent(Double.self, forKey: .gapSeconds) ?? defaults.gapSeconds
        minimumLegSeconds = try container.decodeIfPresent(Double.self, forKey: .minimumLegSeconds) ?? defaults.minimumLegSeconds
        activityMinimumSeconds =
            try container.decodeIfPresent(Double.self, forKey: .activityMinimumSeconds) ?? defaults.activityMinimumSeconds
        transferKinds = try container.decodeIfPresent([String].self, forKey: .transferKinds) ?? defaults.transferKinds
        transferMaximumSeconds =
            try container.decodeIfPresent(Double.self, forKey: .transferMaximumSeconds) ?? defaults.transferMaximumSeconds
        transferWalkSeconds = try container.decodeIfPresent(Double.self, forKey: .transferWalkSeconds) ?? defaults.transferWalkSeconds
    }
}
