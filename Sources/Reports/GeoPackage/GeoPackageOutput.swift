import Foundation
import GRDB
import HeatMaps
import Ingest
import MobilityCore

/// `pipeline.gpkg`: the spatial outputs as OGC GeoPackages for QGIS and GDAL, with the ids and
/// columns of the CSVs, in two files as `OutputLayout` places them. Built from the CSV files
/// of the output folder and the store's leg lines and geofences, so a single run and `pipeline
/// publish` after a Spark merge write the same layers.
///
/// `pipeline.gpkg` publishes: `heatmap_all` and `heatmap_<mode>` (cells as polygons, k
/// already applied), `od_grid` (cell centre to cell centre, k applied) and, with a zone layer,
/// `od_zones` (zone centre to zone centre, k applied).
/// `restricted/pipeline.gpkg` identifies people: `staypoints`, `locations`, `dwells` (points),
/// `triplegs` (lines, with their mode), `trips` (straight lines from the origin staypoint to
/// the destination one), `geofences` (multipolygons; a circle as a 64-gon; a user's geofences
/// may be homes), and `rides`, `person_days`, `untracked` and `tours` (tables without geometry).
public struct GeoPackageOutput: Sendable {
    public static let fileName = "pipeline.gpkg"
    /// Where the published file goes, and the published tables (`heatmap.csv`, `od_grid.csv`)
    /// are read; the restricted file and tables are in its `restricted/`.
    public var folder: String
    /// Where the per-device tables' CSVs are (`OutputSchema.perDeviceTables`). Default:
    /// `folder/restricted`; a distributed run that publishes them as Parquet only keeps them apart.
    public var tablesFolder: String

    public init(folder: String, tablesFolder: String? = nil) {
        (self.folder, self.tablesFolder) = (folder, tablesFolder ?? OutputLayout.restricted(in: folder))
    }

    /// The stored legs' GeoJSON lines: `body` is given a lookup of a leg's line by its tripleg
    /// id (the ids of `triplegs.csv`; nil for an id with no leg; a leg by time's line is empty
    /// and draws no geometry), read a block at a time (the store's `withTriplegLines`, as the
    /// runner passes it). A line is read until the next lookup.
    public typealias LegLines =
        @Sendable (_ body: (_ line: (_ id: Int64) throws -> BlockText?) throws -> Void) throws -> Void

    /// A leg's line longer than this (in bytes of GeoJSON text, about 21 a point) is written to
    /// the GeoPackage in pieces, read twice (its count and envelope, then its points); a shorter
    /// one is read and encoded whole, once.
    public var wholeLineBytes = 4 << 20
    /// How much of a line in pieces is read at once.
    public var lineBlockBytes = 1 << 20

    /// Writes the two files; returns the features of each layer. `published` is called before
    /// the layers drawn from the published files (heat maps, OD grid) are read, and returns the
    /// name of every heat map the run made (a map whose every cell was suppressed is an empty
    /// layer): `pipeline publish` writes the per-device layers while it computes those files,
    /// and waits there.
    /// `geofences`: the store's, as the trip stage reads them (a user's may be homes: restricted file only).
    @discardableResult
    public func write(legLines: @escaping LegLines, geofences: [Geofence], published: () throws -> [String]) throws -> [String: Int] {
        let restricted = try GeoPackageWriter(
            path: (try OutputLayout.prepareRestricted(in: folder) as NSString).appendingPathComponent(Self.fileName))
        var counts = try writePointLayers(restricted)
        func add(
            _ writer: GeoPackageWriter, _ name: String, _ about: String, _ schema: OutputSchema, _ type: GeoPackageWriter.GeometryType?,
            table: CSVTable, geometry: ([String?]) -> GeoPackageWriter.Geometry?
        ) throws {
            counts[name] = try addLayer(writer, name, about, schema, type, table: table, geometry: geometry)
        }

        // Each leg's line is read from the store as its row is written, so one leg's line is
        // held at a time (none, in pieces, for a leg longer than `wholeLineBytes`): every
        // leg's, encoded ahead, had been 16 bytes a point of the whole run (100 MB at 1,600
        // device-days), and a year-long leg's text, its encoding and SQLite's copy 1.8 GB.
        let legID = OutputSchema.triplegs.index("tripleg_id")
        let table = try read(.triplegs)
        try legLines { line in
            var failure: Error?
            try add(restricted, "triplegs", OutputSchema.triplegs.about, .triplegs, .lineString, table: table) { row in
                guard failure == nil, let id = row[legID].flatMap({ Int64($0) }) else { return nil }
                do {
                    return try line(id).flatMap { try lineString($0) }
                } catch {
                    failure = error
                    return nil
                }
            }
            if let failure { throw failure }
        }

        let trips = try read(.trips)
        try add(
            restricted, "trips",
            OutputSchema.trips.about
                + " Drawn as a straight line from origin to destination (origin_kind, destination_kind say how each was placed).",
            .trips, .lineString, table: trips
        ) { row in
            guard let o = PlanningSample.end(row, "origin"), let d = PlanningSample.end(row, "destination") else { return nil }
            return Self.segment((o.longitude, o.latitude), (d.longitude, d.latitude))
        }

        // Geofences only in the restricted file: a user's geofences may be homes.
        let fences = geofences
        let fenceColumns: [GeoPackageWriter.Column] = [
            .init(name: "geofence_id", type: .text), .init(name: "geofence_name", type: .text),
            .init(name: "geofence_kind", type: .text), .init(name: "shape", type: .text),
            .init(name: "radius_m", type: .real)
        ]
        try restricted.addLayer(
            "geofences", description: "The named areas dwells and OD are counted in (a circle drawn as a 64-gon).",
            geometry: .multiPolygon, columns: fenceColumns,
            rows: fences.map { fence in
                var radius: DatabaseValue = .null
                if case let .circle(_, _, r) = fence.shape { radius = r.databaseValue }
                return (
                    Self.multiPolygon(fence.shape),
                    [
                        fence.id.databaseValue, fence.name.databaseValue, fence.kind.databaseValue,
                        fence.shape.kindName.databaseValue, radius
                    ]
                )
            })
        counts["geofences"] = fences.count
        let rides = try read(.rides)
        try add(restricted, "rides", OutputSchema.rides.about, .rides, nil, table: rides) { _ in nil }
        // Person-days, their untracked intervals and tours: tables without geometry (outputs of
        // a version before them have none, and get none).
        for (name, schema) in [("person_days", OutputSchema.personDays), ("untracked", .untracked), ("tours", .tours)]
        where FileManager.default.fileExists(atPath: (OutputLayout.restricted(in: folder) as NSString).appendingPathComponent(schema.file))
        {
            try add(restricted, name, schema.about, schema, nil, table: try read(schema)) { _ in nil }
        }
        try restricted.finish()

        let heatMapNames = try published()
        let writer = try GeoPackageWriter(path: (folder as NSString).appendingPathComponent(Self.fileName))
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
            // The overall map with every cell suppressed is an empty layer, as it is an empty PNG; a
            // mode's map without a cell is not published (`HeatMapLayers.isPublished`).
            order = (order + heatMapNames.filter { byMap[$0] == nil && HeatMapLayers.isPublished(map: $0, cells: 0) })
                .sorted(by: HeatMap.runsBefore)
            for name in order {
                let layer = "heatmap_" + name
                try add(
                    writer, layer, "Heat-map cells of \(name == "all" ? "all modes" : name) seen by k persons or more.", .heatMap, .polygon,
                    table: CSVTable(columns: cells.columns, rows: byMap[name] ?? [])
                ) { row in
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
            try add(
                writer, "od_grid", OutputSchema.odGrid.about + " Drawn from cell centre to cell centre.", .odGrid, .lineString, table: pairs
            ) { row in
                let c = ends.map { row[$0].flatMap(Double.init) ?? .nan }
                return Self.segment((c[0], c[1]), (c[2], c[3]))
            }
        }

        if FileManager.default.fileExists(atPath: path(OutputSchema.odZones.file)) {
            let rows = try read(.odZones)
            let ends = ["origin_center_lon_deg", "origin_center_lat_deg", "destination_center_lon_deg", "destination_center_lat_deg"]
                .map(OutputSchema.odZones.index)
            try add(
                writer, "od_zones", OutputSchema.odZones.about + " Drawn from zone centre to zone centre (none within a zone).", .odZones,
                .lineString, table: rows
            ) { row in
                let c = ends.map { row[$0].flatMap(Double.init) ?? .nan }
                return Self.segment((c[0], c[1]), (c[2], c[3]))
            }
        }

        try writer.finish()
        return counts
    }

    /// The staypoints, locations and dwells layers; returns their counts.
    func writePointLayers(_ writer: GeoPackageWriter) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for (name, schema, table) in [
            ("staypoints", OutputSchema.staypoints, try read(.staypoints)), ("locations", .locations, try read(.locations)),
            ("dwells", .dwells, try read(.dwells))
        ] {
            counts[name] = try addLayer(writer, name, schema.about, schema, .point, table: table, geometry: pointReader(schema))
        }
        return counts
    }

    /// A layer of a CSV table's rows, typed by its schema, each with the geometry `geometry`
    /// draws from it; returns the number of rows. The rows are made one at a time.
    func addLayer(
        _ writer: GeoPackageWriter, _ name: String, _ about: String, _ schema: OutputSchema, _ type: GeoPackageWriter.GeometryType?,
        table: CSVTable, geometry: ([String?]) -> GeoPackageWriter.Geometry?
    ) throws -> Int {
        try withoutActuallyEscaping(geometry) { geometry in
            let rows = table.rows.lazy.map { (geometry: geometry($0), values: Self.values($0, schema)) }
            return try writer.addLayer(
                name, description: about, geometry: type, columns: schema.columns.map { .init(name: $0.name, type: $0.type) },
                rows: rows)
        }
    }

    func path(_ file: String) -> String { (folder as NSString).appendingPathComponent(file) }

    func read(_ schema: OutputSchema) throws -> CSVTable {
        try schema.read(
            in: schema.isPerDeviceTable
                ? tablesFolder
                : OutputLayout.restrictedFiles.contains(schema.file) ? OutputLayout.restricted(in: folder) : folder)
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
            case .integer: return Int64(field)?.databaseValue ?? field.databaseValue
            case .real: return Double(field)?.databaseValue ?? field.databaseValue
            case .boolean: return (field == "true" ? 1 : 0).databaseValue
            case .text, .datetime: return field.databaseValue
            }
        }
    }

    /// A leg's line from the store's text (`lineString(geoJSON:)`): read whole and encoded up to
    /// `wholeLineBytes`, else in pieces (`GeoPackageWriter.LineStringPieces`).
    func lineString(_ text: BlockText) throws -> GeoPackageWriter.Geometry? {
        guard text.count > wholeLineBytes else {
            return try text.bytes().withUnsafeBufferPointer(Self.lineString(geoJSON:)).map { .encoded($0) }
        }
        var box = GeoPackageWriter.Envelope()
        guard let points = try GeoJSONLineText.coordinates(text, blockBytes: lineBlockBytes, { box.add($0, $1) }), points >= 2 else {
            return nil
        }
        return .lineStringInPieces(
            GeoPackageWriter.LineStringPieces(points: points, box: box) { [lineBlockBytes] body in
                _ = try GeoJSONLineText.coordinates(text, blockBytes: lineBlockBytes, body)
            })
    }

    /// A GeoJSON LineString as the store keeps it (`{"type":"LineString","coordinates":[[lon,
    /// lat],…]}`), encoded as it is read: legs hold thousands of points. Nil (no geometry) for
    /// fewer than two points or text that is not numbers.
    static func lineString(geoJSON bytes: UnsafeBufferPointer<UInt8>) -> GeoPackageWriter.Encoded? {
        // About 20 bytes of text a point: room for all of them, a little over.
        var line = GeoPackageWriter.LineStringEncoder(points: bytes.count / 16)
        guard let points = GeoJSONLineText.coordinates(bytes, { line.add(longitude: $0, latitude: $1) }), points >= 2 else { return nil }
        return line.encoded()
    }

    /// A straight line, or nil (no geometry) when both ends are one point: GEOS and the
    /// GeoPackage's readers take a line of one point as invalid. Trips within one cell have none.
    static func segment(_ a: (Double, Double), _ b: (Double, Double)) -> GeoPackageWriter.Geometry? {
        a == b ? nil : .lineString([(a.0, a.1), (b.0, b.1)])
    }

    static func multiPolygon(_ shape: Geofence.Shape) -> GeoPackageWriter.Geometry {
        func ring(_ points: [GeoPoint]) -> [(longitude: Double, latitude: Double)] {
            points.map { ($0.longitudeDegrees, $0.latitudeDegrees) }
        }
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
