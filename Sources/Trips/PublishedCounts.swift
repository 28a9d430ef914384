import Foundation

/// What `od_matrix.csv` published and suppressed under k persons per pair.
public struct ODMatrixCounts: Sendable, Codable, Equatable {
    public var pairs = 0, suppressedPairs = 0, suppressedTrips = 0, minimumPersons = 0

    public init() {}

    public init(_ matrix: ODMatrix) {
        (pairs, suppressedPairs, suppressedTrips, minimumPersons) = (
            matrix.rows.count, matrix.suppressedPairs, matrix.suppressedTrips, matrix.minimumPersons
        )
    }

    public var line: String {
        "OD matrix: \(pairs) geofence pairs published, \(suppressedPairs) made by fewer than k = \(minimumPersons) persons suppressed (\(suppressedTrips) trips)"
    }

    enum CodingKeys: String, CodingKey {
        case pairs, suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", minimumPersons = "k"
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
