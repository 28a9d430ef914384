import Comfort
import Foundation
import HeatMaps
import MobilityCore
import Reports
import Trips

/// The reductions a distributed run's Spark SQL computes over every part's rows, read by
/// `pipeline publish --reduced DIR`, which applies the formulas and formatting rules a single
/// run applies (`ODMatrix(groups:)`, `ModalSplit(totals:)`, `ComfortSummary(group:)`,
/// `HeatMap.published`): each formula lives once, in Swift.
///
/// DIR holds one folder per table as Spark's CSV writer leaves it (`part-*.csv`, each with a
/// header; RFC 4180 quoting, an empty field NULL). Numbers are Java's `Double.toString`
/// text, which reads back to the same double; a list of numbers is one field of numbers
/// separated by spaces. spark/pipeline_spark/aggregates.py writes them.
public struct ReducedTables {
    public var folder: String

    public init(folder: String) { self.folder = folder }

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every row of one table, as {column: text}.
    func rows(_ table: String) throws -> [[String: String?]] {
        let directory = (folder as NSString).appendingPathComponent(table)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw Malformed(description: "\(directory): the reduced table \(table) is missing (written by spark/pipeline_spark/aggregates.py)")
        }
        var rows: [[String: String?]] = []
        for name in names.sorted() where name.hasPrefix("part-") && name.hasSuffix(".csv") {
            let table = try CSVTable.read(path: (directory as NSString).appendingPathComponent(name))
            for row in table.rows { rows.append(Dictionary(uniqueKeysWithValues: zip(table.columns, row))) }
        }
        return rows
    }

    static func text(_ row: [String: String?], _ column: String) throws -> String {
        guard let value = row[column], let value else { throw Malformed(description: "reduced row lacks \(column): \(row)") }
        return value
    }

    static func optional(_ row: [String: String?], _ column: String) -> String? { row[column] ?? nil }

    static func integer(_ row: [String: String?], _ column: String) throws -> Int {
        guard let value = Int(try text(row, column)) else { throw Malformed(description: "\(column) is not an integer: \(row)") }
        return value
    }

    static func number(_ row: [String: String?], _ column: String) throws -> Double {
        guard let value = Double(try text(row, column)) else { throw Malformed(description: "\(column) is not a number: \(row)") }
        return value
    }

    /// A space-separated list of numbers (empty or NULL: none).
    static func numbers(_ row: [String: String?], _ column: String) throws -> [Double] {
        try (optional(row, column) ?? "").split(separator: " ").map {
            guard let value = Double($0) else { throw Malformed(description: "\(column) holds \($0), not a number") }
            return value
        }
    }

    public func odGroups() throws -> [ODGroup] {
        try rows("od_groups").map { row in
            ODGroup(origin: Self.optional(row, "origin_geofence_id"), destination: Self.optional(row, "destination_geofence_id"),
                    trips: try Self.integer(row, "trips"), devices: try Self.integer(row, "devices"),
                    durationsSeconds: try Self.numbers(row, "durations_s"), distancesMeters: try Self.numbers(row, "distances_m"),
                    mainModes: Dictionary((Self.optional(row, "main_modes") ?? "").split(separator: " ").map { (String($0), 1) }, uniquingKeysWith: +))
        }
    }

    public func modalTotals() throws -> [ModalTotal] {
        try rows("modal_totals").map { row in
            ModalTotal(dimension: try Self.text(row, "dimension"), key: try Self.text(row, "dimension_value"), mode: try Self.text(row, "travel_mode"),
                       trips: try Self.integer(row, "trips"), distanceMeters: try Self.number(row, "distance_m"),
                       durationSeconds: try Self.number(row, "duration_s"))
        }
    }

    /// Comfort groups of `table` ("train_comfort_groups", key `train`; "route_comfort_groups",
    /// key from TAB to).
    public func comfortGroups(_ table: String) throws -> [ComfortGroup] {
        try rows(table).map { row in
            let key = table == "train_comfort_groups" ? try Self.text(row, "train")
                : ComfortTables.routeKey(try Self.text(row, "from_station"), try Self.text(row, "to_station"))
            var group = ComfortGroup(key: key)
            (group.rides, group.measuredRides, group.devices) =
                (try Self.integer(row, "rides"), try Self.integer(row, "measured_rides"), try Self.integer(row, "devices"))
            (group.nmvs, group.totalValues) = (try Self.numbers(row, "nmvs"), try Self.numbers(row, "a_vs_mps2"))
            for rideClass in NMVClass.allCases {
                group.classCounts[rideClass] = try Self.integer(row, "class_" + rideClass.rawValue.replacingOccurrences(of: " ", with: "_"))
            }
            for name in ComfortSummary.ratingNames {
                (group.ratingSums[name], group.ratingCounts[name]) = (try Self.integer(row, name + "_sum"), try Self.integer(row, name + "_n"))
            }
            (group.noiseSumDecibels, group.noiseCount) = (try Self.number(row, "noise_db_sum"), try Self.integer(row, "noise_n"))
            (group.departureDelays, group.arrivalDelays) = (try Self.numbers(row, "departure_delays_s"), try Self.numbers(row, "arrival_delays_s"))
            return group
        }
    }

    public struct HeatMapCounts {
        public var map: String, cellMeters: Double, minimumDevices: Int, filter: String
        public var cells: [HeatGrid.Cell: HeatMap.Counts]
    }

    /// Every map's merged cells (fixes and dwell summed over devices, devices and persons
    /// counted over every part), before k.
    public func heatMaps() throws -> [HeatMapCounts] {
        var maps: [String: HeatMapCounts] = [:]
        for row in try rows("heatmaps") {
            let name = try Self.text(row, "heat_map")
            maps[name] = HeatMapCounts(map: name, cellMeters: try Self.number(row, "cell_m"), minimumDevices: try Self.integer(row, "min_devices"),
                                       filter: Self.optional(row, "filter") ?? "", cells: [:])
        }
        for row in try rows("heat_cells") {
            let name = try Self.text(row, "heat_map")
            guard var map = maps[name] else { throw Malformed(description: "heat_cells names a map heatmaps lacks: \(name)") }
            let cell = try PublishRun.cell(name, try Self.text(row, "cell_id"), HeatGrid(cellMeters: map.cellMeters))
            map.cells[cell] = HeatMap.Counts(fixes: try Self.integer(row, "fixes"), devices: try Self.integer(row, "devices"),
                                             persons: try Self.integer(row, "persons"), dwellSeconds: try Self.number(row, "dwell_s"))
            maps[name] = map
        }
        return Array(maps.values)
    }
}
