import MobilityCore
import Trips

/// Modal split by trips (main mode), distance and time (legs), overall and by local hour of
/// day, weekday, time band (`TimeBands`) and trip purpose. A trip counts in the hour, weekday
/// and band it starts in; a leg likewise. Per-device splits are in `device_stats.csv`.
///
/// Before suppressing, the modes fewer than k persons used are published together as `other`
/// (`ModeRecoding`). Then a row fewer than k distinct persons made is left out, and so are the
/// rows that would give it away by subtraction from the others and the margins
/// (`CellSuppression`); shares are of the whole group, left-out rows included. Each breakdown
/// (hour, weekday, time band, purpose) is protected with the whole-day rows as its margins
/// (`DisclosureAudit`): one that cannot be without leaving out a whole-day row is left out
/// whole instead (`dimensionsLeftOut`), so the whole-day rows survive a small panel. The hour of
/// day left out so is recoded into the time bands, which the `time_band` rows give.
///
/// A row's distance and time are magnitudes: published only where the dominance rule holds for
/// each (`DominanceRule`: the two persons with most of it make no more than 85 %), and for the
/// whole of its group (which any share gives away); otherwise they, and the magnitudes that would
/// give them away by subtraction, are left out while the row's trips stand.
public struct ModalSplit: Sendable {
    public struct Row: Sendable, Equatable, Codable {
        /// "all", "hour", "weekday", "time_band" or "trip_purpose".
        public var dimension: String
        public var key: String
        public var mode: String
        public var trips: Int
        public var persons: Int
        public var tripShare: Double
        /// The legs' distance and time, and their shares of the group's; nil where the dominance
        /// rule leaves them out.
        public var distanceMeters: Double?
        public var distanceShare: Double?
        public var durationSeconds: Double?
        public var durationShare: Double?
    }

    public var rows: [Row]
    /// Each group's whole (dimension, key: its rows' trips, distance and time, left-out rows
    /// included), which the shares are of; never printed but where a published share gives it away.
    public var wholes: [Whole] = []
    public struct Whole: Sendable, Equatable, Codable {
        public var dimension: String, key: String, trips: Int, distanceMeters: Double, durationSeconds: Double
    }
    /// The k every published row met: distinct persons per row.
    public var minimumPersons: Int
    /// Rows under k persons (`primary`), and rows left out so that those cannot be recovered
    /// by subtraction (`complementary`).
    public var suppressedPrimary = 0, suppressedComplementary = 0
    /// Trips of the whole day's rows (`all`) left out under k, and beside them.
    public var suppressedTrips = 0, complementaryTrips = 0
    /// The modes published as `other`.
    public var recoding = ModeRecoding()
    /// The breakdowns left out whole (their rows' count), since protecting them would have
    /// taken whole-day rows (`hour`: recoded into the time bands).
    public var dimensionsLeftOut: [String: Int] = [:]
    /// Counts under k left out whose feasible interval is narrower than ±k: no complement
    /// widened it (`CellSuppression`'s protection levels).
    public var narrowCounts = 0
    /// Published rows whose distance and time the dominance rule leaves out (two persons make
    /// 85 % of one of them, or of its group's whole), and rows whose distance and time are left
    /// out beside them.
    public var dominatedMagnitudes = 0, complementaryMagnitudes = 0

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(totals: ModalTotal.totals(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons)
    }

    /// The split of `totals`, audited alone: its trips, and its legs' distance and time, each
    /// measure in an audit of its own (a row left out by either is left out).
    public init(totals: [ModalTotal], minimumPersons: Int) {
        let prepared = Prepared(totals, k: minimumPersons)
        var (trips, legs) = (DisclosureAudit(), DisclosureAudit())
        let (tripCells, legCells) = (prepared.audit(into: &trips, measure: .trips), prepared.audit(into: &legs, measure: .legs))
        let (tripsHidden, tripsDropped) = trips.suppressed()
        let (legsHidden, legsDropped) = legs.suppressed(initial: Set(tripCells.hiddenRows(tripsHidden).map { legCells.rows[$0] }))
        self.init(
            prepared, hiddenRows: tripCells.hiddenRows(tripsHidden).union(legCells.hiddenRows(legsHidden)),
            dropped: Array(Set(tripsDropped + legsDropped)).sorted(), narrowCounts: trips.narrow(hidden: tripsHidden).count)
    }

    /// The split of `prepared` with the rows at `hiddenRows` (of `prepared.totals`) left out,
    /// and the breakdowns `dropped` left out whole.
    init(_ prepared: Prepared, hiddenRows left: Set<Int>, dropped: [String], narrowCounts: Int = 0) {
        (minimumPersons, recoding, self.narrowCounts) = (prepared.k, prepared.recoding, narrowCounts)
        let ordered = prepared.totals
        for dimension in dropped { dimensionsLeftOut[dimension] = ordered.filter { $0.dimension == dimension }.count }
        struct Sum { var trips = 0, distance = 0.0, duration = 0.0 }
        var wholes: [[String]: Sum] = [:]
        for total in ordered.sorted(by: { publishedModeRank($0.mode) < publishedModeRank($1.mode) }) {
            let group = [total.dimension, total.key]
            wholes[group, default: Sum()].trips += total.trips
            wholes[group, default: Sum()].distance += total.distanceMeters
            wholes[group, default: Sum()].duration += total.durationSeconds
        }
        self.wholes = wholes.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { group, whole in
            Whole(dimension: group[0], key: group[1], trips: whole.trips, distanceMeters: whole.distance, durationSeconds: whole.duration)
        }
        func share(_ part: Double, _ whole: Double) -> Double { whole > 0 ? part / whole : 0 }
        for index in left where dimensionsLeftOut[ordered[index].dimension] == nil {
            let primary = Prepared.isUnderK(ordered[index], k: prepared.k)
            if primary { suppressedPrimary += 1 } else { suppressedComplementary += 1 }
            guard ordered[index].dimension == "all" else { continue }
            if primary { suppressedTrips += ordered[index].trips } else { complementaryTrips += ordered[index].trips }
        }
        let magnitudes = prepared.magnitudesLeftOut(hidden: left)
        for index in ordered.indices where !left.contains(index) && magnitudes.left.contains(index) {
            if magnitudes.dominated.contains(index) { dominatedMagnitudes += 1 } else { complementaryMagnitudes += 1 }
        }
        rows = ordered.enumerated().filter { !left.contains($0.offset) }.map { index, total in
            let whole = wholes[[total.dimension, total.key]]!
            let shown = !magnitudes.left.contains(index)
            return Row(
                dimension: total.dimension, key: total.key, mode: total.mode, trips: total.trips, persons: total.persons,
                tripShare: share(Double(total.trips), Double(whole.trips)), distanceMeters: shown ? total.distanceMeters : nil,
                distanceShare: shown ? share(total.distanceMeters, whole.distance) : nil,
                durationSeconds: shown ? total.durationSeconds : nil,
                durationShare: shown ? share(total.durationSeconds, whole.duration) : nil)
        }
    }

    /// The indices of `totals` to leave out, audited alone and without recoding (`mode_shares.csv`
    /// recodes its own trips first). The relations are `Prepared.audit`'s.
    /// The indices of `totals` to leave out of another measure of the same rows (a weighted
    /// value): `sensitive` and `sizes` per row, from `initial` (the rows the counts left out).
    static func suppressed(_ totals: [ModalTotal], sensitive: [Bool], sizes: [Double], initial: Set<Int>) -> Set<Int> {
        var audit = DisclosureAudit()
        let cells = Prepared(asGiven: totals, k: 1).audit(into: &audit, measure: .trips)
        for (index, cell) in cells.rows.enumerated() { audit.set(cell, sensitive: sensitive[index], size: sizes[index]) }
        for (group, whole) in cells.wholes {
            let members = totals.indices.filter { [totals[$0].dimension, totals[$0].key] == group }
            audit.set(whole, sensitive: members.allSatisfy { sensitive[$0] }, size: members.reduce(0) { $0 + sizes[$1] })
        }
        return cells.hiddenRows(audit.suppressed(initial: Set(initial.map { cells.rows[$0] })).hidden)
    }

    /// `margins`: the modal split's published rows, which `totals` (some of its trips again) are
    /// audited against (`SplitMargins`); the margins linked, and the counts under k left narrow.
    static func suppressed(_ totals: [ModalTotal], minimumPersons k: Int, margins: [SplitMargins] = []) -> (
        hidden: Set<Int>, linked: [String: [String]], narrow: Int
    ) {
        var audit = DisclosureAudit()
        let prepared = Prepared(asGiven: totals, k: k)
        let cells = prepared.audit(into: &audit, measure: .trips)
        let linked = prepared.link(cells, to: margins, into: &audit)
        let hidden = audit.suppressed().hidden
        return (cells.hiddenRows(hidden), linked, audit.narrow(hidden: hidden).count)
    }
}

extension ModalSplit {
    /// The totals as they are audited and published: recoded, in one canonical order.
    struct Prepared: Sendable {
        var totals: [ModalTotal]
        var k: Int
        var recoding = ModeRecoding()

        /// `totals` recoded (`ModeRecoding` from the `all` row's persons per mode) and sorted by
        /// dimension, key, mode:
        /// one order for the audit whatever order the totals came in (a dictionary's, or a
        /// distributed run's reducers'), so a run and Spark leave out the same rows, every time.
        init(_ totals: [ModalTotal], k: Int, recoding: ModeRecoding? = nil) {
            self.k = k
            let overall = Dictionary(
                totals.filter { $0.dimension == "all" }.map { ($0.mode, $0.persons) }, uniquingKeysWith: { max($0, $1) })
            self.recoding = recoding ?? ModeRecoding(persons: overall, k: k)
            var merged: [[String]: ModalTotal] = [:]
            // Added in mode order, so that the sums' last digit does not follow the input's order.
            for total in totals.sorted(by: { (publishedModeRank($0.mode), $0.mode) < (publishedModeRank($1.mode), $1.mode) }) {
                let mode = self.recoding.name(total.mode)
                let key = [total.dimension, total.key, mode]
                var row =
                    merged[key]
                    ?? ModalTotal(
                        dimension: total.dimension, key: total.key, mode: mode, trips: 0, distanceMeters: 0, durationSeconds: 0, persons: 0)
                row.trips += total.trips
                row.distanceMeters += total.distanceMeters
                row.durationSeconds += total.durationSeconds
                // Each person's part over the modes recoded together, in the same mode order.
                row.distanceByPerson.merge(total.distanceByPerson, uniquingKeysWith: +)
                row.durationByPerson.merge(total.durationByPerson, uniquingKeysWith: +)
                row.persons = max(row.persons, total.persons)
                row.tripPersons = max(row.tripPersons, total.tripPersons)
                row.legPersons = max(row.legPersons, total.legPersons)
                merged[key] = row
            }
            self.totals = Self.ordered(Array(merged.values))
        }

        /// Links the whole-day and band rows at `cells` to the split's `margins`
        /// (`SplitMargins.link`): each group's whole is its rows' trips.
        func link(_ cells: Cells, to margins: [SplitMargins], into audit: inout DisclosureAudit) -> [String: [String]] {
            let rows = cells.wholes.filter { ["all", "time_band"].contains($0.key[0]) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
                .map { group, whole in
                    let members = totals.indices.filter { [totals[$0].dimension, totals[$0].key] == group }
                    return SplitMargins.LinkedRow(
                        band: group[0] == "all" ? TimeBands.allDay : group[1], total: whole,
                        trips: members.reduce(0) { $0 + totals[$1].trips },
                        modes: Dictionary(
                            members.map { (totals[$0].mode, (cell: cells.rows[$0], trips: totals[$0].trips)) },
                            uniquingKeysWith: { first, _ in first }))
                }
            return SplitMargins.link(rows, to: margins, recoding: recoding, k: k, layer: "time_band", into: &audit)
        }

        /// The rows (indices of `totals`) whose distance and time are left out, from the rows
        /// `hidden` whole: those the dominance rule holds back (`dominated`: a measure of the row,
        /// or of its group's whole, two persons make more than 85 % of), and the magnitudes that
        /// would give them away by the table's relations (the audit of the counts' relations with
        /// each row's distance and time as its size, from `hidden`).
        func magnitudesLeftOut(hidden: Set<Int>) -> (left: Set<Int>, dominated: Set<Int>) {
            func dominated(_ distance: [String: Double], _ duration: [String: Double]) -> Bool {
                !DominanceRule.publishes(Array(distance.values), k: k) || !DominanceRule.publishes(Array(duration.values), k: k)
            }
            var wholes: [[String]: (distance: [String: Double], duration: [String: Double])] = [:]
            for total in totals {
                let group = [total.dimension, total.key]
                for (person, part) in total.distanceByPerson { wholes[group, default: ([:], [:])].distance[person, default: 0] += part }
                for (person, part) in total.durationByPerson { wholes[group, default: ([:], [:])].duration[person, default: 0] += part }
            }
            let sensitive = totals.map { total in
                let whole = wholes[[total.dimension, total.key]] ?? ([:], [:])
                return dominated(total.distanceByPerson, total.durationByPerson) || dominated(whole.distance, whole.duration)
            }
            let dominatedRows = Set(totals.indices.filter { sensitive[$0] && !hidden.contains($0) })
            guard !dominatedRows.isEmpty else { return (hidden, []) }
            let left = ModalSplit.suppressed(
                totals, sensitive: sensitive, sizes: totals.map { $0.distanceMeters + $0.durationSeconds }, initial: hidden)
            return (left, dominatedRows)
        }

        /// `totals` as given: already recoded, in the order the caller audits them in.
        init(asGiven totals: [ModalTotal], k: Int) {
            (self.totals, self.k) = (totals, k)
        }

        /// Whether fewer than k persons made a measure the row has: its trips, or its legs.
        static func isUnderK(_ total: ModalTotal, k: Int) -> Bool {
            (total.trips > 0 && total.tripPersons < k) || ((total.durationSeconds > 0 || total.distanceMeters > 0) && total.legPersons < k)
        }

        static func ordered(_ totals: [ModalTotal]) -> [ModalTotal] {
            let dimensionOrder = ["all": 0, "hour": 1, "weekday": 2, "time_band": 3, "trip_purpose": 4]
            let weekdayOrder = Dictionary(uniqueKeysWithValues: CalendarKeys.weekdayNames.enumerated().map { ($1, $0) })
            return totals.sorted {
                (dimensionOrder[$0.dimension] ?? 5, weekdayOrder[$0.key] ?? 0, $0.key, publishedModeRank($0.mode), $0.mode)
                    < (dimensionOrder[$1.dimension] ?? 5, weekdayOrder[$1.key] ?? 0, $1.key, publishedModeRank($1.mode), $1.mode)
            }
        }

        /// Adds the table's cells and relations to `audit`: each group's rows add up to its
        /// whole (never printed, but any published share gives it away), and for each dimension
        /// but `all`, a mode's rows add up to its row in `all`, and the groups' wholes to the
        /// whole of `all`. A group's whole is sensitive when every row of it is (its persons, not
        /// counted here, are then taken as fewer than k).
        func audit(into audit: inout DisclosureAudit, measure: Measure) -> Cells {
            var cells = Cells()
            func layer(_ dimension: String) -> String? { dimension == "all" ? nil : dimension }
            cells.rows = totals.map { total in
                // A measure a row has none of (a row of legs alone has no trips) is 0 by the table's
                // own make: nothing to hide, and the other measure's audit holds the row.
                let has = measure == .trips ? total.trips > 0 : total.durationSeconds > 0 || total.distanceMeters > 0
                let persons = measure == .trips ? total.tripPersons : total.legPersons
                return audit.add(
                    CellSuppression.Cell(
                        publishable: true, sensitive: persons < k && has,
                        size: measure == .trips ? Double(total.trips) : total.durationSeconds + total.distanceMeters,
                        protection: measure == .trips ? Double(k) : 0),
                    layer: layer(total.dimension))
            }
            var members: [[String]: [Int]] = [:]
            for (index, total) in totals.enumerated() { members[[total.dimension, total.key], default: []].append(index) }
            let groups = members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) })
            for (group, indices) in groups {
                let whole = audit.add(
                    CellSuppression.Cell(
                        publishable: false, sensitive: indices.allSatisfy { audit.cells[cells.rows[$0]].sensitive },
                        size: indices.reduce(0) { $0 + audit.cells[cells.rows[$1]].size }), layer: layer(group[0]))
                cells.wholes[group] = whole
                audit.reveal(whole, by: indices.map { cells.rows[$0] })
            }
            for (group, indices) in groups { audit.relate(indices.map { (cells.rows[$0], 1.0) } + [(cells.wholes[group]!, -1.0)]) }
            let overall = Dictionary(
                totals.enumerated().filter { $0.element.dimension == "all" }.map { ($0.element.mode, $0.offset) },
                uniquingKeysWith: { first, _ in first })
            for dimension in Set(totals.map(\.dimension)).subtracting(["all"]).sorted() {
                let inDimension = totals.indices.filter { totals[$0].dimension == dimension }
                for (mode, all) in overall.sorted(by: { $0.key < $1.key }) {
                    audit.relate(
                        inDimension.filter { totals[$0].mode == mode }.map { (cells.rows[$0], 1.0) } + [(cells.rows[all], -1.0)])
                }
                if let allWhole = cells.wholes[["all", "all"]] {
                    audit.relate(
                        Set(inDimension.map { [totals[$0].dimension, totals[$0].key] }).sorted { $0.lexicographicallyPrecedes($1) }
                            .map { (cells.wholes[$0]!, 1.0) } + [(allWhole, -1.0)])
                }
            }
            return cells
        }
    }

    /// What an audit counts of each row: its trips (which the OD's rows add up to), or its legs'
    /// distance and time (which add up the same way, over other relations of no other table).
    enum Measure: Sendable { case trips, legs }

    /// Where the table's rows and its groups' wholes are in an audit.
    struct Cells: Sendable {
        /// The rows (indices of `Prepared.totals`) whose cells are in `hidden`.
        func hiddenRows(_ hidden: Set<Int>) -> Set<Int> { Set(rows.indices.filter { hidden.contains(rows[$0]) }) }

        /// The audit's cell of each of `Prepared.totals`.
        var rows: [Int] = []
        /// The audit's cell of each (dimension, key) group's whole.
        var wholes: [[String]: Int] = [:]
        /// The cell of `mode`'s row in (dimension, key), if it has one.
        func row(_ totals: [ModalTotal], dimension: String, key: String, mode: String) -> Int? {
            totals.firstIndex { $0.dimension == dimension && $0.key == key && $0.mode == mode }.map { rows[$0] }
        }
    }
}
