import Foundation
import MobilityCore
import Trips

/// `od_zones.csv`: the origin–destination table between a planner's zones (`ZoneOD`), whole
/// day and per time band. Built, like `od_grid.csv`, from the restricted `trips.csv` and
/// `staypoints.csv`, the store's persons and their local calendars, so a single run and
/// `pipeline publish` after a Spark merge count the same trips with the same code.
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
        public var outsideTrips = 0, unplacedTrips = 0
        public var minimumPersons = 0
        /// The bands, each `name HH:MM-HH:MM`, then the rest of the day's name.
        public var timeBands: [String] = []
        enum CodingKeys: String, CodingKey {
            case layer, zones, droppedFeatures = "dropped_features", rows, pairs, publishedTrips = "published_trips"
            case suppressedPairs = "suppressed_pairs", suppressedTrips = "suppressed_trips", suppressedBandRows = "suppressed_band_rows"
            case complementaryRows = "complementary_rows", outsideTrips = "outside_trips", unplacedTrips = "unplaced_trips"
            case minimumPersons = "k", timeBands = "time_bands"
        }
    }

    /// Writes `od_zones.csv`, each trip's device counted as its person in `persons` (the device
    /// itself where none is named), its band read on that person's clock in `calendars`.
    @discardableResult
    public func write(persons: [String: String], calendars: LocalCalendars) throws -> Summary {
        let (stays, stay) = (try OutputSchema.staypoints.read(in: tablesFolder), OutputSchema.staypoints.index)
        var places: [String: (latitude: Double, longitude: Double)] = [:]
        for row in stays.rows {
            guard let id = row[stay("staypoint_id")], let lat = row[stay("lat")].flatMap(Double.init),
                let lon = row[stay("lon")].flatMap(Double.init)
            else { continue }
            places[id] = (lat, lon)
        }
        let (trips, trip) = (try OutputSchema.trips.read(in: tablesFolder), OutputSchema.trips.index)
        let input = trips.rows.map { row in
            let device = row[trip("device")] ?? ""
            return ZoneOD.Trip(
                device: device, person: persons[device] ?? device, startSeconds: row[trip("started_unix_s")].flatMap(Double.init) ?? 0,
                origin: row[trip("origin_staypoint_id")].flatMap { places[$0] },
                destination: row[trip("destination_staypoint_id")].flatMap { places[$0] },
                durationSeconds: row[trip("duration_s")].flatMap(Double.init) ?? 0,
                distanceMeters: row[trip("distance_m")].flatMap(Double.init) ?? 0, mainMode: row[trip("main_mode")] ?? "unknown")
        }
        let od = ZoneOD(input, layer: layer, calendars: calendars, bands: bands, minimumPersons: minimumPersons)
        try Self.csv(od, layer: layer).write(to: (folder as NSString).appendingPathComponent(Self.fileName))
        var summary = Summary(
            layer: layer.path, zones: layer.zones.count, droppedFeatures: layer.dropped.count, rows: od.rows.count,
            suppressedPairs: od.suppressedPairs, suppressedTrips: od.suppressedTrips, suppressedBandRows: od.suppressedBandRows,
            complementaryRows: od.complementaryRows, outsideTrips: od.outsideTrips, unplacedTrips: od.unplacedTrips,
            minimumPersons: minimumPersons, timeBands: bands.specifications + [bands.other])
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
                    String(row.persons), String(format: "%.1f", row.medianDurationSeconds), String(format: "%.1f", row.medianDistanceMeters)
                ] + OutputSchema.modeNames.map { String(format: "%.4f", row.modeShares[$0] ?? 0) })
        }
        return csv
    }

    /// One line for the log and the report.
    public static func text(_ s: Summary) -> String {
        "OD by zone (\(s.zones) zones of \((s.layer as NSString).lastPathComponent)): \(s.pairs) zone pairs published over the whole day with "
            + "\(s.publishedTrips) trips, \(s.rows) rows with the time bands (\(s.timeBands.dropLast().joined(separator: ", ")), "
            + "the rest \(s.timeBands.last ?? "")); k = \(s.minimumPersons) persons: \(s.suppressedPairs) pairs suppressed "
            + "(\(s.suppressedTrips) trips), \(s.suppressedBandRows) band rows under k and \(s.complementaryRows) beside them left out"
            + (s.outsideTrips > 0 ? "; \(s.outsideTrips) trips with an end outside every zone not counted" : "")
            + (s.unplacedTrips > 0 ? "; \(s.unplacedTrips) trips without both staypoints not placed" : "")
            + (s.droppedFeatures > 0 ? "; \(s.droppedFeatures) features of the layer are no polygon and were not used" : "")
    }
}
