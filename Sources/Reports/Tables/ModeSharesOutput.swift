import Foundation
import MobilityCore
import Publication
import Trips

/// `mode_shares.csv`: each main mode's share of trips, whole day and per time band, with its
/// 95 % interval over persons and, given a confusion matrix, the share corrected for it
/// (`ModeShareTable`). Built like `od_grid.csv`, from the restricted `trips.csv`, the store's
/// persons and their calendars (`PlanningSample`: the trips of valid person-days), so a single
/// run and `pipeline publish` after a Spark merge write the same bytes.
public struct ModeSharesOutput {
    public static let fileName = OutputSchema.modeShares.file
    public var folder: String
    /// Where `trips.csv` is. Default: `folder/restricted`.
    public var tablesFolder: String
    public var bands: TimeBands
    public var minimumPersons: Int
    public var correction: ConfusionCorrection?

    public init(
        folder: String, bands: TimeBands, minimumPersons: Int, correction: ConfusionCorrection? = nil, tablesFolder: String? = nil
    ) {
        (self.folder, self.bands, self.minimumPersons, self.correction) = (folder, bands, minimumPersons, correction)
        self.tablesFolder = tablesFolder ?? OutputLayout.restricted(in: folder)
    }

    public struct Summary: Sendable, Codable {
        public var rows = 0, suppressedPrimary = 0, suppressedComplementary = 0, minimumPersons = 0
        /// The whole day's trips left out with the rows under k, and with those beside them.
        public var suppressedTrips = 0, complementaryTrips = 0
        /// Published rows whose weighted trips and share the dominance rule left out, and beside them.
        public var dominatedWeights = 0, complementaryWeights = 0
        /// Bootstrap replicates over persons behind each interval.
        public var replicates = 0
        /// What the correction's confusion matrix was measured on; null without one.
        public var correction: String?
        /// Person-days under the coverage threshold, and their trips, left out (`PlanningSample`).
        public var excludedPersonDays = 0, excludedTrips = 0
        /// Counts under k left out whose feasible interval no complement widened to ±k.
        public var narrowCounts = 0
        /// Per published table (`modal_split.csv`, `mode_shares.csv`), the margins (`all_day`, the
        /// bands) the rows were audited against its rows in; empty when audited alone.
        public var linkedTables: [String: [String]] = [:]
        /// The table's rows as margins for `od_zones.csv` and `co2e.csv` (not in `--json`: it holds the rows left out).
        public var published: SplitMargins? = nil
        enum CodingKeys: String, CodingKey {
            case rows, suppressedPrimary = "suppressed_primary", suppressedComplementary = "suppressed_complementary"
            case minimumPersons = "k", replicates, correction, excludedPersonDays = "excluded_person_days", excludedTrips = "excluded_trips"
            case dominatedWeights = "dominated_weights", complementaryWeights = "complementary_weights"
            case suppressedTrips = "suppressed_trips", complementaryTrips = "complementary_trips"
            case narrowCounts = "narrow_counts", linkedTables = "linked_tables"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rows, forKey: .rows)
            try container.encode(suppressedPrimary, forKey: .suppressedPrimary)
            try container.encode(suppressedComplementary, forKey: .suppressedComplementary)
            try container.encode(suppressedTrips, forKey: .suppressedTrips)
            try container.encode(complementaryTrips, forKey: .complementaryTrips)
            try container.encode(minimumPersons, forKey: .minimumPersons)
            try container.encode(replicates, forKey: .replicates)
            try container.encode(correction, forKey: .correction)
            try container.encode(excludedPersonDays, forKey: .excludedPersonDays)
            try container.encode(excludedTrips, forKey: .excludedTrips)
            try container.encode(dominatedWeights, forKey: .dominatedWeights)
            try container.encode(complementaryWeights, forKey: .complementaryWeights)
            try container.encode(narrowCounts, forKey: .narrowCounts)
            try container.encode(linkedTables, forKey: .linkedTables)
        }
    }

    /// Writes `mode_shares.csv` of the sample's trips (those of valid person-days); with
    /// `weights`, the weighted trips and shares beside; the rows audited against the modal
    /// split's `margins` (none: alone).
    @discardableResult
    public func write(
        _ sample: PlanningSample, calendars: LocalCalendars, weights: ExpansionWeights? = nil, margins: [SplitMargins] = []
    ) throws -> Summary {
        let input = sample.trips.map { trip in
            ModeShareTable.Trip(
                person: trip.person, startSeconds: trip.startSeconds, mode: trip.mainMode,
                dailyWeight: trip.weighted(by: weights).dailyWeight)
        }
        let table = ModeShareTable(
            input, calendars: calendars, bands: bands, minimumPersons: minimumPersons, correction: correction, margins: margins)
        try Self.csv(table, correction: correction).write(to: (folder as NSString).appendingPathComponent(Self.fileName))
        var summary = Summary(
            rows: table.rows.count, suppressedPrimary: table.suppressedPrimary, suppressedComplementary: table.suppressedComplementary,
            minimumPersons: minimumPersons, suppressedTrips: table.suppressedTrips, complementaryTrips: table.complementaryTrips,
            dominatedWeights: table.dominatedWeights, complementaryWeights: table.complementaryWeights,
            replicates: ModeShareEstimate.defaultReplicates, correction: correction?.source)
        (summary.narrowCounts, summary.linkedTables, summary.published) = (table.narrowCounts, table.auditedMargins, table.published)
        return summary
    }

    static func csv(_ table: ModeShareTable, correction: ConfusionCorrection?) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.modeShares.names)
        func share(_ value: Double?) -> String? { value.map { String(format: "%.4f", $0) } }
        for row in table.rows {
            let s = row.share
            csv.append([
                row.band, s.mode, String(s.trips), String(s.persons), share(s.share), share(s.low), share(s.high), share(s.corrected),
                share(s.correctedLow), share(s.correctedHigh), row.tripsWeighted.map { String(format: "%.1f", $0) },
                share(row.shareWeighted),
                correction?.source
            ])
        }
        return csv
    }

    public static func text(_ s: Summary) -> String {
        "mode shares: \(s.rows) rows published with 95 % intervals over persons (\(s.replicates) bootstrap replicates)"
            + (s.correction.map { ", corrected for the classifier's confusion measured on \($0)" } ?? ", not corrected (no --confusion)")
            + "; \(s.suppressedPrimary) rows made by fewer than k = \(s.minimumPersons) persons left out, and \(s.suppressedComplementary) more so that those cannot be worked out by subtraction"
            + " (whole-day trips left out: \(s.suppressedTrips) under k, \(s.complementaryTrips) beside them)"
            + "; \(s.excludedPersonDays) person-days under the coverage threshold and their \(s.excludedTrips) trips not counted"
            + PublishedCounts.narrowText(s.narrowCounts) + PublishedCounts.linkedText(s.linkedTables)
            + (s.dominatedWeights + s.complementaryWeights > 0
                ? "; weighted values left out of \(s.dominatedWeights) rows two persons dominate (or fewer than k weighted persons made), "
                    + "and of \(s.complementaryWeights) beside them" : "")
    }
}
