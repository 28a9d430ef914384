import Foundation
import GRDB
import GRDBSQLite

/// Writes an OGC GeoPackage 1.3 (OGC 12-128r18) through SQLite: feature layers in EPSG:4326
/// with an R-tree per geometry column (Annex F.3, `gpkg_rtree_index`) and attribute tables.
///
/// Written by hand rather than through GDAL: the product already links SQLite, the format is
/// a handful of tables and a geometry encoding (clause 2.1.3), and the pipeline should not
/// need GDAL to run; GDAL's `ogrinfo` checks what this writes (`GeoPackageTests`).
///
/// The file is built under `<path>.partial` and renamed into place by `finish()`, so a
/// reader never sees half a GeoPackage and a killed run leaves the previous one.
public final class GeoPackageWriter: Sendable {
    public let path: String
    private let partial: String
    private let queue: DatabaseQueue

    /// A geometry in WGS 84 longitude/latitude degrees.
    public enum Geometry {
        case point(longitude: Double, latitude: Double)
        case lineString([(longitude: Double, latitude: Double)])
        /// Rings, the first the outer one, each closed (first point repeated last).
        case polygon([[(longitude: Double, latitude: Double)]])
        case multiPolygon([[[(longitude: Double, latitude: Double)]]])
        /// Already in GeoPackageBinary (`LineStringEncoder`), written as it is.
        case encoded(Encoded)
        /// A line string too long to hold (a leg of a year at 1 Hz: 31 M points), written a
        /// block at a time (`LineStringPieces`).
        case lineStringInPieces(LineStringPieces)
    }

    /// A line string given by its point count and envelope, and a pass over its points that
    /// gives them again, in order: its row is made with zero bytes in its place, then
    /// written through SQLite's incremental I/O `pieceBytes` at a time, so neither the line's
    /// text nor its points are held. SQLite still spells the zero bytes out while it makes the
    /// row (it keeps only a record's last value's zeros as a count, and `geom` is the second
    /// column): about twice the GeoPackageBinary, 16 bytes a point, for the insert's moment
    /// (1 GB for a year at 1 Hz, where the text, its encoding and their copies took 1.6 GB).
    public struct LineStringPieces {
        let points: Int
        let box: Envelope
        let replay: (_ body: (_ longitude: Double, _ latitude: Double) -> Void) throws -> Void

        var byteCount: Int { GeoPackageWriter.header(box: box).count + 9 + 16 * points }
    }

    /// How many bytes of a line in pieces go to SQLite at once.
    static let pieceBytes = 1 << 19

    /// A geometry as GeoPackageBinary (`encode`) with its envelope, for the layer's extent
    /// and its R-tree.
    public struct Encoded {
        let bytes: [UInt8]
        let box: Envelope
    }

    public enum GeometryType: String {
        case point = "POINT", lineString = "LINESTRING", polygon = "POLYGON", multiPolygon = "MULTIPOLYGON"
    }

    /// A layer's column: its name and GeoPackage type (`OutputSchema.ColumnType.geoPackage`).
    public struct Column {
        public var name: String
        public var type: OutputSchema.ColumnType
        public init(name: String, type: OutputSchema.ColumnType) { (self.name, self.type) = (name, type) }
    }

    public init(path: String) throws {
        self.path = path
        partial = path + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        var configuration = Configuration()
        configuration.journalMode = .default
        queue = try DatabaseQueue(path: partial, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            // Clause 1.1.1.1.1 (application id "GPKG") and 1.1.1.1.2 (user_version 10300 for 1.3).
            try db.execute(
                sql: "PRAGMA application_id = 1196444487; PRAGMA user_version = 10300; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.execute(sql: Self.coreTables)
        }
    }

    /// Clause 1.1.2 (gpkg_spatial_ref_sys with its three required rows), 1.1.3 (gpkg_contents),
    /// 2.1.5 (gpkg_geometry_columns) and 2.3 (gpkg_extensions), as Annex C's table definition SQL.
    static let coreTables = """
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
          organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
        INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system');
        INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
        INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
        CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
          description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
          CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
          srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
          CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
          CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
          CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
          scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
        """

    /// Adds a feature layer (`geometry` non-nil) or an attribute table, with `fid` as its
    /// integer primary key and `geom` as its geometry column. `rows` give each row's
    /// geometry (nil: a NULL geometry) and its values in `columns` order (already typed); they
    /// are taken one at a time, so a lazy sequence keeps one row's geometry in memory, not a
    /// layer's. Returns the number of rows written.
    @discardableResult
    public func addLayer(
        _ name: String, description: String, geometry: GeometryType?, columns: [Column],
        rows: some Sequence<(geometry: Geometry?, values: [DatabaseValue])>
    ) throws -> Int {
        var written = 0
        try queue.inTransaction { db in
            // The geometry is the row's last value: SQLite builds a row whole in memory, but
            // leaves out the zeros of a blob that only empty values follow (a line in pieces,
            // `zeroblob`), and a reader of the other columns skips it. Readers find it by name.
            let declared =
                ["fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL"] + columns.map { "\"\($0.name)\" \($0.type.geoPackage)" }
                + (geometry.map { ["geom \($0.rawValue)"] } ?? [])
            try db.execute(sql: "CREATE TABLE \"\(name)\" (\(declared.joined(separator: ", ")))")
            let names = columns.map { "\"\($0.name)\"" } + (geometry == nil ? [] : ["geom"])
            // The geometry is bound first (`execute(blob:zeroBlob:values:)`), the values after it.
            let parameters = geometry == nil ? columns.indices.map { "?\($0 + 1)" } : columns.indices.map { "?\($0 + 2)" } + ["?1"]
            let insert = try db.makeStatement(
                sql: "INSERT INTO \"\(name)\" (\(names.joined(separator: ", "))) VALUES (\(parameters.joined(separator: ", ")))")
            var extent = Envelope.empty
            var boxes: [(fid: Int64, box: Envelope)] = []
            boxes.reserveCapacity(rows.underestimatedCount)
            for row in rows {
                if geometry != nil, case let .lineStringInPieces(line)? = row.geometry {
                    try insert.execute(zeroBlob: line.byteCount, values: row.values)
                    try Self.write(line, into: name, row: db.lastInsertedRowID, db)
                    extent.add(line.box)
                    boxes.append((db.lastInsertedRowID, line.box))
                } else if geometry != nil, let shape = row.geometry {
                    let encoded = Self.encode(shape)
                    try insert.execute(blob: encoded.bytes, values: row.values)
                    extent.add(encoded.box)
                    boxes.append((db.lastInsertedRowID, encoded.box))
                } else {
                    try insert.execute(values: geometry == nil ? row.values : [.null] + row.values)
                }
                written += 1
            }
            let bounds: [DatabaseValue] =
                extent.isEmpty
                ? [.null, .null, .null, .null]
                : [extent.minX.databaseValue, extent.minY.databaseValue, extent.maxX.databaseValue, extent.maxY.databaseValue]
            try db.execute(
                sql: "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: StatementArguments(
                    [
                        name.databaseValue, (geometry == nil ? "attributes" : "features").databaseValue,
                        name.databaseValue, description.databaseValue
                    ] + bounds
                        + [geometry == nil ? .null : 4326.databaseValue]))
            if let geometry {
                try db.execute(
                    sql: "INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, 4326, 0, 0)", arguments: [name, geometry.rawValue])
                try spatialIndex(db, table: name, boxes: boxes)
            }
            return .commit
        }
        return written
    }

    /// Writes a line in pieces into its row's zero bytes (`LineStringPieces`): the same bytes
    /// `LineStringEncoder` gives.
    private static func write(_ line: LineStringPieces, into table: String, row: Int64, _ db: Database) throws {
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(db.sqliteConnection, "main", table, "geom", row, 1, &blob)
        guard opened == SQLITE_OK, let blob else {
            throw DatabaseError(resultCode: ResultCode(rawValue: opened), message: db.lastErrorMessage)
        }
        defer { sqlite3_blob_close(blob) }
        var offset: Int32 = 0
        func put(_ bytes: UnsafeRawBufferPointer) throws {
            let code = sqlite3_blob_write(blob, bytes.baseAddress, Int32(bytes.count), offset)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            offset += Int32(bytes.count)
        }
        var head = header(box: line.box)
        head.append(1)
        withUnsafeBytes(of: UInt32(2).littleEndian) { head.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(line.points).littleEndian) { head.append(contentsOf: $0) }
        try head.withUnsafeBytes(put)
        var block: [UInt64] = []
        // Written when it holds `pieceBytes`: its capacity may be more than reserved (the
        // allocator's rounding), and an odd one, never reached two values at a time, had let
        // the block grow to the whole line (25 MB for 1.6 M points).
        let full = pieceBytes / 8
        block.reserveCapacity(full)
        var (written, failure): (Int, Error?) = (0, nil)
        try line.replay { longitude, latitude in
            guard failure == nil, written < line.points else { return }
            block.append(longitude.bitPattern.littleEndian) // little-endian doubles, as WKB's byte order 1 says
            block.append(latitude.bitPattern.littleEndian)
            written += 1
            guard block.count >= full else { return }
            do { try block.withUnsafeBytes(put) } catch { failure = error }
            block.removeAll(keepingCapacity: true)
        }
        if let failure { throw failure }
        try block.withUnsafeBytes(put)
        guard written == line.points, Int(offset) == line.byteCount else {
            throw DatabaseError(message: "a line of \(line.points) points gave \(written) when written in pieces")
        }
    }

    /// Annex F.3: the R-tree virtual table filled with every geometry's envelope, then the
    /// triggers that keep it in step with later edits (in QGIS, say). The triggers call the
    /// ST_ functions a GeoPackage reader provides, so they are created after the rows are in.
    private func spatialIndex(_ db: Database, table t: String, boxes: [(fid: Int64, box: Envelope)]) throws {
        let r = "rtree_\(t)_geom"
        try db.execute(sql: "CREATE VIRTUAL TABLE \"\(r)\" USING rtree(id, minx, maxx, miny, maxy)")
        let insert = try db.makeStatement(sql: "INSERT INTO \"\(r)\" VALUES (?, ?, ?, ?, ?)")
        for (fid, box) in boxes {
            try insert.execute(values: [fid.databaseValue] + [box.minX, box.maxX, box.minY, box.maxY].map(\.databaseValue))
        }
        try db.execute(
            sql:
                "INSERT INTO gpkg_extensions VALUES (?, 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
            arguments: [t])
        let values = "NEW.fid, ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)"
        try db.execute(
            sql: """
                CREATE TRIGGER "\(r)_insert" AFTER INSERT ON "\(t)" WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))
                BEGIN INSERT OR REPLACE INTO "\(r)" VALUES (\(values)); END;
                CREATE TRIGGER "\(r)_update1" AFTER UPDATE OF geom ON "\(t)" WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
                BEGIN INSERT OR REPLACE INTO "\(r)" VALUES (\(values)); END;
                CREATE TRIGGER "\(r)_update2" AFTER UPDATE OF geom ON "\(t)" WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
                BEGIN DELETE FROM "\(r)" WHERE id = OLD.fid; END;
                CREATE TRIGGER "\(r)_update3" AFTER UPDATE OF geom ON "\(t)" WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
                BEGIN DELETE FROM "\(r)" WHERE id = OLD.fid; INSERT OR REPLACE INTO "\(r)" VALUES (\(values)); END;
                CREATE TRIGGER "\(r)_update4" AFTER UPDATE ON "\(t)" WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
                BEGIN DELETE FROM "\(r)" WHERE id IN (OLD.fid, NEW.fid); END;
                CREATE TRIGGER "\(r)_delete" AFTER DELETE ON "\(t)" WHEN old.geom NOT NULL
                BEGIN DELETE FROM "\(r)" WHERE id = OLD.fid; END;
                """)
    }

    /// Closes the file and moves it into place.
    public func finish() throws {
        try queue.close()
        guard rename(partial, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    // MARK: Geometry encoding

    struct Envelope {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        static let empty = Envelope()
        var isEmpty: Bool { minX > maxX }
        mutating func add(_ x: Double, _ y: Double) { (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)) }
        mutating func add(_ other: Envelope) {
            guard !other.isEmpty else { return }
            add(other.minX, other.minY)
            add(other.maxX, other.maxY)
        }
    }

    /// GeoPackageBinary (clause 2.1.3.1.1): "GP", version 0, flags (little-endian, an [minx,
    /// maxx, miny, maxy] envelope but for points), srs_id 4326, the envelope, then the
    /// geometry as ISO WKB (ISO 13249-3, little-endian: type 1 point, 2 line string, 3 polygon,
    /// 6 multipolygon).
    static func encode(_ geometry: Geometry) -> Encoded {
        var box = Envelope()
        // Bytes into an array, not a Data: appending to Data value by value cost a third of
        // writing a 1,600 device-day GeoPackage.
        var wkb: [UInt8] = []
        func uint32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { wkb.append(contentsOf: $0) } }
        func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { wkb.append(contentsOf: $0) } }
        func points(_ list: [(longitude: Double, latitude: Double)]) {
            uint32(UInt32(list.count))
            for p in list { double(p.longitude); double(p.latitude); box.add(p.longitude, p.latitude) }
        }
        func polygon(_ rings: [[(longitude: Double, latitude: Double)]]) {
            wkb.append(1); uint32(3); uint32(UInt32(rings.count))
            for ring in rings { points(ring) }
        }
        switch geometry {
        case let .encoded(encoded):
            return encoded
        case .lineStringInPieces:
            preconditionFailure("a line in pieces is written by addLayer, not encoded whole")
        case let .lineString(list):
            var line = LineStringEncoder(points: list.count)
            for p in list { line.add(longitude: p.longitude, latitude: p.latitude) }
            return line.encoded()
        case let .point(longitude, latitude):
            wkb.append(1); uint32(1); double(longitude); double(latitude)
            box.add(longitude, latitude)
            var bytes = header(box: nil)
            bytes.append(contentsOf: wkb)
            return Encoded(bytes: bytes, box: box)
        case let .polygon(rings):
            polygon(rings)
        case let .multiPolygon(polygons):
            wkb.append(1); uint32(6); uint32(UInt32(polygons.count))
            for rings in polygons { polygon(rings) }
        }
        var bytes = header(box: box)
        bytes.append(contentsOf: wkb)
        return Encoded(bytes: bytes, box: box)
    }

    /// The GeoPackageBinary header: 8 bytes, then the envelope's 32 unless `box` is nil (a point).
    static func header(box: Envelope?) -> [UInt8] {
        var bytes: [UInt8] = [0x47, 0x50, 0, box == nil ? 0b0000_0001 : 0b0000_0011]
        withUnsafeBytes(of: Int32(4326).littleEndian) { bytes.append(contentsOf: $0) }
        if let box {
            for value in [box.minX, box.maxX, box.minY, box.maxY] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    /// A line string's GeoPackageBinary built point by point, for lines read from text
    /// (`GeoPackageOutput` scans the store's GeoJSON): no array of points on the way, 6.3 M of
    /// them at 1,600 device-days. `encode` draws every line string with it.
    public struct LineStringEncoder {
        /// Longitude, latitude, longitude, …: copied into the WKB at once by `encoded()`.
        private var coordinates: [Double] = []
        private var box = Envelope()
        public var count: Int { coordinates.count / 2 }

        /// `points`: how many are expected (room is made for them; more may be added).
        public init(points: Int) { coordinates.reserveCapacity(2 * points) }

        public mutating func add(longitude: Double, latitude: Double) {
            coordinates.append(longitude)
            coordinates.append(latitude)
            box.add(longitude, latitude)
        }

        /// The header, the WKB line string's type and point count, then the points.
        public consuming func encoded() -> Encoded {
            var bytes = GeoPackageWriter.header(box: box)
            bytes.reserveCapacity(bytes.count + 9 + 8 * coordinates.count)
            bytes.append(1)
            withUnsafeBytes(of: UInt32(2).littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(count).littleEndian) { bytes.append(contentsOf: $0) }
            #if _endian(big)
                coordinates = coordinates.map { Double(bitPattern: $0.bitPattern.littleEndian) }
            #endif
            coordinates.withUnsafeBytes { bytes.append(contentsOf: $0) } // little-endian doubles, as WKB's byte order 1 says
            return Encoded(bytes: bytes, box: box)
        }
    }
}
