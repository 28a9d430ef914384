import Foundation
import HeatMaps
import Publication
import MobilityCore

/// `od_grid.csv`: the origin–destination table on the global grid (`ODGrid`), for data with
/// no geofences or beside them. Built from the restricted `trips.csv` and `staypoints.csv`
/// and the store's persons, so a single run and `pipeline publish` after a Spark merge count
/// the same pairs with the same code.
public struct ODGridOutput {
    public static let fileName = OutputSchema.odGrid.file
    /// Where `od_grid.csv` goes.
    public var folder: String
    /// Where `trips.csv` and `staypoints.csv` are. Default: `folder/restricted` (`OutputLayout`).
    public var tablesFolder: String
    public var parameters: HeatMapParameters

    public init(folder: String, parameters: HeatMapParameters, tablesFolder: String? = nil) {
        (self.folder, self.parameters, self.tablesFolder) = (folder, parameters, tablesFolder ?? OutputLayout.restricted(in: folder))
    }

    public struct Summary: Sendable, Codable {
        public var pairs = 0, suppressedPairs = 0, suppressedTrips = 0, unplacedTrips = 0
        /// Trips placed with an end at their first or last fix (no stay there: `TripEnd`).
        public var placedByFix = 0
        public var cellMeters = 0.0, minimumPersons = 0
        /// Trips in published pairs; pairs published on cells coarser than `cellMeters`; the
        /// coarsest cell tried (`ODGrid`).
        public var publishedTrips = 0, coarserPairs = 0, coarsestCellMeters = 0.0
        /// Mode shares left out of published rows: under k persons, and beside them; the modes
        /// shown together as `other`.
        public var suppressedShares = 0, complementaryShares = 0, recodedModes: [String] = []
        /// Shares under k left out whose feasible interval no complement widened to ±k.
        public var narrowCounts = 0
        /// Pairs of k persons or more (and their trips) left out to protect a share in them.
        public var complementaryPairs = 0, complementaryTrips = 0
        /// Per published table (`modal_split.csv`, `mode_shares.csv`), the margins (`all_day`, the
        /// bands) the rows were audited against its rows in; empty when audited alone.
        public var linkedTables: [String: [String]] = [:]
        enum CodingKeys: String, CodingKey {
            case pairs, suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", unplacedTrips = "unplaced_trips"
            case placedByFix = "placed_by_fix"
            case cellMeters = "cell_m", minimumPersons = "k", publishedTrips = "published_trips", coarserPairs = "coarser_pairs"
            case coarsestCellMeters = "coarsest_cell_m", suppressedShares = "suppressed_shares", complementaryShares =
                "complementary_shares"
            case recodedModes = "recoded_modes", narrowCounts = "narrow_counts"
            case complementaryPairs = "complementary_pairs", complementaryTrips = "complementary_trips"
            case linkedTables = "linked_tables"
        }
    }

    /// Writes `od_grid.csv`, each trip's device counted as its person in `persons` (the device
    /// itself where none is named); its shares audited against the modal split's `margins` (none: alone).
    @discardableResult
    public func write(persons: [String: String], margins: [SplitMargins] = []) throws -> Summary {
        let (trips, trip) = (try OutputSchema.trips.read(in: tablesFolder), OutputSchema.trips.index)
        let input = trips.rows.map { row in
            let device = row[trip("device")] ?? ""
            var input = ODGrid.Trip(
                device: device, person: persons[device] ?? device,
                origin: PlanningSample.end(row, "origin"), destination: PlanningSample.end(row, "destination"),
                durationSeconds: row[trip("duration_s")].flatMap(Double.init) ?? 0,
                distanceMeters: row[trip("distance_m")].flatMap(Double.init) ?? 0, mainMode: row[trip("main_mode")] ?? "unknown")
            input.endsAtFix = PlanningSample.endsAtFix(row)
            return input
        }
        let od = ODGrid(
            input, cellMeters: parameters.odCellMeters, minimumPersons: parameters.minimumPersons,
            coarserLevels: parameters.odCoarserLevels,
            margins: margins)
        try TripTables.odGrid(od).write(to: (folder as NSString).appendingPathComponent(Self.fileName))
        var summary = Summary()
        (summary.pairs, summary.suppressedPairs, summary.suppressedTrips) = (od.rows.count, od.suppressedPairs, od.suppressedTrips)
        (summary.unplacedTrips, summary.cellMeters, summary.minimumPersons) = (
            od.unplacedTrips, parameters.odCellMeters, parameters.minimumPersons
        )
        (summary.suppressedShares, summary.complementaryShares, summary.recodedModes) = (
            od.suppressedShares, od.complementaryShares, od.recoding.names
        )
        (summary.narrowCounts, summary.complementaryPairs, summary.complementaryTrips) = (
            od.narrowCounts, od.complementaryPairs, od.complementaryTrips
        )
        summary.linkedTables = od.auditedMargins
        summary.placedByFix = od.placedByFix
        summary.coarsestCellMeters = parameters.odCellMeters * Double(1 << parameters.odCoarserLevels)
        summary.publishedTrips = od.rows.reduce(0) { $0 + $1.trips }
        for row in od.rows where row.grid.cellMeters > parameters.odCellMeters { summary.coarserPairs += 1 }
        return summary
    }

    public static func text(_ s: Summary) -> String {
        "OD grid: \(s.pairs) pairs published with \(s.publishedTrips) trips (\(s.pairs - s.coarserPairs) of \(Int(s.cellMeters)) m cells, "
            + "\(s.coarserPairs) of cells up to \(Int(s.coarsestCellMeters)) m where a pair of smaller ones had fewer than k = \(s.minimumPersons) persons); "
            + "\(s.suppressedPairs) pairs of \(Int(s.coarsestCellMeters)) m cells made by fewer suppressed (\(s.suppressedTrips) trips)"
            + (s.complementaryPairs > 0
                ? ", \(s.complementaryPairs) of k persons or more left out to protect a mode share in them (\(s.complementaryTrips) trips)"
                : "")
            + (s.placedByFix > 0 ? ", \(s.placedByFix) trips placed with an end at their first or last fix (no stay there)" : "")
            + (s.unplacedTrips > 0 ? ", \(s.unplacedTrips) trips without a position at both ends not placed" : "")
            + "; \(s.suppressedShares) mode shares left out under k and \(s.complementaryShares) beside them"
            + (s.recodedModes.isEmpty ? "" : "; shown as other: " + s.recodedModes.joined(separator: ", "))
            + PublishedCounts.narrowText(s.narrowCounts) + PublishedCounts.linkedText(s.linkedTables)
    }
}
