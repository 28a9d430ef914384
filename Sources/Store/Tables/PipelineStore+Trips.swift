import Foundation
import GRDB
import GRDBSQLite
import MobilityCore

/// How fixes are grouped into tracks for the trip stages.
public enum TrackGrouping: String, Sendable, CaseIterable {
    /// All files of a device form one track (the product's default).
    case device
    /// Each file is its own track, named by its path (to compare with per-file tools).
    case file
}

extension PipelineStore {
    /// Every timed fix of the ingested files, per device (or per file) in name order, each in
    /// file and then record order. Fixes without a time cannot be placed in a stay or a trip
    /// and are left out.
    public func trackPoints(groupedBy grouping: TrackGrouping = .device) throws -> [(name: String, points: [TrackPoint])] {
        let key = grouping == .device ? "COALESCE(i.device, i.path)" : "i.path"
        return try database.read { db in
            var points: [String: [TrackPoint]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(key), f.time_unix_s, f.lat_deg, f.lon_deg, f.accuracy_m
                    FROM fixes f JOIN input_files i ON i.id = f.file_id
                    WHERE i.status = 'ingested' AND f.time_unix_s IS NOT NULL
                    ORDER BY f.file_id, f.seq
                    """)
            while let row = try rows.next() {
                let accuracy: Double? = row[4]
                points[row[0] as String, default: []].append(
                    TrackPoint(timeSeconds: row[1], latitudeDegrees: row[2], longitudeDegrees: row[3], accuracyMeters: accuracy ?? .nan))
            }
            return points.keys.sorted().map { (name: $0, points: points[$0]!) }
        }
    }

    /// One stored geofence: a circle's centre and radius, or, for any other shape, its GeoJSON
    /// geometry.
    public struct GeofenceRow: Sendable {
        public var id: String, name: String, kind: String
        public var centerLatitudeDegrees: Double?, centerLongitudeDegrees: Double?, radiusMeters: Double?
        public var geometryGeoJSON: String?
    }

    /// The geofences of every ingested file, in file order (a later file's fence replaces an
    /// earlier one with the same id).
    public func geofenceRows() throws -> [GeofenceRow] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT geofence_id, name, kind, center_lat_deg, center_lon_deg, radius_m, geometry_geojson
                    FROM geofences ORDER BY file_id
                    """
            ).map { row in
                GeofenceRow(
                    id: row[0], name: row[1], kind: row[2], centerLatitudeDegrees: row[3], centerLongitudeDegrees: row[4],
                    radiusMeters: row[5], geometryGeoJSON: row[6])
            }
        }
    }

    /// The classified windows of each device, as spans for a `ModeTimeline`.
    public func modeSpans() throws -> [String: [ModeSpan]] {
        try database.read { db in
            var spans: [String: [ModeSpan]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT device, start_unix_s, end_unix_s, mode, decided_by FROM mode_windows") {
                guard let mode = Mode(rawValue: row[3]) else { continue }
                spans[row[0] as String, default: []].append(
                    ModeSpan(startSeconds: row[1], endSeconds: row[2], mode: mode, source: Decider(rawValue: row[4]) ?? .rules))
            }
            return spans
        }
    }

    /// One classified window, as `pipeline classify --store` keeps it.
    public struct ModeWindowRow: Sendable {
        public var device: String, trace: String
        public var startSeconds: Double, endSeconds: Double
        public var mode: Mode, rawMode: Mode
        public var probability: Double?
        public var decidedBy: String

        public init(
            device: String, trace: String, startSeconds: Double, endSeconds: Double, mode: Mode, rawMode: Mode,
            probability: Double?, decidedBy: String
        ) {
            self.device = device
            self.trace = trace
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.mode = mode
            self.rawMode = rawMode
            self.probability = probability
            self.decidedBy = decidedBy
        }
    }

    /// Replaces the classified windows of every trace in `rows` (one transaction), so
    /// classifying a trace again never duplicates its windows.
    public func replaceModeWindows(_ rows: [ModeWindowRow]) throws {
        try database.write { db in
            for trace in Set(rows.map { [$0.device, $0.trace] }) {
                try db.execute(sql: "DELETE FROM mode_windows WHERE device = ? AND trace = ?", arguments: [trace[0], trace[1]])
            }
            try insertModeWindows(rows, db: db)
        }
    }

    func insertModeWindows(_ rows: [ModeWindowRow], db: Database) throws {
        let insert = try db.makeStatement(
            sql: """
                INSERT OR REPLACE INTO mode_windows (device, trace, start_unix_s, end_unix_s, mode, raw_mode, probability, decided_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for row in rows {
            try insert.execute(arguments: [
                row.device, row.trace, row.startSeconds, row.endSeconds, row.mode.rawValue,
                row.rawMode.rawValue, row.probability, row.decidedBy
            ])
        }
    }
}

extension PipelineStore {
    /// The stored legs' lines by tripleg id (the ids of `triplegs.csv`): `body` gets a lookup
    /// that gives a leg's GeoJSON text (a leg by time's is an empty line) read a block at a
    /// time (`ColumnBlobs`), nil for an id with no leg. A text reads until the next lookup.
    public func withTriplegLines<T>(_ body: (_ line: (_ id: Int64) throws -> BlockText?) throws -> T) throws -> T {
        try database.read { db in
            let lines = ColumnBlobs(db.sqliteConnection, table: "triplegs", column: "geometry_geojson")
            // Stepped through the C API: the lookup may be called on another thread while this
            // one waits (the GeoPackage's writer), where GRDB's own calls would refuse.
            let statement = try db.makeStatement(sql: "SELECT 1 FROM triplegs WHERE id = ?")
            return try body { id in
                do {
                    return try lines.text(ofRow: id)
                } catch {
                    // No row for an id with no leg; anything else is an error.
                    let exists = statement.sqliteStatement
                    sqlite3_reset(exists)
                    sqlite3_bind_int64(exists, 1, id)
                    defer { sqlite3_reset(exists) }
                    guard sqlite3_step(exists) == SQLITE_DONE else { throw error }
                    return nil
                }
            }
        }
    }
}

extension PipelineStore {
    /// An ingested file's identity, for the fixes `forEachPositionFix` gives by file id.
    public struct PositionFile: Sendable {
        public var device: String, person: String?, trace: String
    }

    /// The ingested files by id: device, person (nil when none was named) and shown path.
    public func positionFiles() throws -> [Int64: PositionFile] {
        try database.read { db in
            var files: [Int64: PositionFile] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, COALESCE(device, path), person, COALESCE(relative_path, path) FROM input_files WHERE status = 'ingested'
                    """)
            {
                files[row[0]] = PositionFile(device: row[1], person: row[2], trace: row[3])
            }
            return files
        }
    }

    /// A timed fix: its file's id, time, position, elevation and accuracy.
    public struct PositionFix: Sendable {
        public var fileID: Int64, timeSeconds: Double, latitudeDegrees: Double, longitudeDegrees: Double
        public var elevationMeters: Double?, accuracyMeters: Double?
    }

    /// Every timed fix of the ingested files (those the trip stage reads), device after device
    /// in name order, each device's in time order. Streams: one fix at a time reaches `body`.
    public func forEachPositionFix(_ body: (PositionFix) throws -> Void) throws {
        try database.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT f.file_id, f.time_unix_s, f.lat_deg, f.lon_deg, f.elevation_m, f.accuracy_m
                    FROM fixes f JOIN input_files i ON i.id = f.file_id
                    WHERE i.status = 'ingested' AND f.time_unix_s IS NOT NULL
                    ORDER BY COALESCE(i.device, i.path), f.time_unix_s, f.file_id, f.seq
                    """)
            while let row = try rows.next() {
                try body(
                    PositionFix(
                        fileID: row[0], timeSeconds: row[1], latitudeDegrees: row[2], longitudeDegrees: row[3],
                        elevationMeters: row[4], accuracyMeters: row[5]))
            }
        }
    }
}
