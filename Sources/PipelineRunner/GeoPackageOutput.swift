import Foundation
import GRDB
import HeatMaps
import Ingest
import MobilityCore
import Reports
import Store

/// `pipeline.gpkg`: every spatial output in one OGC GeoPackage for QGIS and GDAL, with the
/// ids and columns of the CSVs. Built from the published CSV files of the output folder and
/// the store's leg lines and geofences, so a single run and `pipeline publish` after a
/// Spark merge write the same layers.
///
/// Layers: `staypoints`, `locations`, `dwells` (points), `triplegs` (lines, with their mode),
/// `trips` (straight lines from the origin staypoint to the destination one), `geofences`
/// (multipolygons; a circle as a 64-gon), `heatmap_all` and `heatmap_<mode>` (cells as
/// polygons, k already applied), `od_grid` (cell centre to cell centre, k applied) and
/// `rides` (a table without geometry).
public struct GeoPackageOutput {
    public static let fileName = "pipeline.gpkg"
    /// Where the file goes, and the published tables (`locations.csv`, `heatmap.csv`,
    /// `od_grid.csv`) are read.
    public var folder: String
    /// Where the per-device tables' CSVs are (`OutputSchema.perDeviceTables`). Default:
    /// `folder`; a distributed run that publishes them as Parquet only keeps them apart.
    public var tablesFolder: String

    public init(folder: String, tablesFolder: String? = nil) { (self.folder, self.tablesFolder) = (folder, tablesFolder ?? folder) }

    /// Writes the file; returns the features of each layer. `published` is called before the
    /// layers drawn from the published files (heat maps, OD grid) are read: `pipeline publish`
    /// writes the per-device layers while it computes those files, and waits there.
    @discardableResult
    public func write(store: PipelineStore, published: () throws -> Void = {}) throws -> [String: Int] {
        let writer = try GeoPackageWriter(path: (folder as NSString).appendingPathComponent(Self.fileName))
        var counts: [String: Int] = [:]
        func add(_ name: String, _ about: String, _ schema: OutputSchema, _ type: GeoPackageWriter.GeometryType?,
                 table: CSVTable, geometry: ([String?]) -> GeoPackageWriter.Geometry?) throws {
            let rows = table.rows.map { (geometry: geometry($0), values: Self.values($0, schema)) }
            try writer.addLayer(name, description: about, geometry: type, columns: schema.columns.map { .init(name: $0.name, type: $0.type) }, rows: rows)
            counts[name] = rows.count
        }
        let staypoints = try read(.staypoints)
        let point = pointReader(.staypoints)
        try add("staypoints", OutputSchema.staypoints.about, .staypoints, .point, table: staypoints, geometry: point)
        let locations = try read(.locations)
        try add("locations", OutputSchema.locations.about, .locations, .point, table: locations, geometry: pointReader(.locations))
        let dwells = try read(.dwells)
        try add("dwells", OutputSchema.dwells.about, .dwells, .point, table: dwells, geometry: pointReader(.dwells))

        let lines = try store.triplegGeometries()
        let triplegs = try read(.triplegs)
        let legID = OutputSchema.triplegs.index("tripleg_id")
        try add("triplegs", OutputSchema.triplegs.about, .triplegs, .lineString, table: triplegs) { row in
            row[legID].flatMap { Int64($0) }.flatMap { lines[$0] }.flatMap(Self.lineString)
        }

        let stays = Dictionary(staypoints.rows.compactMap { row in row[OutputSchema.staypoints.index("staypoint_id")].flatMap { id in point(row).map { (id, $0) } } }, uniquingKeysWith: { a, _ in a })
        let trips = try read(.trips)
        let (origin, destination) = (OutputSchema.trips.index("origin_staypoint_id"), OutputSchema.trips.index("destination_staypoint_id"))
        try add("trips", OutputSchema.trips.about + " Drawn as a straight line from origin to destination staypoint.", .trips, .lineString,
                table: trips) { row in
            guard case let .point(x0, y0)? = row[origin].flatMap({ stays[$0] }),
                  case let .point(x1, y1)? = row[destination].flatMap({ stays[$0] }) else { return nil }
            return Self.segment((x0, y0), (x1, y1))
        }

        let fences = try store.geofences()
        let fenceColumns: [GeoPackageWriter.Column] = [.init(name: "geofence_id", type: .text), .init(name: "geofence_name", type: .text),
                                                      .init(name: "geofence_kind", type: .text), .init(name: "shape", type: .text),
                                                      .init(name: "radius_m", type: .real)]
        try writer.addLayer("geofences", description: "The named areas dwells and OD are counted in (a circle drawn as a 64-gon).",
                            geometry: .multiPolygon, columns: fenceColumns, rows: fences.map { fence in
            var radius: DatabaseValue = .null
            if case let .circle(_, _, r) = fence.shape { radius = r.databaseValue }
            return (Self.multiPolygon(fence.shape), [fence.id.databaseValue, fence.name.databaseValue, fence.kind.databaseValue,
                                                    fence.shape.kindName.databaseValue, radius])
        })
        counts["geofences"] = fences.count

        try published()
        let heatPath = path(OutputSchema.heatMap.file)
        if FileManager.default.fileExists(atPath: heatPath) {
            let cells = try read(.heatMap)
            let map = OutputSchema.heatMap.index("heat_map")
            let edges = ["south_deg", "west_deg", "north_deg", "east_deg"].map(OutputSchema.heatMap.index)
            var order: [String] = []
            var byMap: [String: [[String?]]] = [:]
            for row in cells.rows {
                let name = row[map] ?? ""
                if byMap[name] == nil { order.append(name) }
                byMap[name, default: []].append(row)
            }
            // A map whose every cell was suppressed is an empty layer, as it is an empty PNG.
            order = PublishRun.inRunOrder(names: order + (try store.storedHeatMapNames()).filter { byMap[$0] == nil })
            for name in order {
                let layer = "heatmap_" + name
                try add(layer, "Heat-map cells of \(name == "all" ? "all modes" : name) seen by k persons or more.", .heatMap, .polygon,
                        table: CSVTable(columns: cells.columns, rows: byMap[name] ?? [])) { row in
                    let e = edges.map { row[$0].flatMap(Double.init) ?? .nan }
                    let (south, west, north, east) = (e[0], e[1], e[2], e[3])
                    return .polygon([[(west, south), (east, south), (east, north), (west, north), (west, south)]])
                }
            }
        }

        if FileManager.default.fileExists(atPath: path(OutputSchema.odGrid.file)) {
            let pairs = try read(.odGrid)
            let ends = ["origin_center_lon_deg", "origin_center_lat_deg", "destination_center_lon_deg", "destination_center_lat_deg"]
                .map(OutputSchema.odGrid.index)
            try add("od_grid", OutputSchema.odGrid.about + " Drawn from cell centre to cell centre.", .odGrid, .lineString, table: pairs) { row in
                let c = ends.map { row[$0].flatMap(Double.init) ?? .nan }
                return Self.segment((c[0], c[1]), (c[2], c[3]))
            }
        }

        let rides = try read(.rides)
        try add("rides", OutputSchema.rides.about, .rides, nil, table: rides) { _ in nil }
        try writer.finish()
        return counts
    }

    func path(_ file: String) -> String { (folder as NSString).appendingPathComponent(file) }

    func read(_ schema: OutputSchema) throws -> CSVTable {
        try schema.read(in: schema.isPerDeviceTable ? tablesFolder : folder)
    }

    func pointReader(_ schema: OutputSchema) -> ([String?]) -> GeoPackageWriter.Geometry? {
        let (lat, lon) = (schema.index("lat"), schema.index("lon"))
        return { row in
            guard let y = row[lat].flatMap(Double.init), let x = row[lon].flatMap(Double.init) else { return nil }
            return .point(longitude: x, latitude: y)
        }
    }

    /// A CSV row's fields as the schema's SQLite values: empty → NULL, `true`/`false` → 1/0.
    static func values(_ row: [String?], _ schema: OutputSchema) -> [DatabaseValue] {
        zip(row, schema.columns).map { field, column in
            guard let field else { return .null }
            switch column.type {
            case .integer: return Int64(field).map(\.databaseValue) ?? field.databaseValue
            case .real: return Double(field).map(\.databaseValue) ?? field.databaseValue
            case .boolean: return (field == "true" ? 1 : 0).databaseValue
            case .text, .datetime: return field.databaseValue
            }
        }
    }

    /// The coordinates of a GeoJSON LineString as the store keeps it (`{"type":"LineString",
    /// "coordinates":[[lon,lat],…]}`), scanned rather than decoded: legs hold thousands of points.
    static func lineString(_ geojson: String) -> GeoPackageWriter.Geometry? {
        guard let start = geojson.utf8.firstRange(of: "\"coordinates\"".utf8) else { return nil }
        var numbers: [Double] = []
        var text = geojson
        let parsed: Bool = text.withUTF8 { bytes in
            // Ingest's NumberParser, not strtod: 6.3 M coordinates at 1,600 device-days took
            // strtod 0.6 s (its slow multi-precision path); the parser rounds as strtod does.
            var index = geojson.utf8.distance(from: geojson.utf8.startIndex, to: start.upperBound)
            while index < bytes.count {
                guard Self.isNumberByte(bytes[index]) else { index += 1; continue }
                var end = index + 1
                while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
                guard let number = NumberParser.double(UnsafeBufferPointer(rebasing: bytes[index..<end])) else { return false }
                numbers.append(number)
                index = end
            }
            return true
        }
        guard parsed, numbers.count >= 4, numbers.count % 2 == 0 else { return nil }
        return .lineString(stride(from: 0, to: numbers.count, by: 2).map { (numbers[$0], numbers[$0 + 1]) })
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
    }

    /// A straight line, or nil (no geometry) when both ends are one point: GEOS and the
    /// GeoPackage's readers take a line of one point as invalid. Trips within one cell have none.
    static func segment(_ a: (Double, Double), _ b: (Double, Double)) -> GeoPackageWriter.Geometry? {
        a == b ? nil : .lineString([(a.0, a.1), (b.0, b.1)])
    }

    static func multiPolygon(_ shape: Geofence.Shape) -> GeoPackageWriter.Geometry {
        func ring(_ points: [GeoPoint]) -> [(longitude: Double, latitude: Double)] { points.map { ($0.longitudeDegrees, $0.latitudeDegrees) } }
        switch shape {
        case let .circle(lat, lon, radius):
            // 64 vertices on the sphere the heat-map grid uses: a drawing of the circle.
            let dLat = radius / HeatGrid.metersPerDegree
            let dLon = dLat / max(cos(lat * .pi / 180), 1e-6)
            var points = (0..<64).map { i -> (longitude: Double, latitude: Double) in
                let angle = Double(i) / 64 * 2 * .pi
                return (lon + dLon * cos(angle), lat + dLat * sin(angle))
            }
            points.append(points[0])
            return .multiPolygon([[points]])
        case let .polygon(rings):
            return .multiPolygon([rings.map(ring)])
        case let .multiPolygon(polygons):
            return .multiPolygon(polygons.map { $0.map(ring) })
        }
    }
}
