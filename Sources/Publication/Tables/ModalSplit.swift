import MobilityCore
import Trips

/// Modal split by trips (main mode), distance and time (legs), overall and by local hour of
/// day, weekday, time band (`TimeBands`) and trip purpose. A trip counts in the hour, weekday
/// and band it starts in; a leg likewise. A row
/// fewer than k distinct persons made is left out, and so are the rows that would give it away
/// by subtraction from the others and the margins (`CellSuppression`); shares are of the whole
/// group, left-out rows included. Per-device splits are in `device_stats.csv`.
public struct ModalSplit: Sendable {
    public struct Row: Sendable, Equatable {
        /// "all", "hour", "weekday", "time_band" or "trip_purpose".
        public var dimension: String
        public var key: String
        public var mode: String
        public var trips: Int
        public var persons: Int
        public var tripShare: Double
        public var distanceMeters: Double
        public var distanceShare: Double
        public var durationSeconds: Double
        public var durationShare: Double
    }

    public var rows: [Row]
    /// The k every published row met: distinct persons per row.
    public var minimumPersons: Int
    /// Rows under k persons (`primary`), and rows left out so that those cannot be recovered
    /// by subtraction (`complementary`).
    public var suppressedPrimary = 0, suppressedComplementary = 0

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(totals: ModalTotal.totals(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons)
    }

    /// Shares within each (dimension, key) of trips, distance and duration; the group's
    /// whole is its modes' totals added in `Mode` order. Rows by dimension, key, mode.
    public init(totals: [ModalTotal], minimumPersons: Int) {
        self.minimumPersons = minimumPersons
        struct Whole { var trips = 0, distance = 0.0, duration = 0.0 }
        var wholes: [[String]: Whole] = [:]
        for total in totals.sorted(by: { modeRank($0.mode) < modeRank($1.mode) }) {
            let group = [total.dimension, total.key]
            wholes[group, default: Whole()].trips += total.trips
            wholes[group, default: Whole()].distance += total.distanceMeters
            wholes[group, default: Whole()].duration += total.durationSeconds
        }
        func share(_ part: Double, _ whole: Double) -> Double { whole > 0 ? part / whole : 0 }
        let dimensionOrder = ["all": 0, "hour": 1, "weekday": 2, "time_band": 3, "trip_purpose": 4]
        let weekdayOrder = Dictionary(uniqueKeysWithValues: CalendarKeys.weekdayNames.enumerated().map { ($1, $0) })
        // One order for the audit whatever order the totals came in (a dictionary's, or a
        // distributed run's reducers'): its tie-breaks go by position, so a run and Spark leave
        // out the same rows, every time.
        let ordered = totals.sorted {
            (dimensionOrder[$0.dimension] ?? 5, weekdayOrder[$0.key] ?? 0, $0.key, modeRank($0.mode), $0.mode)
                < (dimensionOrder[$1.dimension] ?? 5, weekdayOrder[$1.key] ?? 0, $1.key, modeRank($1.mode), $1.mode)
        }
        let hidden = Self.suppressed(ordered, minimumPersons: minimumPersons)
        suppressedPrimary = totals.filter { $0.persons < minimumPersons }.count
        suppressedComplementary = hidden.count - suppressedPrimary
        rows = ordered.enumerated().filter { !hidden.contains($0.offset) }.map { _, total in
            let whole = wholes[[total.dimension, total.key]]!
            return Row(
                dimension: total.dimension, key: total.key, mode: total.mode, trips: total.trips, persons: total.persons,
                tripShare: share(Double(total.trips), Double(whole.trips)), distanceMeters: total.distanceMeters,
                distanceShare: share(total.distanceMeters, whole.distance), durationSeconds: total.durationSeconds,
                durationShare: share(total.durationSeconds, whole.duration))
        }.sorted { a, b in
            (dimensionOrder[a.dimension] ?? 5, weekdayOrder[a.key] ?? 0, a.key, modeRank(a.mode))
                < (dimensionOrder[b.dimension] ?? 5, weekdayOrder[b.key] ?? 0, b.key, modeRank(b.mode))
        }
    }

    /// The indices of `totals` to leave out. The table's relations: each group's rows add up to
    /// its whole (never printed, but any published share gives it away), and for each of hour
    /// and weekday, a mode's rows add up to its row in "all", and the groups' wholes to the
    /// whole of "all". A group's whole is sensitive when every row of it is (its persons, not
    /// counted here, are then taken as fewer than k).
    static func suppressed(_ totals: [ModalTotal], minimumPersons k: Int) -> Set<Int> {
        var cells = totals.map {
            CellSuppression.Cell(publishable: true, sensitive: $0.persons < k, size: $0.durationSeconds + Double($0.trips))
        }
        var members: [[String]: [Int]] = [:]
        for (index, total) in totals.enumerated() { members[[total.dimension, total.key], default: []].append(index) }
        var whole: [[String]: Int] = [:], revealedBy: [Int: [Int]] = [:]
        for (group, indices) in members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            whole[group] = cells.count
            revealedBy[cells.count] = indices
            cells.append(
                CellSuppression.Cell(
                    publishable: false, sensitive: indices.allSatisfy { cells[$0].sensitive },
                    size: indices.reduce(0) { $0 + cells[$1].size }))
        }
        var relations: [[(cell: Int, sign: Double)]] = members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).map {
            group, indices in
            indices.map { ($0, 1.0) } + [(whole[group]!, -1.0)]
        }
        let overall = Dictionary(
            totals.enumerated().filter { $0.element.dimension == "all" }.map { ($0.element.mode, $0.offset) },
            uniquingKeysWith: { first, _ in first })
        for dimension in Set(totals.map(\.dimension)).subtracting(["all"]).sorted() {
            let inDimension = totals.indices.filter { totals[$0].dimension == dimension }
            for (mode, all) in overall.sorted(by: { $0.key < $1.key }) {
                relations.append(inDimension.filter { totals[$0].mode == mode }.map { ($0, 1.0) } + [(all, -1.0)])
            }
            if let allWhole = whole[["all", "all"]] {
                relations.append(
                    Set(inDimension.map { [totals[$0].dimension, totals[$0].key] }).sorted { $0.lexicographicallyPrecedes($1) }
                        .map { (whole[$0]!, 1.0) } + [(allWhole, -1.0)])
            }
        }
        return CellSuppression(cells: cells, relations: relations, revealedBy: revealedBy).suppressed()
    }
}
