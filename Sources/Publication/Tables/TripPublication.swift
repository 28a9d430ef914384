import MobilityCore
import Trips

/// The trip tables a run publishes together, `od_matrix.csv` and `modal_split.csv`, computed
/// once from the same trips and audited together: every trip is in one OD pair, so a mode's
/// trips in the pairs' rows add up to its trips in the modal split (the whole day's and each
/// band's), and the rows' trips to the split's whole. A count left out of one table therefore
/// cannot be read from the other (`DisclosureAudit`). Both tables recode the same modes into
/// `other`: those fewer than k persons used over the whole data.
///
/// A single run gives the trips (`init(_:persons:calendars:bands:privacy:geofences:)`), a
/// distributed run their reductions (`init(odGroups:modalTotals:bands:privacy:geofences:)`): the
/// same cells, the same audit, the same files.
public struct TripPublication: Sendable {
    public var odMatrix: ODMatrix
    public var modalSplit: ModalSplit
    /// The split's whole-day and band rows, published or not, for the tables audited after it
    /// (`od_grid.csv`, `od_zones.csv`).
    public var margins: SplitMargins

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), privacy: PrivacyParameters, geofences: Int
    ) {
        self.init(
            odGroups: ODGroup.groups(devices, persons: persons, calendars: calendars, bands: bands),
            modalTotals: ModalTotal.totals(devices, persons: persons, calendars: calendars, bands: bands), bands: bands,
            privacy: privacy, geofences: geofences)
    }

    public init(odGroups: [ODGroup], modalTotals: [ModalTotal], bands: TimeBands = TimeBands(), privacy: PrivacyParameters, geofences: Int)
    {
        let split = ModalSplit.Prepared(modalTotals, k: privacy.k)
        let od = ODMatrix.Prepared(odGroups, k: privacy.k, bands: bands, recoding: split.recoding, geofences: geofences)
        // Two audits, one per measure: the trips, which the OD rows add up to, and the legs'
        // distance and time, which only the split publishes; a row either leaves out is left out.
        var audit = DisclosureAudit(), legs = DisclosureAudit()
        let splitCells = split.audit(into: &audit, measure: .trips)
        let legCells = split.audit(into: &legs, measure: .legs)
        let odCells = od.audit(into: &audit)
        Self.link(od, odCells, split, splitCells, into: &audit)
        let (hidden, dropped) = audit.suppressed()
        // The legs' audit starts from the rows the trips' left out: the same complements serve both where they can.
        let (legsHidden, legsDropped) = legs.suppressed(initial: Set(splitCells.hiddenRows(hidden).map { legCells.rows[$0] }))
        let narrow = audit.narrow(hidden: hidden)
        odMatrix = ODMatrix(od, cells: odCells, hidden: hidden, dropped: dropped, narrow: narrow)
        let splitHidden = splitCells.hiddenRows(hidden).union(legCells.hiddenRows(legsHidden))
        margins = SplitMargins(split, hidden: splitHidden)
        modalSplit = ModalSplit(
            split, hiddenRows: splitHidden,
            dropped: Array(Set(dropped + legsDropped)).filter { $0 != ODMatrix.Prepared.bandLayer },
            narrowCounts: Set(splitCells.rows).intersection(narrow).count)
    }

    /// The relations between the tables: per band (`all_day` with the split's `all` row, each
    /// band with its `time_band` row), each mode's trips over the OD rows equal the split's row
    /// of that mode, and the rows' trips its group's whole. A mode of the OD the split has no row
    /// for (legs only) has no relation.
    static func link(
        _ od: ODMatrix.Prepared, _ odCells: ODMatrix.Cells, _ split: ModalSplit.Prepared, _ splitCells: ModalSplit.Cells,
        into audit: inout DisclosureAudit
    ) {
        guard !od.groups.isEmpty else { return }
        var byBand: [String: [Int]] = [:]
        for (index, group) in od.groups.enumerated() { byBand[group.band, default: []].append(index) }
        for (band, members) in byBand.sorted(by: { od.rank($0.key) < od.rank($1.key) }) {
            let (dimension, key) = band == TimeBands.allDay ? ("all", "all") : ("time_band", band)
            if let whole = splitCells.wholes[[dimension, key]] {
                audit.relate(members.map { (odCells.totals[$0], 1.0) } + [(whole, -1.0)])
            }
            let modes = Set(members.flatMap { od.groups[$0].mainModes.keys }).sorted()
            for mode in modes {
                guard let row = splitCells.row(split.totals, dimension: dimension, key: key, mode: mode) else { continue }
                audit.relate(members.compactMap { member in odCells.modes[member][mode].map { ($0, 1.0) } } + [(row, -1.0)])
            }
        }
    }
}
