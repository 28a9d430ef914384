import MobilityCore
/// A place where a device stayed: at least `StaypointParameters.timeSeconds` within
/// `distanceMeters` of the stay's first fix.
public struct Staypoint: Hashable, Sendable {
    public var device: String
    /// Index in the device's track of the stay's first fix.
    public var firstFix: Int
    /// One past the stay's last fix: the first fix outside (trackintel's convention), or the
    /// track's end for the last, open stay.
    public var endFix: Int
    /// Time of the first fix.
    public var startSeconds: Double
    /// Time of the first fix outside the stay (Li et al. 2008 and trackintel), or of the last
    /// fix for the open stay at a track's end.
    public var endSeconds: Double
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// True for the stay still open when the track ended (emitted only with `includeLast`).
    public var isOpen: Bool
    /// Set by `LocationClusterer`: index into the run's locations.
    public var location: Int?
    /// Set by `TripBuilder.annotate`: the geofence dwelt in during the stay (longest overlap).
    public var geofence: String? = nil
    /// Set by `TripBuilder.annotate`: whether the stay is an activity that ends and starts trips.
    public var isActivity = false
    /// Set by `PlacePurposes.label`: home, work or other.
    public var purpose: String? = nil
    /// How the stay was found: from its fixes (trackintel's sliding detection) or across a
    /// recording gap (`StaypointDetector.gapStays`).
    public var kind = Kind.sliding

    /// How a stay was found.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Fixes within the radius for the time threshold (trackintel's `generate_staypoints`).
        case sliding
        /// A recording gap that began and ended at the same place (`StaypointDetector.gapStays`).
        case gap
    }

    /// A staypoint as a store keeps it, without its track: what the location pass over every
    /// device of a distributed run (`pipeline locations`) clusters. Its fix indices are 0.
    public init(device: String, startSeconds: Double, endSeconds: Double, latitudeDegrees: Double, longitudeDegrees: Double) {
        self.init(
            device: device, firstFix: 0, endFix: 0, startSeconds: startSeconds, endSeconds: endSeconds,
            latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees, isOpen: false, location: nil)
    }

    init(
        device: String, firstFix: Int, endFix: Int, startSeconds: Double, endSeconds: Double, latitudeDegrees: Double,
        longitudeDegrees: Double, isOpen: Bool, location: Int? = nil, geofence: String? = nil, isActivity: Bool = false
    ) {
        (self.device, self.firstFix, self.endFix, self.startSeconds, self.endSeconds) = (device, firstFix, endFix, startSeconds, endSeconds)
        (self.latitudeDegrees, self.longitudeDegrees, self.isOpen) = (latitudeDegrees, longitudeDegrees, isOpen)
        (self.location, self.geofence, self.isActivity) = (location, geofence, isActivity)
    }

    public var durationSeconds: Double { endSeconds - startSeconds }
    public var fixCount: Int { endFix - firstFix }
}

/// The sliding staypoint detection's parameters; defaults are trackintel 1.4's
/// `generate_staypoints` defaults except `includeLast`.
public struct StaypointParameters: Hashable, Sendable, Codable {
    /// How far from the stay's first fix a fix may be and still belong to it, metres.
    public var distanceMeters = 100.0
    /// The shortest stay, seconds (trackintel `time_threshold` 5 min).
    public var timeSeconds = 300.0
    /// A time between consecutive fixes longer than this ends any stay, seconds (15 min).
    public var gapSeconds = 900.0
    /// Whether a stay still open at the end of the track is emitted. trackintel's default is
    /// false, which turns a device's last evening at home into a tripleg hours long; the
    /// product emits it (`--no-last-stay` for trackintel's behaviour).
    public var includeLast = true
    /// The longest recording gap that is a stay when it begins and ends within `distanceMeters`
    /// (`StaypointDetector.gapStays`), seconds; 0: no stays across gaps (trackintel's staypoints
    /// alone). 24 hours: a phone off overnight, or one that records only on the move, stayed
    /// where it went quiet; after days without a fix nobody can say where the person was.
    public var gapStayMaxSeconds = 86_400.0

    public init() {}

    /// A configuration stored before stays across gaps has no `gapStayMaxSeconds` (`forget`
    /// reads it back): the default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        distanceMeters = try container.decode(Double.self, forKey: .distanceMeters)
        timeSeconds = try container.decode(Double.self, forKey: .timeSeconds)
        gapSeconds = try container.decode(Double.self, forKey: .gapSeconds)
        includeLast = try container.decode(Bool.self, forKey: .includeLast)
        gapStayMaxSeconds = try container.decodeIfPresent(Double.self, forKey: .gapStayMaxSeconds) ?? Self().gapStayMaxSeconds
    }
}
