import Foundation
import Trips

/// What `od_matrix.csv` published and suppressed under k persons per pair.
public struct ODMatrixCounts: Sendable, Codable, Equatable {
    /// Whole-day pairs published, and those (and their trips) made by fewer than k persons.
    public var pairs = 0, suppressedPairs = 0, suppressedTrips = 0, minimumPersons = 0
    /// Whole-day pairs of k persons or more (and their trips) left out beside those.
    public var complementaryPairs = 0, complementaryTrips = 0
    /// Time-band rows published, those under k, and those left out beside them.
    public var bandRows = 0, suppressedBandRows = 0, complementaryRows = 0
    /// Every time-band row left out, since protecting them would have taken whole-day rows.
    public var bandRowsLeftOut = false
    /// Mode shares left out of published rows: under k, and beside them.
    public var suppressedShares = 0, complementaryShares = 0
    /// The geofences trips were matched against (nil: not known, a store before it).
    public var geofences: Int?
    /// The modes shown together as `other` (fewer than k persons used them).
    public var recodedModes: [String] = []
    /// Counts under k left out whose feasible interval no complement widened to ±k.
    public var narrowCounts = 0

    public init() {}

    public init(_ matrix: ODMatrix) {
        (pairs, suppressedPairs, suppressedTrips, minimumPersons) = (
            matrix.rows.filter { $0.band == TimeBands.allDay }.count, matrix.suppressedPairs, matrix.suppressedTrips, matrix.minimumPersons
        )
        (complementaryPairs, complementaryTrips) = (matrix.complementaryPairs, matrix.complementaryTrips)
        (bandRows, suppressedBandRows, complementaryRows) = (
            matrix.rows.filter { $0.band != TimeBands.allDay }.count, matrix.suppressedBandRows, matrix.complementaryRows
        )
        (bandRowsLeftOut, suppressedShares, complementaryShares) = (
            matrix.bandRowsLeftOut, matrix.suppressedShares, matrix.complementaryShares
        )
        (geofences, recodedModes, narrowCounts) = (matrix.geofences, matrix.recoding.names, matrix.narrowCounts)
    }

    public var line: String {
        if geofences == 0 {
            return "OD matrix: no geofences were given, so od_matrix.csv has no rows (its one pair would be every trip); a geofences "
                + "file among the inputs (GeoJSON, or a CSV of circles id,name,kind,lat,lon,radius_m) gives its pairs, and od_grid.csv "
                + "places trips without them"
        }
        return
            "OD matrix: \(pairs) geofence pairs published, \(suppressedPairs) made by fewer than k = \(minimumPersons) persons suppressed "
            + "(\(suppressedTrips) trips) and \(complementaryPairs) beside them (\(complementaryTrips) trips); "
            + (bandRowsLeftOut
                ? "no time-band row published (\(suppressedBandRows) under k, and the others could not be protected without whole-day rows)"
                : "\(bandRows) time-band rows published, \(suppressedBandRows) under k and \(complementaryRows) beside them left out")
            + "; \(suppressedShares) mode shares left out under k and \(complementaryShares) beside them"
            + (recodedModes.isEmpty ? "" : "; shown as other: " + recodedModes.joined(separator: ", "))
            + PublishedCounts.narrowText(narrowCounts)
    }

    enum CodingKeys: String, CodingKey {
        case pairs, suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", minimumPersons = "k"
        case complementaryPairs = "complementary_pairs", complementaryTrips = "complementary_trips"
        case bandRows = "band_rows", suppressedBandRows = "suppressed_band_rows", complementaryRows = "complementary_rows"
        case bandRowsLeftOut = "band_rows_left_out", suppressedShares = "suppressed_shares", complementaryShares = "complementary_shares"
        case geofences, recodedModes = "recoded_modes", narrowCounts = "narrow_counts"
    }

    /// Counts stored by a version before time bands (or before shares were audited) read back without them.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (pairs, suppressedPairs) = (try c.decode(Int.self, forKey: .pairs), try c.decode(Int.self, forKey: .suppressedPairs))
        (suppressedTrips, minimumPersons) = (
            try c.decode(Int.self, forKey: .suppressedTrips), try c.decode(Int.self, forKey: .minimumPersons)
        )
        bandRows = try c.decodeIfPresent(Int.self, forKey: .bandRows) ?? 0
        suppressedBandRows = try c.decodeIfPresent(Int.self, forKey: .suppressedBandRows) ?? 0
        complementaryRows = try c.decodeIfPresent(Int.self, forKey: .complementaryRows) ?? 0
        complementaryPairs = try c.decodeIfPresent(Int.self, forKey: .complementaryPairs) ?? 0
        complementaryTrips = try c.decodeIfPresent(Int.self, forKey: .complementaryTrips) ?? 0
        bandRowsLeftOut = try c.decodeIfPresent(Bool.self, forKey: .bandRowsLeftOut) ?? false
        suppressedShares = try c.decodeIfPresent(Int.self, forKey: .suppressedShares) ?? 0
        complementaryShares = try c.decodeIfPresent(Int.self, forKey: .complementaryShares) ?? 0
        geofences = try c.decodeIfPresent(Int.self, forKey: .geofences)
        recodedModes = try c.decodeIfPresent([String].self, forKey: .recodedModes) ?? []
        narrowCounts = try c.decodeIfPresent(Int.self, forKey: .narrowCounts) ?? 0
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pairs, forKey: .pairs)
        try c.encode(suppressedPairs, forKey: .suppressedPairs)
        try c.encode(suppressedTrips, forKey: .suppressedTrips)
        try c.encode(minimumPersons, forKey: .minimumPersons)
        try c.encode(complementaryPairs, forKey: .complementaryPairs)
        try c.encode(complementaryTrips, forKey: .complementaryTrips)
        try c.encode(bandRows, forKey: .bandRows)
        try c.encode(suppressedBandRows, forKey: .suppressedBandRows)
        try c.encode(complementaryRows, forKey: .complementaryRows)
        try c.encode(bandRowsLeftOut, forKey: .bandRowsLeftOut)
        try c.encode(suppressedShares, forKey: .suppressedShares)
        try c.encode(complementaryShares, forKey: .complementaryShares)
        try c.encode(geofences, forKey: .geofences) // null: not known
        try c.encode(recodedModes, forKey: .recodedModes)
        try c.encode(narrowCounts, forKey: .narrowCounts)
    }
}

/// What the tables' lines share.
public enum PublishedCounts {
    /// The clause of a table's line for the counts left out whose feasible interval no
    /// complement widened to ±k; empty when there are none.
    public static func narrowText(_ count: Int) -> String {
        switch count {
        case 0: ""
        case 1: "; 1 count left out under k can be bounded closer than ±k from the published ones (no complement widened it)"
        default: "; \(count) counts left out under k can be bounded closer than ±k from the published ones (no complement widened them)"
        }
    }

    /// The clause of a table's line for the published splits it was audited against
    /// (`SplitMargins`: file → margins); empty when audited alone.
    public static func linkedText(_ tables: [String: [String]]) -> String {
        tables.isEmpty ? "" : "; audited against the rows of " + tables.keys.sorted().joined(separator: " and ") + " (the same trips)"
    }
}

/// What `modal_split.csv` published and left out under k persons per row.
public struct ModalSplitCounts: Sendable, Codable, Equatable {
    public var rows = 0, suppressedRows = 0, complementaryRows = 0, minimumPersons = 0
    /// Trips of the whole-day rows left out under k, and beside them.
    public var suppressedTrips = 0, complementaryTrips = 0
    /// The modes published together as `other` (fewer than k persons used them).
    public var recodedModes: [String] = []
    /// The breakdowns left out whole (`hour`: recoded into the time bands), with their rows.
    public var dimensionsLeftOut: [String: Int] = [:]
    /// Counts under k left out whose feasible interval no complement widened to ±k.
    public var narrowCounts = 0
    /// Published rows whose distance and time the dominance rule left out, and beside them.
    public var dominatedMagnitudes = 0, complementaryMagnitudes = 0

    public init() {}

    public init(_ split: ModalSplit) {
        (rows, suppressedRows, complementaryRows, minimumPersons) = (
            split.rows.count, split.suppressedPrimary, split.suppressedComplementary, split.minimumPersons
        )
        (suppressedTrips, complementaryTrips) = (split.suppressedTrips, split.complementaryTrips)
        (recodedModes, dimensionsLeftOut, narrowCounts) = (split.recoding.names, split.dimensionsLeftOut, split.narrowCounts)
        (dominatedMagnitudes, complementaryMagnitudes) = (split.dominatedMagnitudes, split.complementaryMagnitudes)
    }

    public var line: String {
        "modal split: \(rows) rows published, \(suppressedRows) made by fewer than k = \(minimumPersons) persons left out, "
            + "and \(complementaryRows) more so that those cannot be worked out by subtraction; whole-day trips left out: "
            + "\(suppressedTrips) under k, \(complementaryTrips) beside them"
            + (recodedModes.isEmpty ? "" : "; shown as other: " + recodedModes.joined(separator: ", "))
            + (dimensionsLeftOut.isEmpty
                ? ""
                : "; left out whole, since protecting them would take whole-day rows: "
                    + dimensionsLeftOut.sorted { $0.key < $1.key }.map {
                        "\($0.key) (\($0.value) rows\($0.key == "hour" ? ", recoded into the time bands" : ""))"
                    }.joined(separator: ", "))
            + PublishedCounts.narrowText(narrowCounts)
            + (dominatedMagnitudes + complementaryMagnitudes > 0
                ? "; distance and time left out of \(dominatedMagnitudes) rows two persons make 85 % of (or of their group's whole), "
                    + "and of \(complementaryMagnitudes) more beside them (dominance rule; their trips stand)" : "")
    }

    enum CodingKeys: String, CodingKey {
        case rows, suppressedRows = "suppressed_rows", complementaryRows = "complementary_rows", minimumPersons = "k"
        case suppressedTrips = "suppressed_trips", complementaryTrips = "complementary_trips", recodedModes = "recoded_modes"
        case dimensionsLeftOut = "dimensions_left_out", narrowCounts = "narrow_counts"
        case dominatedMagnitudes = "dominated_magnitudes", complementaryMagnitudes = "complementary_magnitudes"
    }

    /// Counts stored by a version before recoding read back without it.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (rows, suppressedRows) = (try c.decode(Int.self, forKey: .rows), try c.decode(Int.self, forKey: .suppressedRows))
        (complementaryRows, minimumPersons) = (
            try c.decode(Int.self, forKey: .complementaryRows), try c.decode(Int.self, forKey: .minimumPersons)
        )
        suppressedTrips = try c.decodeIfPresent(Int.self, forKey: .suppressedTrips) ?? 0
        complementaryTrips = try c.decodeIfPresent(Int.self, forKey: .complementaryTrips) ?? 0
        recodedModes = try c.decodeIfPresent([String].self, forKey: .recodedModes) ?? []
        dimensionsLeftOut = try c.decodeIfPresent([String: Int].self, forKey: .dimensionsLeftOut) ?? [:]
        narrowCounts = try c.decodeIfPresent(Int.self, forKey: .narrowCounts) ?? 0
        dominatedMagnitudes = try c.decodeIfPresent(Int.self, forKey: .dominatedMagnitudes) ?? 0
        complementaryMagnitudes = try c.decodeIfPresent(Int.self, forKey: .complementaryMagnitudes) ?? 0
    }
}
