import MobilityCore

/// Origin–destination on the heat maps' global grid (`HeatGrid`), for data without geofences:
/// a trip counts from the cell of its origin staypoint to the cell of its destination one, at
/// a coarser cell than the heat maps' (1 km by default). The heat maps' k rule applies: a pair
/// of cells is published only when at least k distinct persons made trips between them.
///
/// The trips of a pair under k are not lost at once: they are grouped again on a grid of
/// cells twice the size, and again, up to `coarserLevels` times (1, 2, 4, 8 km by default),
/// and published at the first size where their pair reaches k persons. This is the recoding
/// to coarser geography that disclosure-control guides prefer to suppression (Hundepool et
/// al., *Statistical Disclosure Control*, 2012, §5.2 "global recoding"): each trip is in one
/// published row at most, so no row contains another and none can be subtracted from
/// another. What no size publishes is suppressed and counted, never shown. A trip without
/// both staypoints is counted apart (`unplaced`).
public struct ODGrid: Sendable {
    public struct Trip: Sendable {
        public var device: String, person: String
        public var origin: (latitude: Double, longitude: Double)?
        public var destination: (latitude: Double, longitude: Double)?
        public var durationSeconds: Double, distanceMeters: Double
        /// The trip's main mode's name ("unknown" when none).
        public var mainMode: String

        public init(
            device: String, person: String, origin: (latitude: Double, longitude: Double)?,
            destination: (latitude: Double, longitude: Double)?, durationSeconds: Double, distanceMeters: Double, mainMode: String
        ) {
            (self.device, self.person, self.origin, self.destination) = (device, person, origin, destination)
            (self.durationSeconds, self.distanceMeters, self.mainMode) = (durationSeconds, distanceMeters, mainMode)
        }
    }

    public struct Row: Sendable {
        /// The grid of this row's cells: the finest size at which its pair reached k.
        public var grid: HeatGrid
        public var origin: HeatGrid.Cell, destination: HeatGrid.Cell
        public var trips: Int, devices: Int, persons: Int
        public var medianDurationSeconds: Double, medianDistanceMeters: Double
        /// Share of the pair's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
    }

    /// The finest grid (`cellMeters`).
    public let grid: HeatGrid
    public let minimumPersons: Int
    /// Published pairs, finest cells first, then most trips first (then by cell).
    public private(set) var rows: [Row] = []
    /// Pairs of the coarsest grid still under k, and their trips: what is published nowhere.
    public private(set) var suppressedPairs = 0, suppressedTrips = 0, unplacedTrips = 0

    /// The default number of doublings of the cell size (1 km → 8 km).
    public static let defaultCoarserLevels = 3

    public init(_ trips: [Trip], cellMeters: Double, minimumPersons: Int, coarserLevels: Int = Self.defaultCoarserLevels) {
        grid = HeatGrid(cellMeters: cellMeters)
        self.minimumPersons = minimumPersons
        struct Key: Hashable { var origin: HeatGrid.Cell, destination: HeatGrid.Cell }
        var pending: [Trip] = []
        for trip in trips {
            guard trip.origin != nil, trip.destination != nil else { unplacedTrips += 1; continue }
            pending.append(trip)
        }
        for level in 0...max(0, coarserLevels) {
            let grid = HeatGrid(cellMeters: cellMeters * Double(1 << level))
            var groups: [Key: [Trip]] = [:]
            for trip in pending {
                let (o, d) = (trip.origin!, trip.destination!)
                let key = Key(
                    origin: grid.cell(latitudeDegrees: o.latitude, longitudeDegrees: o.longitude),
                    destination: grid.cell(latitudeDegrees: d.latitude, longitudeDegrees: d.longitude))
                groups[key, default: []].append(trip)
            }
            var published: [Row] = []
            // In cell order, so the trips left for the next size come in the same order on every run.
            pending = []
            for (key, members) in groups.sorted(by: { ($0.key.origin, $0.key.destination) < ($1.key.origin, $1.key.destination) }) {
                let persons = Set(members.map(\.person)).count
                guard persons >= minimumPersons else { pending += members; continue }
                var shares: [String: Double] = [:]
                for member in members { shares[member.mainMode, default: 0] += 1 / Double(members.count) }
                published.append(
                    Row(
                        grid: grid, origin: key.origin, destination: key.destination, trips: members.count,
                        devices: Set(members.map(\.device)).count, persons: persons,
                        medianDurationSeconds: Quantile.median(members.map(\.durationSeconds))!,
                        medianDistanceMeters: Quantile.median(members.map(\.distanceMeters))!, modeShares: shares))
            }
            published.sort { ($0.trips, $1.origin, $1.destination) > ($1.trips, $0.origin, $0.destination) }
            rows += published
            if level == max(0, coarserLevels) {
                suppressedPairs = groups.count - published.count
                suppressedTrips = pending.count
            }
        }
    }
}
