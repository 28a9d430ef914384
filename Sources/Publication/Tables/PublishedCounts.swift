import Foundation
import Trips

/// What `od_matrix.csv` published and suppressed under k persons per pair.
public struct ODMatrixCounts: Sendable, Codable, Equatable {
    /// Whole-day pairs published, and those (and their trips) made by fewer than k persons.
    public var pairs = 0, suppressedPairs = 0, suppressedTrips = 0, minimumPersons = 0
    /// Time-band rows published, those under k, and those left out beside them.
    public var bandRows = 0, suppressedBandRows = 0, complementaryRows = 0

    public init() {}

    public init(_ matrix: ODMatrix) {
        (pairs, suppressedPairs, suppressedTrips, minimumPersons) = (
            matrix.rows.filter { $0.band == TimeBands.allDay }.count, matrix.suppressedPairs, matrix.suppressedTrips, matrix.minimumPersons
        )
        (bandRows, suppressedBandRows, complementaryRows) = (
            matrix.rows.filter { $0.band != TimeBands.allDay }.count, matrix.suppressedBandRows, matrix.complementaryRows
        )
    }

    public var line: String {
        "OD matrix: \(pairs) geofence pairs published, \(suppressedPairs) made by fewer than k = \(minimumPersons) persons suppressed (\(suppressedTrips) trips); "
            + "\(bandRows) time-band rows published, \(suppressedBandRows) under k and \(complementaryRows) beside them left out"
    }

    enum CodingKeys: String, CodingKey {
        case pairs, suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", minimumPersons = "k"
        case bandRows = "band_rows", suppressedBandRows = "suppressed_band_rows", complementaryRows = "complementary_rows"
    }

    /// Counts stored by a version before time bands read back without them.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (pairs, suppressedPairs) = (try c.decode(Int.self, forKey: .pairs), try c.decode(Int.self, forKey: .suppressedPairs))
        (suppressedTrips, minimumPersons) = (
            try c.decode(Int.self, forKey: .suppressedTrips), try c.decode(Int.self, forKey: .minimumPersons)
        )
        bandRows = try c.decodeIfPresent(Int.self, forKey: .bandRows) ?? 0
        suppressedBandRows = try c.decodeIfPresent(Int.self, forKey: .suppressedBandRows) ?? 0
        complementaryRows = try c.decodeIfPresent(Int.self, forKey: .complementaryRows) ?? 0
    }
}

/// What `modal_split.csv` published and left out under k persons per row.
public struct ModalSplitCounts: Sendable, Codable, Equatable {
    public var rows = 0, suppressedRows = 0, complementaryRows = 0, minimumPersons = 0

    public init() {}

    public init(_ split: ModalSplit) {
        (rows, suppressedRows, complementaryRows, minimumPersons) = (
            split.rows.count, split.suppressedPrimary, split.suppressedComplementary, split.minimumPersons
        )
    }

    public var line: String {
        "modal split: \(rows) rows published, \(suppressedRows) made by fewer than k = \(minimumPersons) persons left out, "
            + "and \(complementaryRows) more so that those cannot be worked out by subtraction"
    }

    enum CodingKeys: String, CodingKey {
        case rows, suppressedRows = "suppressed_rows", complementaryRows = "complementary_rows", minimumPersons = "k"
    }
}
