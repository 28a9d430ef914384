import Comfort
import Foundation
import HeatMaps
import MobilityCore
import Publication
import Trips

/// The reductions a distributed run's Spark job merges from every part's partial groups (the
/// tables and columns of `OutputSchema.partialTables`, each column merged as it declares), read by
/// `pipeline publish --reduced DIR`, which applies the formulas and formatting rules a single
/// run applies (`ODMatrix(groups:)`, `ModalSplit(totals:)`, `ComfortSummary(group:)`,
/// `HeatMap.published`): each formula lives once, in Swift.
///
/// DIR holds one folder per table, one file per reducer task (`part-*.csv`, each with a
/// header; RFC 4180 quoting, an empty field NULL). Numbers are shortest round-trip text,
/// which reads back to the same double; a list of numbers is one field of numbers separated
/// by spaces. spark/pipeline_spark/reductions.py writes them.
public struct ReducedTables {
    public var folder: String

    public init(folder: String) { self.folder = folder }

    /// One row of a reduced table: its file and line (for errors), its fields and where each
    /// column is (one index shared by the file's rows, not a dictionary made for each row).
    struct Row {
        var path: String, line: Int
        var columns: [String: Int]
        var values: [String?]

        func text(_ column: String) throws -> String {
            guard let value = optional(column) else { throw PipelineError(.malformedTable, "\(path):\(line): no \(column)") }
            return value
        }

        func optional(_ column: String) -> String? { columns[column].flatMap { $0 < values.count ? values[$0] : nil } }

        func integer(_ column: String) throws -> Int {
            let text = try text(column)
            guard let value = Int(text) else {
                throw PipelineError(.malformedTable, "\(path):\(line): \(column) is \(text), not an integer")
            }
            return value
        }

        func number(_ column: String) throws -> Double {
            let text = try text(column)
            guard let value = Double(text) else {
                throw PipelineError(.malformedTable, "\(path):\(line): \(column) is \(text), not a number")
            }
            return value
        }

        /// A JSON object of name to number (`person_sums`; empty or NULL: none).
        func personSums(_ column: String) throws -> [String: Double] {
            guard let text = optional(column), !text.isEmpty else { return [:] }
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw PipelineError(.malformedTable, "\(path):\(line): \(column) is \(text), not a JSON object of names to numbers")
            }
            return try object.mapValues { value in
                guard let number = (value as? NSNumber)?.doubleValue else {
                    throw PipelineError(.malformedTable, "\(path):\(line): \(column) holds \(value), not a number")
                }
                return number
            }
        }

        /// A space-separated list of numbers (empty or NULL: none).
        func numbers(_ column: String) throws -> [Double] {
            try (optional(column) ?? "").split(separator: " ").map {
                guard let value = Double($0) else {
                    throw PipelineError(.malformedTable, "\(path):\(line): \(column) holds \($0), not a number")
                }
                return value
            }
        }
    }

    /// Every row of one table. Lines count from the header (line 1), one line per row: the
    /// reducers write ids, names and numbers, none with a line break.
    func rows(_ table: String) throws -> [Row] {
        let directory = (folder as NSString).appendingPathComponent(table)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw PipelineError(
                .malformedTable, "\(directory): the reduced table \(table) is missing (written by spark/pipeline_spark/reductions.py)")
        }
        var rows: [Row] = []
        for name in names.sorted() where name.hasPrefix("part-") && name.hasSuffix(".csv") {
            let path = (directory as NSString).appendingPathComponent(name)
            let table = try CSVTable.read(path: path)
            let columns = Dictionary(table.columns.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
            for (index, row) in table.rows.enumerated() {
                rows.append(Row(path: path, line: index + 2, columns: columns, values: row))
            }
        }
        return rows
    }

    public func odGroups() throws -> [ODGroup] {
        var modePersons: [[String?]: [String: Int]] = [:]
        // A reduction before persons per mode has none: its rows' shares are then left out (`ODMatrix`).
        let byMode = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("od_mode_groups"))
        for row in byMode ? try rows("od_mode_groups") : [] {
            let key = [
                row.optional("time_band") ?? TimeBands.allDay, row.optional("origin_geofence_id"), row.optional("destination_geofence_id")
            ]
            modePersons[key, default: [:]][try row.text("main_mode")] = try row.integer("persons")
        }
        return try rows("od_groups").map { row in
            ODGroup(
                band: row.optional("time_band") ?? TimeBands.allDay, origin: row.optional("origin_geofence_id"),
                destination: row.optional("destination_geofence_id"),
                trips: try row.integer("trips"), devices: try row.integer("devices"), persons: try row.integer("persons"),
                durationsSeconds: try row.numbers("durations_s"), distancesMeters: try row.numbers("distances_m"),
                mainModes: Dictionary(
                    (row.optional("main_modes") ?? "").split(separator: " ").map { (String($0), 1) }, uniquingKeysWith: +),
                modePersons: modePersons[
                    [
                        row.optional("time_band") ?? TimeBands.allDay, row.optional("origin_geofence_id"),
                        row.optional("destination_geofence_id")
                    ]
                ] ?? [:]
            )
        }
    }

    public func modalTotals() throws -> [ModalTotal] {
        try rows("modal_totals").map { row in
            ModalTotal(
                dimension: try row.text("dimension"), key: try row.text("dimension_value"), mode: try row.text("travel_mode"),
                trips: try row.integer("trips"), distanceMeters: try row.number("distance_m"),
                durationSeconds: try row.number("duration_s"), persons: try row.integer("persons"),
                tripPersons: row.optional("trip_persons").flatMap { Int($0) }, legPersons: row.optional("leg_persons").flatMap { Int($0) },
                distanceByPerson: try row.personSums("distance_m_by_person"), durationByPerson: try row.personSums("duration_s_by_person"))
        }
    }

    /// Comfort groups of `table` ("train_comfort_groups", key `train`; "route_comfort_groups",
    /// key from TAB to).
    public func comfortGroups(_ table: String) throws -> [ComfortGroup] {
        try rows(table).map { row in
            let key =
                table == "train_comfort_groups"
                ? try row.text("train")
                : ComfortTables.routeKey(try row.text("from_station"), try row.text("to_station"))
            var group = ComfortGroup(key: key)
            (group.rides, group.measuredRides, group.devices, group.persons) =
                (try row.integer("rides"), try row.integer("measured_rides"), try row.integer("devices"), try row.integer("persons"))
            (group.nmvs, group.totalValues) = (try row.numbers("nmvs"), try row.numbers("a_vs_mps2"))
            for rideClass in NMVClass.allCases {
                group.classCounts[rideClass] = try row.integer("class_" + rideClass.rawValue.replacingOccurrences(of: " ", with: "_"))
            }
            for name in ComfortSummary.ratingNames {
                (group.ratingSums[name], group.ratingCounts[name]) = (try row.integer(name + "_sum"), try row.integer(name + "_n"))
            }
            (group.noiseSumDecibels, group.noiseCount) = (try row.number("noise_db_sum"), try row.integer("noise_n"))
            (group.departureDelays, group.arrivalDelays) = (try row.numbers("departure_delays_s"), try row.numbers("arrival_delays_s"))
            return group
        }
    }

    public struct HeatMapCounts {
        public var map: String, cellMeters: Double, minimumPersons: Int, filter: String
        public var cells: [HeatGrid.Cell: HeatMap.Counts]
    }

    /// Every map's merged cells (fixes and dwell summed over devices, devices and persons
    /// counted over every part), before k.
    public func heatMaps() throws -> [HeatMapCounts] {
        var maps: [String: HeatMapCounts] = [:]
        for row in try rows("heatmaps") {
            let name = try row.text("heat_map")
            maps[name] = HeatMapCounts(
                map: name, cellMeters: try row.number("cell_m"), minimumPersons: try row.integer("min_devices"),
                filter: row.optional("filter") ?? "", cells: [:])
        }
        for row in try rows("heat_cells") {
            let name = try row.text("heat_map")
            guard let cellMeters = maps[name]?.cellMeters else {
                throw PipelineError(.malformedTable, "\(row.path):\(row.line): heat map \(name) is not in the table heatmaps")
            }
            let cell = try HeatGrid(cellMeters: cellMeters).cell(id: try row.text("cell_id"), map: name)
            // In place: a copy of the map taken out and put back copied its cells on every row.
            maps[name]?.cells[cell] = HeatMap.Counts(
                fixes: try row.integer("fixes"), devices: try row.integer("devices"),
                persons: try row.integer("persons"), dwellSeconds: try row.number("dwell_s"))
        }
        return Array(maps.values)
    }
}
