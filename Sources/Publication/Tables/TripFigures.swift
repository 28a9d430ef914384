import Foundation
import MobilityCore
import Trips

/// What the report prints of the trip tables, computed once where the tables are made (the
/// trip stage, or `pipeline publish` after a distributed run) and kept in the store beside them,
/// so that the report formats it and computes nothing: the modal split's published rows and its
/// groups' wholes, the whole-day OD pairs `od_matrix.csv` publishes, and which main modes' trip
/// distance and duration the dominance rule lets the trips table print.
public struct TripFigures: Sendable, Equatable, Codable {
    /// The k the tables were published at.
    public var minimumPersons: Int
    /// The modal split's published rows (`modal_split.csv`'s) and every group's whole.
    public var splitRows: [ModalSplit.Row], splitWholes: [ModalSplit.Whole]
    /// The whole-day rows `od_matrix.csv` publishes, in its order, and the pairs it left out
    /// (under k, and beside them).
    public var odPairs: [Pair], odPairsLeftOut: Int
    /// A whole-day row of `od_matrix.csv`, as the report prints it.
    public struct Pair: Sendable, Equatable, Codable {
        /// Geofence ids; nil where an end lies in none.
        public var origin: String?, destination: String?
        public var trips: Int, persons: Int, medianDurationSeconds: Double, medianDistanceMeters: Double
    }
    /// Per main mode ("unknown" for none): whether its trips' distance and duration may be
    /// printed, by the dominance rule over each person's part (`DominanceRule`).
    public var tripMagnitudesShown: [String: Bool]

    /// One person's trips of a main mode: their distance and duration added.
    public struct TripPart: Sendable {
        public var mode: String, person: String, distanceMeters: Double, durationSeconds: Double
        public init(mode: String, person: String, distanceMeters: Double, durationSeconds: Double) {
            (self.mode, self.person, self.distanceMeters, self.durationSeconds) = (mode, person, distanceMeters, durationSeconds)
        }
    }

    /// The figures of `publication`; `tripParts`: each person's trips per main mode.
    public init(_ publication: TripPublication, tripParts: [TripPart]) {
        let split = publication.modalSplit
        (minimumPersons, splitRows, splitWholes) = (split.minimumPersons, split.rows, split.wholes)
        odPairs = publication.odMatrix.rows.filter { $0.band == TimeBands.allDay }.map {
            Pair(
                origin: $0.origin, destination: $0.destination, trips: $0.trips, persons: $0.persons,
                medianDurationSeconds: $0.medianDurationSeconds, medianDistanceMeters: $0.medianDistanceMeters)
        }
        odPairsLeftOut = publication.odMatrix.suppressedPairs + publication.odMatrix.complementaryPairs
        tripMagnitudesShown = Dictionary(grouping: tripParts, by: \.mode).mapValues { parts in
            DominanceRule.publishes(parts.map(\.distanceMeters), k: split.minimumPersons)
                && DominanceRule.publishes(parts.map(\.durationSeconds), k: split.minimumPersons)
        }
    }

    public func text() throws -> String { try JSONText.string(self, keys: .asDeclared, layout: .compact) }

    /// The figures the store kept; nil for none, or text of another version.
    public init?(text: String?) {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let text, !text.isEmpty, let figures = try? decoder.decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = figures
    }
}
