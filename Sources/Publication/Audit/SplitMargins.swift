import Foundation
import MobilityCore
import Trips

/// What a modal split published of its trips (`modal_split.csv`, or `mode_shares.csv`, the split
/// of valid person-days), as margins for the tables published after it (`od_grid.csv`,
/// `od_zones.csv`, `mode_shares.csv`, `co2e.csv`): those count the same trips again, a subset of them, so a
/// mode's trips over a later table's rows can be no more than the split's row of that mode, and
/// a count left out of the later table must keep its protection against the split's published
/// rows too. Statistics offices audit a release's linked tables together, the tables published
/// earlier as fixed (Hundepool et al., *Statistical Disclosure Control*, 2012, §5.4, "linked
/// tables"; τ-ARGUS's "linked tables" with a table already released held fixed).
///
/// Per margin (the whole day and each time band) every row of the split with trips: its mode
/// (recoded), its trips, whether it was published, and whether fewer than k persons made it.
/// Kept in the restricted store between the trip stage and the publish stage (`--json`'s
/// modal split does not say the rows left out; the audit needs their values).
public struct SplitMargins: Sendable, Codable, Equatable {
    public struct Row: Sendable, Codable, Equatable {
        public var mode: String
        public var trips: Int
        public var published: Bool
        public var underK: Bool

        public init(mode: String, trips: Int, published: Bool, underK: Bool) {
            (self.mode, self.trips, self.published, self.underK) = (mode, trips, published, underK)
        }

        enum CodingKeys: String, CodingKey { case mode, trips, published, underK = "under_k" }
    }

    /// The published file the rows are of (`modal_split.csv`, `mode_shares.csv`).
    public var table: String
    /// The modes the split shows as `other`.
    public var recoded: [String]
    /// `all_day` and each band's name → the split's rows of that margin, in the split's order.
    public var margins: [String: [Row]]

    public init(table: String = Self.modalSplit, recoded: [String], margins: [String: [Row]]) {
        (self.table, self.recoded, self.margins) = (table, recoded, margins)
    }

    /// The file of the modal split, the margins of every later table.
    public static let modalSplit = "modal_split.csv"

    /// The margins as the store keeps them (compact JSON).
    public func text() throws -> String { try JSONText.string(self, keys: .asDeclared, layout: .compact) }

    /// The margins the store kept; nil for none, or text of another version.
    public init?(text: String?) {
        guard let text, !text.isEmpty, let margins = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = margins
    }

    /// The margins of `prepared` with its rows at `hidden` left out.
    init(_ prepared: ModalSplit.Prepared, hidden: Set<Int>, table: String = Self.modalSplit) {
        (self.table, recoded) = (table, prepared.recoding.names)
        var margins: [String: [Row]] = [:]
        for (index, total) in prepared.totals.enumerated() where total.trips > 0 {
            let band: String
            switch total.dimension {
            case "all": band = TimeBands.allDay
            case "time_band": band = total.key
            default: continue
            }
            margins[band, default: []].append(
                Row(mode: total.mode, trips: total.trips, published: !hidden.contains(index), underK: total.tripPersons < prepared.k))
        }
        self.margins = margins
    }

    /// A later table's row in one margin, as its audit holds it: the cell of its trips, and the
    /// cell and trips of each of its modes (recoded by the table).
    struct LinkedRow {
        var band: String
        var total: Int, trips: Int
        var modes: [String: (cell: Int, trips: Int)]
    }

    /// Adds to `audit` the relations between a later table's rows and the split: per margin and
    /// per class of modes (a table's mode and the split's that share a raw mode, joined: the two
    /// recode apart), the table's trips of the class over its rows (published or left out) and
    /// a remainder ≥ 0 (trips in no row: under k at the coarsest, without both ends, outside
    /// every zone, on an invalid person-day) add up to the split's rows of the class; the
    /// remainders add up to the trips in no row, known for the whole day (`--json` counts them),
    /// and the rows' trips and those to the split's whole. The split's published rows are known
    /// cells, its rows left out unknown ones (those under k keep their protection of ±k), its
    /// whole known where any row of its margin is published. `layer`: the sub-table of a band's
    /// cells (`DisclosureAudit`); the whole day's are the base.
    ///
    /// Returns the margins linked; a margin whose rows the table's exceed (not the same trips)
    /// is not.
    static func link(
        _ tableRows: [LinkedRow], to margins: [SplitMargins], recoding: ModeRecoding, k: Int, layer: String,
        into audit: inout DisclosureAudit
    ) -> [String: [String]] {
        var linked: [String: [String]] = [:]
        for margin in margins {
            let bands = margin.link(tableRows, recoding: recoding, k: k, layer: layer, into: &audit)
            if !bands.isEmpty { linked[margin.table, default: []] += bands }
        }
        return linked
    }

    func link(
        _ tableRows: [LinkedRow], recoding: ModeRecoding, k: Int, layer bandLayer: String, into audit: inout DisclosureAudit
    ) -> [String] {
        var linked: [String] = []
        let splitRecoding = ModeRecoding(recoded: Set(recoded))
        for band in Set(tableRows.map(\.band)).sorted() {
            guard let rows = margins[band], !rows.isEmpty else { continue }
            let members = tableRows.filter { $0.band == band }
            let classes = Self.classes(
                tableModes: Set(members.flatMap(\.modes.keys)), splitModes: Set(rows.map(\.mode)), table: recoding, split: splitRecoding)
            var tableTrips = [Int](repeating: 0, count: classes.count), splitTrips = tableTrips
            var classOf: [String: Int] = [:]
            for (index, members) in classes.enumerated() { for name in members.table { classOf["t " + name] = index } }
            for (index, members) in classes.enumerated() { for name in members.split { classOf["s " + name] = index } }
            for member in members { for (mode, found) in member.modes { tableTrips[classOf["t " + mode]!] += found.trips } }
            for row in rows { splitTrips[classOf["s " + row.mode]!] += row.trips }
            let whole = rows.reduce(0) { $0 + $1.trips }, inRows = members.reduce(0) { $0 + $1.trips }
            guard whole >= inRows, zip(splitTrips, tableTrips).allSatisfy({ $0 >= $1 }) else { continue }
            let layer = band == TimeBands.allDay ? nil : bandLayer
            let splitCells = rows.map { row in
                audit.add(
                    CellSuppression.Cell(
                        publishable: false, sensitive: !row.published && row.underK, size: Double(row.trips),
                        protection: row.published ? 0 : Double(k), known: row.published),
                    layer: layer)
            }
            let wholeCell = audit.add(
                CellSuppression.Cell(publishable: false, sensitive: false, size: Double(whole), known: rows.contains(where: \.published)),
                layer: layer)
            let restCell = audit.add(
                CellSuppression.Cell(publishable: false, sensitive: false, size: Double(whole - inRows), known: band == TimeBands.allDay),
                layer: layer)
            let remainders = classes.indices.map { index in
                audit.add(
                    CellSuppression.Cell(publishable: false, sensitive: false, size: Double(splitTrips[index] - tableTrips[index])),
                    layer: layer)
            }
            audit.relate(splitCells.map { ($0, 1.0) } + [(wholeCell, -1.0)])
            audit.relate(members.map { ($0.total, 1.0) } + [(restCell, 1.0), (wholeCell, -1.0)])
            audit.relate(remainders.map { ($0, 1.0) } + [(restCell, -1.0)])
            for (index, modes) in classes.enumerated() {
                let table = members.flatMap { member in modes.table.sorted().compactMap { member.modes[$0] }.map { ($0.cell, 1.0) } }
                let split = rows.indices.filter { modes.split.contains(rows[$0].mode) }.map { (splitCells[$0], -1.0) }
                audit.relate(table + [(remainders[index], 1.0)] + split)
            }
            linked.append(band)
        }
        return linked
    }

    /// The classes of modes: a table's mode names and the split's that hold the same raw modes,
    /// joined (`other` of one table may be several rows of the other). Every name of `tableModes`
    /// and `splitModes` is in one class, classes in the order of their first name.
    public static func classes(tableModes: Set<String>, splitModes: Set<String>, table: ModeRecoding, split: ModeRecoding) -> [(
        table: Set<String>, split: Set<String>
    )] {
        var parent: [String: String] = [:]
        func root(_ node: String) -> String {
            var node = node
            while let up = parent[node], up != node { node = up }
            return node
        }
        func join(_ a: String, _ b: String) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        let nodes = tableModes.map { "t " + $0 } + splitModes.map { "s " + $0 }
        for node in nodes { parent[node] = node }
        // Each raw mode either table could hold: a name neither recodes, or one either recodes.
        let raw = Set(tableModes.union(splitModes).subtracting([ModeRecoding.other])).union(table.recoded).union(split.recoded)
        for mode in raw.sorted() {
            let (t, s) = ("t " + table.name(mode), "s " + split.name(mode))
            if parent[t] != nil, parent[s] != nil { join(t, s) }
        }
        var byRoot: [String: (table: Set<String>, split: Set<String>)] = [:]
        for node in nodes {
            let name = String(node.dropFirst(2))
            if node.hasPrefix("t ") {
                byRoot[root(node), default: ([], [])].table.insert(name)
            } else {
                byRoot[root(node), default: ([], [])].split.insert(name)
            }
        }
        return byRoot.sorted { $0.key < $1.key }.map(\.value)
    }
}
