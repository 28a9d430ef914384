import MobilityCore
import Trips

/// Origin–destination table over geofence zones: one row per (time band, origin, destination)
/// of geofence ids (nil where a trip's end lies in no geofence), `all_day` and each band of the
/// departure, with each main mode's share of the row's trips.
///
/// Every count is a cell of the audit: a row's trips, and each mode's trips in it (its share
/// times the row's trips), each made by its own persons. A row fewer than k persons made is
/// left out; so is a share fewer than k persons made (printed empty), with the rows and shares
/// that would give either away by subtraction (a pair's band rows add up to its `all_day` row,
/// a row's modes to its trips). The modes fewer than k persons used over the whole data are
/// shown together as `other` (`ModeRecoding`). With no geofences at all the table has no rows:
/// its one pair would be every trip, the modal split again.
public struct ODMatrix: Sendable {
    public struct Row: Sendable, Equatable {
        /// `all_day` or a band's name.
        public var band: String
        public var origin: String?
        public var destination: String?
        public var trips: Int
        public var devices: Int
        public var persons: Int
        public var medianDurationSeconds: Double
        public var medianDistanceMeters: Double
        /// Share of the row's trips by main mode (recoded), keyed by mode name; a mode whose
        /// share is left out is absent, one without trips in the row too.
        public var modeShares: [String: Double]
        /// The modes with trips in the row whose share is left out.
        public var suppressedModes: Set<String> = []
    }

    public var rows: [Row]
    /// The k every row met: distinct persons per row.
    public var minimumPersons: Int
    /// Whole-day pairs, and their trips, made by fewer than `minimumPersons` persons: in no row.
    public var suppressedPairs = 0, suppressedTrips = 0
    /// Whole-day pairs of k persons or more, and their trips, left out so that those cannot be
    /// worked out.
    public var complementaryPairs = 0, complementaryTrips = 0
    /// Band rows under k, and band rows of k or more left out so the first cannot be subtracted.
    public var suppressedBandRows = 0, complementaryRows = 0
    /// Every band row left out, since protecting them would have taken whole-day rows.
    public var bandRowsLeftOut = false
    /// Mode shares left out of published rows: under k persons, and beside them.
    public var suppressedShares = 0, complementaryShares = 0
    /// The modes shown as `other`.
    public var recoding = ModeRecoding()
    /// Counts under k left out (rows and shares) whose feasible interval is narrower than ±k:
    /// no complement widened it (`CellSuppression`'s protection levels).
    public var narrowCounts = 0
    /// Geofences the trips' ends were matched against; nil: not said (a caller before it).
    public var geofences: Int?
    /// Per published table (`modal_split.csv` …), the margins (`all_day`, bands) the rows were
    /// audited against its rows in (`SplitMargins`); empty when audited alone.
    public var linkedMargins: [String: [String]] = [:]

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(
            groups: ODGroup.groups(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons,
            bands: bands)
    }

    /// The table of `groups`, audited alone, or against published splits' rows (`margins`: the
    /// table's trips are some of each one's).
    /// `recoding`: the modes shown as `other` (none by default).
    public init(
        groups: [ODGroup], minimumPersons: Int, bands: TimeBands = TimeBands(), geofences: Int? = nil,
        recoding: ModeRecoding = ModeRecoding(), margins: [SplitMargins] = []
    ) {
        var audit = DisclosureAudit()
        let prepared = Prepared(groups, k: minimumPersons, bands: bands, recoding: recoding, geofences: geofences)
        let cells = prepared.audit(into: &audit)
        let linked = prepared.link(cells, to: margins, into: &audit)
        let (hidden, dropped) = audit.suppressed()
        let narrow = audit.narrow(hidden: hidden)
        self.init(prepared, cells: cells, hidden: hidden, dropped: dropped, narrow: narrow)
        // The split's rows left out are bounded by this table's too: a narrow one is counted here.
        (linkedMargins, narrowCounts) = (linked, linked.isEmpty ? narrowCounts : narrow.count)
    }

    /// Medians (type 7) of each published row's durations and distances, the share of each main
    /// mode (trips of the mode / trips); rows by band (`all_day`, then `bands`' order), then
    /// trips, then origin and destination.
    init(_ prepared: Prepared, cells: Cells, hidden: Set<Int>, dropped: [String] = [], narrow: [Int] = []) {
        (minimumPersons, recoding, geofences) = (prepared.k, prepared.recoding, prepared.geofences)
        narrowCounts = Set(cells.totals + cells.modes.flatMap(\.values)).intersection(narrow).count
        bandRowsLeftOut = dropped.contains(Prepared.bandLayer) && prepared.groups.contains { $0.band != TimeBands.allDay }
        let sorted = prepared.groups
        for index in sorted.indices where hidden.contains(cells.totals[index]) {
            let (group, primary) = (sorted[index], sorted[index].persons < prepared.k)
            switch (group.band == TimeBands.allDay, primary) {
            case (true, true): (suppressedPairs, suppressedTrips) = (suppressedPairs + 1, suppressedTrips + group.trips)
            case (true, false): (complementaryPairs, complementaryTrips) = (complementaryPairs + 1, complementaryTrips + group.trips)
            case (false, true): suppressedBandRows += 1
            case (false, false): complementaryRows += 1
            }
        }
        let rank = prepared.rank
        var (shares, beside) = (0, 0)
        let k = prepared.k
        rows = sorted.indices.filter { !hidden.contains(cells.totals[$0]) }.map { index in
            let group = sorted[index]
            var row = Row(
                band: group.band, origin: group.origin, destination: group.destination, trips: group.trips, devices: group.devices,
                persons: group.persons, medianDurationSeconds: Quantile.median(group.durationsSeconds)!,
                medianDistanceMeters: Quantile.median(group.distancesMeters)!, modeShares: [:])
            for (mode, trips) in group.mainModes {
                if cells.modes[index][mode].map(hidden.contains) ?? true {
                    row.suppressedModes.insert(mode)
                    if (group.modePersons[mode] ?? 0) < k { shares += 1 } else { beside += 1 }
                } else {
                    row.modeShares[mode] = Double(trips) / Double(group.trips)
                }
            }
            return row
        }.sorted {
            (rank($0.band), -$0.trips, $0.origin ?? "", $0.destination ?? "") < (
                rank($1.band), -$1.trips, $1.origin ?? "", $1.destination ?? ""
            )
        }
        (suppressedShares, complementaryShares) = (shares, beside)
    }
}

extension ODMatrix {
    /// The groups as they are audited and published: recoded, in one canonical order.
    struct Prepared: Sendable {
        var groups: [ODGroup]
        var k: Int
        var recoding: ModeRecoding
        var geofences: Int?
        var bandOrder: [String: Int]

        /// `groups` with their modes recoded, sorted by origin, destination and band (one order
        /// for the audit, so a run and Spark leave out the same cells); none without geofences.
        init(_ groups: [ODGroup], k: Int, bands: TimeBands, recoding: ModeRecoding, geofences: Int?) {
            (self.k, self.recoding, self.geofences) = (k, recoding, geofences)
            bandOrder = Dictionary(uniqueKeysWithValues: ([TimeBands.allDay] + bands.names).enumerated().map { ($1, $0) })
            let order = bandOrder
            func rank(_ band: String) -> Int { order[band] ?? order.count }
            self.groups = (geofences == 0 ? [] : groups).map { group in
                var group = group
                (group.mainModes, group.modePersons) = recoding.recode(trips: group.mainModes, persons: group.modePersons)
                return group
            }.sorted {
                ($0.origin ?? "", $0.destination ?? "", rank($0.band), $0.band) < (
                    $1.origin ?? "", $1.destination ?? "", rank($1.band), $1.band
                )
            }
        }

        func rank(_ band: String) -> Int { bandOrder[band] ?? bandOrder.count }

        /// Links the rows at `cells` to the split's `margins` (`SplitMargins.link`); a band with a
        /// group of a version before persons per mode (no share cells) is not linked.
        func link(_ cells: Cells, to margins: [SplitMargins], into audit: inout DisclosureAudit) -> [String: [String]] {
            let withoutShares = Set(groups.filter { $0.modePersons.isEmpty }.map(\.band))
            let rows = groups.indices.filter { !withoutShares.contains(groups[$0].band) }.map { index in
                SplitMargins.LinkedRow(
                    band: groups[index].band, total: cells.totals[index], trips: groups[index].trips,
                    modes: Dictionary(
                        uniqueKeysWithValues: cells.modes[index].map {
                            ($0.key, (cell: $0.value, trips: groups[index].mainModes[$0.key] ?? 0))
                        }))
            }
            return SplitMargins.link(rows, to: margins, recoding: recoding, k: k, layer: Self.bandLayer, into: &audit)
        }

        /// What leaving a row out costs against leaving one of its shares out, per trip: a row
        /// takes its trips, medians and every share with it, so complementary cells are shares
        /// first (the heuristic that loses the fewest published trips).
        static let rowCost = 10.0

        /// The sub-table of the band rows (`DisclosureAudit`).
        static let bandLayer = "od_time_band"

        /// Adds the table's cells and relations to `audit`: each row's trips and each of its
        /// modes' trips; a row's modes add up to its trips, and a pair's band rows (and each
        /// mode's in them) to its `all_day` row. Groups of a version before bands (a Spark
        /// part's reductions) have no band rows, and no band relation.
        func audit(into audit: inout DisclosureAudit) -> Cells {
            var cells = Cells()
            for group in groups {
                // The band rows are a sub-table of their own (`DisclosureAudit`): when they cannot be
                // protected without whole-day rows, they are left out, not those.
                let layer = group.band == TimeBands.allDay ? nil : Self.bandLayer
                cells.totals.append(
                    audit.add(
                        CellSuppression.Cell(
                            publishable: true, sensitive: group.persons < k, size: Self.rowCost * Double(group.trips),
                            value: Double(group.trips), protection: Double(k)),
                        layer: layer))
                var modes: [String: Int] = [:]
                // Groups a version before persons per mode reduced have no share cells: their shares are left out.
                for mode in group.mainModes.keys.sorted(by: { (publishedModeRank($0), $0) < (publishedModeRank($1), $1) })
                where !group.modePersons.isEmpty {
                    modes[mode] = audit.add(
                        CellSuppression.Cell(
                            publishable: true, sensitive: (group.modePersons[mode] ?? 0) < k, size: Double(group.mainModes[mode]!),
                            protection: Double(k)),
                        layer: layer)
                }
                cells.modes.append(modes)
            }
            for (index, group) in groups.enumerated() where !group.modePersons.isEmpty {
                audit.relate(
                    group.mainModes.keys.sorted().map { (cells.modes[index][$0]!, 1.0) } + [(cells.totals[index], -1.0)])
            }
            var start = 0
            for index in groups.indices
            where index == groups.count - 1
                || (groups[index + 1].origin, groups[index + 1].destination) != (groups[index].origin, groups[index].destination)
            {
                let pair = Array(start...index)
                start = index + 1
                guard pair.count > 1, let whole = pair.first(where: { groups[$0].band == TimeBands.allDay }) else { continue }
                audit.relate(pair.map { (cells.totals[$0], $0 == whole ? -1.0 : 1.0) })
                for mode in groups[whole].mainModes.keys.sorted() {
                    audit.relate(pair.compactMap { member in cells.modes[member][mode].map { ($0, member == whole ? -1.0 : 1.0) } })
                }
            }
            return cells
        }
    }

    /// Where the table's counts are in an audit.
    struct Cells: Sendable {
        /// The cell of each group's trips, in `Prepared.groups`' order.
        var totals: [Int] = []
        /// The cell of each group's trips of each mode.
        var modes: [[String: Int]] = []
    }
}
