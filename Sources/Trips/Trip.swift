import MobilityCore

/// A journey between two activities: its triplegs and the short stops between them.
public struct Trip: Hashable, Sendable {
    public var device: String
    public var startSeconds: Double
    public var endSeconds: Double
    public var distanceMeters: Double
    /// The mode of the longest distance among its legs (ties: longest time); nil when no leg
    /// has a mode.
    public var mainMode: Mode?
    /// Indices of its legs in the device's triplegs, in time order.
    public var legs: [Int]
    /// Indices of the activity staypoints it leaves and reaches; nil at a track boundary or gap.
    public var originStaypoint: Int?
    public var destinationStaypoint: Int?
    /// The geofences dwelt in at the origin and destination, when the staypoint lies in one.
    public var originGeofence: String?
    public var destinationGeofence: String?
    /// Where it began and ended and how each end was placed (`TripEnd`); nil for an end with no
    /// position (a trip of legs by time alone, which have no fix).
    public var origin: TripEnd?
    public var destination: TripEnd?

    public var durationSeconds: Double { endSeconds - startSeconds }
}

/// Where a trip began or ended. Zone OD, the OD grid and purposes count trips by their ends; a
/// real recording often starts as its person leaves and stops on arrival, so a trip without an
/// activity staypoint at an end takes its first or last fix as that end, and says so.
public struct TripEnd: Hashable, Sendable {
    /// How an end was placed.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// An activity staypoint found from the fixes (`activityMinimumSeconds` or longer).
        case staypoint
        /// A shorter staypoint that is an activity because it lies in a geofence dwell.
        case dwell
        /// A stay across a recording gap (`StaypointDetector.gapStays`).
        case gapStay = "gap_stay"
        /// No stay at the origin: the trip's first fix (the track began, or a longer gap ended).
        case firstFix = "first_fix"
        /// No stay at the destination: the trip's last fix (the track ended, or a longer gap began).
        case lastFix = "last_fix"

        /// Whether the end is a place the person stayed at (not a first or last fix).
        public var isStay: Bool { self != .firstFix && self != .lastFix }
    }

    public var kind: Kind
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double

    public init(kind: Kind, latitudeDegrees: Double, longitudeDegrees: Double) {
        (self.kind, self.latitudeDegrees, self.longitudeDegrees) = (kind, latitudeDegrees, longitudeDegrees)
    }

    /// The end at `stay`, an activity: a stay across a gap, a dwell's short stop, or a staypoint.
    init(stay: Staypoint, activityMinimumSeconds: Double) {
        let kind: Kind =
            stay.kind == .gap ? .gapStay : stay.durationSeconds >= activityMinimumSeconds ? .staypoint : .dwell
        self.init(kind: kind, latitudeDegrees: stay.latitudeDegrees, longitudeDegrees: stay.longitudeDegrees)
    }
}

extension TripEnd {
    /// How the trips' ends were placed, per kind (every kind, 0 where none; an end without a
    /// position counted as `none`), and the stays across gaps found: for `--json` and the log.
    public struct Tally: Sendable, Codable, Equatable {
        public var origin: [String: Int] = Tally.zero, destination: [String: Int] = Tally.zero
        public var gapStays = 0

        static var zero: [String: Int] { Dictionary(uniqueKeysWithValues: (Kind.allCases.map(\.rawValue) + ["none"]).map { ($0, 0) }) }

        public init() {}

        /// The tally of trips whose ends are `origins` and `destinations` (a kind's name, or nil).
        public init(origins: [String?], destinations: [String?], gapStays: Int) {
            for kind in origins { origin[kind ?? "none", default: 0] += 1 }
            for kind in destinations { destination[kind ?? "none", default: 0] += 1 }
            self.gapStays = gapStays
        }

        enum CodingKeys: String, CodingKey { case origin, destination, gapStays = "gap_stays" }

        /// One line for the log and the report.
        public var text: String { text(staypoints: "staypoints.csv") }

        /// The line, naming the staypoints' table as `staypoints` (the report's path to it).
        public func text(staypoints: String) -> String {
            func kinds(_ counts: [String: Int]) -> String {
                let names = [
                    "staypoint": ("staypoint", "staypoints"), "dwell": ("dwell", "dwells"), "gap_stay": ("gap stay", "gap stays"),
                    "first_fix": ("first fix", "first fixes"), "last_fix": ("last fix", "last fixes"),
                    "none": ("no position", "no position")
                ]
                return (Kind.allCases.map(\.rawValue) + ["none"]).compactMap { kind in
                    counts[kind].flatMap { $0 > 0 ? "\($0) \($0 == 1 ? names[kind]!.0 : names[kind]!.1)" : nil }
                }.joined(separator: ", ")
            }
            let trips = origin.values.reduce(0, +)
            return "trip ends: of \(trips) trips, origins at "
                + (trips == 0 ? "none" : kinds(origin)) + "; destinations at " + (trips == 0 ? "none" : kinds(destination))
                + "; \(gapStays) stays across recording gaps (\(staypoints) kind gap)"
        }
    }
}
