import Foundation
import HeatMaps
import MobilityCore
import Reports
import Store

/// `od_grid.csv`: the origin–destination table on the global grid (`ODGrid`), for data with
/// no geofences or beside them. Built from the published `trips.csv` and `staypoints.csv`
/// and the store's persons, so a single run and `pipeline publish` after a Spark merge count
/// the same pairs with the same code.
public struct ODGridOutput {
    public static let fileName = OutputSchema.odGrid.file
    /// Where `od_grid.csv` goes.
    public var folder: String
    /// Where `trips.csv` and `staypoints.csv` are. Default: `folder`.
    public var tablesFolder: String
    public var parameters: HeatMapParameters

    public init(folder: String, parameters: HeatMapParameters, tablesFolder: String? = nil) {
        (self.folder, self.parameters, self.tablesFolder) = (folder, parameters, tablesFolder ?? folder)
    }

    public struct Summary: Sendable, Codable {
        public var pairs = 0, suppressedPairs = 0, suppressedTrips = 0, unplacedTrips = 0
        public var cellMeters = 0.0, minimumPersons = 0
        enum CodingKeys: String, CodingKey {
            case pairs, suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", unplacedTrips = "unplaced_trips"
            case cellMeters = "cell_m", minimumPersons = "k"
        }
    }

    @discardableResult
    public func write(store: PipelineStore) throws -> Summary {
        let (stays, stay) = (try OutputSchema.staypoints.read(in: tablesFolder), OutputSchema.staypoints.index)
        var places: [String: (latitude: Double, longitude: Double)] = [:]
        for row in stays.rows {
            guard let id = row[stay("staypoint_id")], let lat = row[stay("lat")].flatMap(Double.init), let lon = row[stay("lon")].flatMap(Double.init) else { continue }
            places[id] = (lat, lon)
        }
        let persons = try store.devicePersons()
        let (trips, trip) = (try OutputSchema.trips.read(in: tablesFolder), OutputSchema.trips.index)
        let input = trips.rows.map { row in
            let device = row[trip("device")] ?? ""
            return ODGrid.Trip(device: device, person: persons[device] ?? device,
                               origin: row[trip("origin_staypoint_id")].flatMap { places[$0] },
                               destination: row[trip("destination_staypoint_id")].flatMap { places[$0] },
                               durationSeconds: row[trip("duration_s")].flatMap(Double.init) ?? 0,
                               distanceMeters: row[trip("distance_m")].flatMap(Double.init) ?? 0, mainMode: row[trip("main_mode")] ?? "unknown")
        }
        let od = ODGrid(input, cellMeters: parameters.odCellMeters, minimumPersons: parameters.minimumDevices)
        var csv = CSVWriter(columns: OutputSchema.odGrid.names)
        func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
        for row in od.rows {
            let (o, d) = (od.grid.centre(row.origin), od.grid.centre(row.destination))
            csv.append([od.grid.id(row.origin), degrees(o.latitude), degrees(o.longitude), od.grid.id(row.destination), degrees(d.latitude),
                        degrees(d.longitude), String(row.trips), String(row.devices), String(row.persons),
                        String(format: "%.1f", row.medianDurationSeconds), String(format: "%.1f", row.medianDistanceMeters)]
                       + OutputSchema.modeNames.map { String(format: "%.4f", row.modeShares[$0] ?? 0) })
        }
        try csv.write(to: (folder as NSString).appendingPathComponent(Self.fileName))
        let summary = Summary(pairs: od.rows.count, suppressedPairs: od.suppressedPairs, suppressedTrips: od.suppressedTrips,
                       unplacedTrips: od.unplacedTrips, cellMeters: parameters.odCellMeters, minimumPersons: parameters.minimumDevices)
        try store.setDerivedState(PipelineStore.odGridKey, Self.text(summary))  // for the report
        return summary
    }

    public static func text(_ s: Summary) -> String {
        "OD grid: \(s.pairs) pairs of \(Int(s.cellMeters)) m cells published, \(s.suppressedPairs) made by fewer than k = \(s.minimumPersons) persons "
            + "suppressed (\(s.suppressedTrips) trips)" + (s.unplacedTrips > 0 ? ", \(s.unplacedTrips) trips without both staypoints not placed" : "")
    }
}
