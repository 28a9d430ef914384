import Foundation
import MobilityCore
import Publication
import Trips

/// `od_zones.csv`: the origin–destination table between a planner's zones (`ZoneOD`), whole
/// day and per time band, of the trips of valid person-days (`PlanningSample`), expanded to
/// the population where weights are given.
public struct ZoneODOutput {
    public static let fileName = OutputSchema.odZones.file
    /// Where `od_zones.csv` goes.
    public var folder: String
    /// Where `trips.csv` and `staypoints.csv` are. Default: `folder/restricted` (`OutputLayout`).
    public var tablesFolder: String
    public var layer: ZoneLayer
    public var bands: TimeBands
    public var minimumPersons: Int

    public init(folder: String, layer: ZoneLayer, bands: TimeBands, minimumPersons: Int, tablesFolder: String? = nil) {
        (self.folder, self.layer, self.bands, self.minimumPersons) = (folder, layer, bands, minimumPersons)
        self.tablesFolder = tablesFolder ?? OutputLayout.restricted(in: folder)
    }

    public struct Summary: Sendable, Codable {
        /// The layer as given, its zones, and the features that were no zone.
        public var layer = "", zones = 0, droppedFeatures = 0
        public var rows = 0, pairs = 0, publishedTrips = 0
        public var suppressedPairs = 0, suppressedTrips = 0, suppressedBandRows = 0, complementaryRows = 0
        /// Whole-day pairs of k persons or more left out beside those under k, and their trips.
        public var complementaryPairs = 0, complementaryTrips = 0
        public var outsideTrips = 0, unplacedTrips = 0
        /// Trips placed in zones with an end at their first or last fix (no stay there: `TripEnd`).
        public var placedByFix = 0
        /// Published rows whose weighted trips the dominance rule left out, and beside them.
        public var dominatedWeights = 0, complementaryWeights = 0
        /// Person-days under the coverage threshold, and their trips, left out (`PlanningSample`).
        public var excludedPersonDays = 0, excludedTrips = 0
        /// Mode shares left out of published rows: under k persons, and beside them; every band
        /// row left out (protecting them would have taken whole-day rows); the modes shown as `other`.
        public var suppressedShares = 0, complementaryShares = 0, bandRowsLeftOut = false, recodedModes: [String] = []
        /// Counts under k left out whose feasible interval no complement widened to ±k.
        public var narrowCounts = 0
        /// Per published table (`modal_split.csv`, `mode_shares.csv`), the margins (`all_day`, the
        /// bands) the rows were audited against its rows in; empty when audited alone.
        public var linkedTables: [String: [String]] = [:]
        public var minimumPersons = 0
        /// The bands, each `name HH:MM-HH:MM`, then the rest of the day's name.
        public var timeBands: [String] = []
        enum CodingKeys: String, CodingKey {
            case layer, zones, droppedFeatures = "dropped_features", rows, pairs, publishedTrips = "published_trips"
            case suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", suppressedBandRows = "suppressed_band_rows"
            case complementaryRows = "complementary_rows", outsideTrips = "outside_trips", unplacedTrips = "unplaced_trips"
            case placedByFix = "placed_by_fix"
            case minimumPersons = "k", timeBands = "time_bands", excludedPersonDays = "excluded_person_days"
            case excludedTrips = "excluded_trips", dominatedWeights = "dominated_weights", complementaryWeights = "complementary_weights"
            case complementaryPairs = "complementary_pairs", complementaryTrips = "complementary_trips"
            case suppressedShares = "suppressed_shares", complementaryShares = "complementary_shares"
            case bandRowsLeftOut = "band_rows_left_out", recodedModes = "recoded_modes", narrowCounts = "narrow_counts"
            case linkedTables = "linked_tables"
        }
    }

    /// Writes `od_zones.csv` of the sample's trips (those of valid person-days), each trip's band
    /// read on its person's clock in `calendars`; with `weights`, each row's trips expanded; the
    /// rows audited against the published splits' `margins` (none: alone).
    @discardableResult
    public func write(
        _ sample: PlanningSample, calendars: LocalCalendars, weights: ExpansionWeights? = nil, margins: [SplitMargins] = []
    ) throws -> Summary {
        let input = sample.trips.map { $0.weighted(by: weights) }
        let od = ZoneOD(input, layer: layer, calendars: calendars, bands: bands, minimumPersons: minimumPersons, margins: margins)
        try Self.csv(od, layer: layer).write(to: (folder as NSString).appendingPathComponent(Self.fileName))
        var summary = Summary(
            layer: layer.path, zones: layer.zones.count, droppedFeatures: layer.dropped.count, rows: od.rows.count,
            suppressedPairs: od.suppressedPairs, suppressedTrips: od.suppressedTrips, suppressedBandRows: od.suppressedBandRows,
            complementaryRows: od.complementaryRows, outsideTrips: od.outsideTrips, unplacedTrips: od.unplacedTrips,
            dominatedWeights: od.dominatedWeights, complementaryWeights: od.complementaryWeights,
            minimumPersons: minimumPersons, timeBands: bands.specifications + [bands.other])
        (summary.complementaryPairs, summary.complementaryTrips) = (od.complementaryPairs, od.complementaryTrips)
        (summary.suppressedShares, summary.complementaryShares) = (od.suppressedShares, od.complementaryShares)
        (summary.bandRowsLeftOut, summary.recodedModes, summary.narrowCounts) = (od.bandRowsLeftOut, od.recoding.names, od.narrowCounts)
        summary.linkedTables = od.auditedMargins
        summary.placedByFix = od.placedByFix
        let allDay = od.rows.filter { $0.band == TimeBands.allDay }
        (summary.pairs, summary.publishedTrips) = (allDay.count, allDay.reduce(0) { $0 + $1.trips })
        return summary
    }

    static func csv(_ od: ZoneOD, layer: ZoneLayer) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.odZones.names)
        func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
        for row in od.rows {
            let (o, d) = (layer.zones[row.origin], layer.zones[row.destination])
            csv.append(
                [
                    row.band, o.id, o.name, d.id, d.name, degrees(o.center.latitudeDegrees), degrees(o.center.longitudeDegrees),
                    degrees(d.center.latitudeDegrees), degrees(d.center.longitudeDegrees), String(row.trips), String(row.devices),
                    String(row.persons), String(format: "%.1f", row.medianDurationSeconds),
                    String(format: "%.1f", row.medianDistanceMeters),
                    row.tripsWeighted.map { String(format: "%.1f", $0) }
                ] + TripTables.shares(row.modeShares, leftOut: row.suppressedModes))
        }
        return csv
    }

    /// One line for the log and the report.
    public static func text(_ s: Summary) -> String {
        "OD by zone (\(s.zones) zones of \((s.layer as NSString).lastPathComponent)): \(s.pairs) zone pairs published over the whole day with "
            + "\(s.publishedTrips) trips, \(s.rows) rows with the time bands (\(s.timeBands.dropLast().joined(separator: ", ")), "
            + "the rest \(s.timeBands.last ?? "")); k = \(s.minimumPersons) persons: \(s.suppressedPairs) pairs suppressed "
            + "(\(s.suppressedTrips) trips) and \(s.complementaryPairs) beside them (\(s.complementaryTrips) trips), "
            + (s.bandRowsLeftOut
                ? "no band row published (\(s.suppressedBandRows) under k, and the others could not be protected without whole-day rows)"
                : "\(s.suppressedBandRows) band rows under k and \(s.complementaryRows) beside them left out")
            + "; \(s.suppressedShares) mode shares left out under k and \(s.complementaryShares) beside them"
            + (s.recodedModes.isEmpty ? "" : "; shown as other: " + s.recodedModes.joined(separator: ", "))
            + PublishedCounts.narrowText(s.narrowCounts) + PublishedCounts.linkedText(s.linkedTables)
            + (s.dominatedWeights + s.complementaryWeights > 0
                ? "; trips_weighted left out of \(s.dominatedWeights) rows two persons dominate (or fewer than k weighted persons made), "
                    + "and of \(s.complementaryWeights) beside them" : "")
            + (s.outsideTrips > 0 ? "; \(s.outsideTrips) trips with an end outside every zone not counted" : "")
            + (s.placedByFix > 0 ? "; \(s.placedByFix) trips placed with an end at their first or last fix (no stay there)" : "")
            + (s.unplacedTrips > 0 ? "; \(s.unplacedTrips) trips without a position at both ends not placed" : "")
            + (s.droppedFeatures > 0 ? "; \(s.droppedFeatures) features of the layer are no polygon and were not used" : "")
    }
}
