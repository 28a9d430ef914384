import HeatMaps
import MobilityCore
import Trips

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
/// another. What no size publishes is suppressed and counted, never shown. A trip is placed by
/// its ends (its activity staypoints, or its first or last fix where it has none: `TripEnd`;
/// those with an end at a fix counted apart, `placedByFix`); one without a position at both
/// ends (legs by time alone) is counted apart (`unplaced`).
///
/// A row's mode shares are counts of their own (a share times the row's trips) and obey the
/// same k as the modal split's rows: the modes fewer than k persons used over the table's trips
/// are shown as `other` (`ModeRecoding`), a share fewer than k persons made is left out
/// (printed empty), and so is a second one where the row's trips would give the first away by
/// subtraction: the rows' cells are audited as `ODMatrix`'s are (`CellSuppression`).
public struct ODGrid: Sendable {
    public struct Trip: Sendable {
        public var device: String, person: String
        public var origin: (latitude: Double, longitude: Double)?
        public var destination: (latitude: Double, longitude: Double)?
        public var durationSeconds: Double, distanceMeters: Double
        /// The trip's main mode's name ("unknown" when none).
        public var mainMode: String
        /// Whether an end is its first or last fix (no stay there).
        public var endsAtFix = false

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
        /// Share of the pair's trips by main mode (recoded), keyed by mode name; a mode whose
        /// share is left out is absent, one without trips in the row too.
        public var modeShares: [String: Double]
        /// The modes with trips in the row whose share is left out.
        public var suppressedModes: Set<String> = []
    }

    /// The finest grid (`cellMeters`).
    public let grid: HeatGrid
    public let minimumPersons: Int
    /// Published pairs, finest cells first, then most trips first (then by cell).
    public private(set) var rows: [Row] = []
    /// Pairs of the coarsest grid still under k, and their trips: what is published nowhere.
    public private(set) var suppressedPairs = 0, suppressedTrips = 0, unplacedTrips = 0
    /// Placed trips with an end at their first or last fix.
    public private(set) var placedByFix = 0
    /// Pairs of k persons or more, and their trips, left out so that a share under k in them
    /// keeps its feasible interval (`CellSuppression`'s protection levels: a share cannot
    /// reach ±k inside a row of few trips).
    public private(set) var complementaryPairs = 0, complementaryTrips = 0
    /// Mode shares left out of published rows: under k persons, and beside them.
    public private(set) var suppressedShares = 0, complementaryShares = 0
    /// The modes shown as `other`.
    public private(set) var recoding = ModeRecoding()
    /// Shares under k left out whose feasible interval no complement widened to ±k (and the
    /// modal split's rows under k, where the table was audited against them).
    public private(set) var narrowCounts = 0
    /// `modal_split.csv` → `all_day` when the pairs were audited against the modal split's
    /// published whole-day rows (`SplitMargins`); empty without margins, or when the split's
    /// rows are not of these trips.
    public private(set) var auditedMargins: [String: [String]] = [:]

    /// The default number of doublings of the cell size (1 km → 8 km).
    public static let defaultCoarserLevels = HeatMapParameters.defaultODCoarserLevels

    /// `margins`: the modal split's published rows of the same trips, which the pairs' shares are
    /// audited against (nil: the pairs audited alone).
    public init(
        _ trips: [Trip], cellMeters: Double, minimumPersons: Int, coarserLevels: Int = Self.defaultCoarserLevels,
        margins: [SplitMargins] = []
    ) {
        grid = HeatGrid(cellMeters: cellMeters)
        self.minimumPersons = minimumPersons
        struct Key: Hashable { var origin: HeatGrid.Cell, destination: HeatGrid.Cell }
        var pending: [Trip] = []
        for trip in trips {
            guard trip.origin != nil, trip.destination != nil else { unplacedTrips += 1; continue }
            if trip.endsAtFix { placedByFix += 1 }
            pending.append(trip)
        }
        var persons: [String: Set<String>] = [:]
        for trip in pending { persons[trip.mainMode, default: []].insert(trip.person) }
        recoding = ModeRecoding(persons: persons.mapValues(\.count), k: minimumPersons)
        // The pairs published at each size, finest first, before their shares' audit.
        var pairs: [(grid: HeatGrid, key: Key, members: [Trip])] = []
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
            var published: [(grid: HeatGrid, key: Key, members: [Trip])] = []
            // In cell order, so the trips left for the next size come in the same order on every run.
            pending = []
            for (key, members) in groups.sorted(by: { ($0.key.origin, $0.key.destination) < ($1.key.origin, $1.key.destination) }) {
                guard Set(members.map(\.person)).count >= minimumPersons else { pending += members; continue }
                published.append((grid, key, members))
            }
            published.sort {
                ($0.members.count, $1.key.origin, $1.key.destination) > ($1.members.count, $0.key.origin, $0.key.destination)
            }
            pairs += published
            if level == max(0, coarserLevels) {
                suppressedPairs = groups.count - published.count
                suppressedTrips = pending.count
            }
        }
        // Each pair a group of its own (no pair contains another), audited for its shares; its
        // trips recoded before they are grouped, so `other`'s persons are its own (not the most of one mode's).
        func name(_ grid: HeatGrid, _ cell: HeatGrid.Cell) -> String { "\(Int(grid.cellMeters)) \(grid.id(cell))" }
        let groups = pairs.map { pair in
            ODGroup.of(
                pair.members.map {
                    ODGroup.Member(
                        device: $0.device, person: $0.person, origin: nil, destination: nil, durationSeconds: $0.durationSeconds,
                        distanceMeters: $0.distanceMeters, mainMode: recoding.name($0.mainMode), band: TimeBands.allDay)
                }, origin: name(pair.grid, pair.key.origin), destination: name(pair.grid, pair.key.destination))
        }
        let matrix = ODMatrix(groups: groups, minimumPersons: minimumPersons, recoding: recoding, margins: margins)
        auditedMargins = matrix.linkedMargins
        let audited = Dictionary(uniqueKeysWithValues: matrix.rows.map { ("\($0.origin ?? "") > \($0.destination ?? "")", $0) })
        (suppressedShares, complementaryShares, narrowCounts) = (matrix.suppressedShares, matrix.complementaryShares, matrix.narrowCounts)
        for pair in pairs {
            // A pair of k persons is left out where its shares' audit needs its trips.
            guard let row = audited["\(name(pair.grid, pair.key.origin)) > \(name(pair.grid, pair.key.destination))"] else {
                (complementaryPairs, complementaryTrips) = (complementaryPairs + 1, complementaryTrips + pair.members.count)
                continue
            }
            rows.append(
                Row(
                    grid: pair.grid, origin: pair.key.origin, destination: pair.key.destination, trips: row.trips, devices: row.devices,
                    persons: row.persons, medianDurationSeconds: row.medianDurationSeconds, medianDistanceMeters: row.medianDistanceMeters,
                    modeShares: row.modeShares, suppressedModes: row.suppressedModes))
        }
    }
}
