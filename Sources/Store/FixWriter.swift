import GRDB
import GRDBSQLite
import Ingest
import MobilityCore

/// Streams one file's fixes and waypoints into the store inside the file's transaction.
///
/// The hot path of ingest: binds values straight into prepared statements through SQLite's C
/// API (the only file that does) instead of building `StatementArguments` per row, which
/// keeps SQLite writes near a million rows per second.
final class FixWriter: IngestSink {
    private let fixStatement: Statement
    private let waypointStatement: Statement
    private let fileID: Int64
    private var fixSequence: Int64 = 0
    private var waypointSequence: Int64 = 0

    init(db: Database, fileID: Int64) throws {
        self.fileID = fileID
        fixStatement = try db.makeStatement(sql: """
            INSERT INTO fixes (file_id, seq, track, segment, line, time_unix_s, lat_deg, lon_deg, elevation_m,
              accuracy_m, hdop, pdop, speed_mps, course_deg, heart_rate_bpm, cadence_rpm)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        waypointStatement = try db.makeStatement(sql: """
            INSERT INTO waypoints (file_id, seq, kind, route, name, line, time_unix_s, lat_deg, lon_deg, elevation_m)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    func write(fix: PositionFix, at position: FixPosition) throws {
        let statement = fixStatement.sqliteStatement
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, fileID)
        sqlite3_bind_int64(statement, 2, fixSequence)
        sqlite3_bind_int64(statement, 3, Int64(position.track))
        sqlite3_bind_int64(statement, 4, Int64(position.segment))
        sqlite3_bind_int64(statement, 5, Int64(position.line))
        bind(statement, 6, fix.time?.secondsSince1970)
        sqlite3_bind_double(statement, 7, fix.latitudeDegrees)
        sqlite3_bind_double(statement, 8, fix.longitudeDegrees)
        bind(statement, 9, fix.elevationMeters)
        bind(statement, 10, fix.accuracyMeters)
        bind(statement, 11, fix.hdop)
        bind(statement, 12, fix.pdop)
        bind(statement, 13, fix.speedMetersPerSecond)
        bind(statement, 14, fix.courseDegrees)
        bind(statement, 15, fix.heartRateBpm)
        bind(statement, 16, fix.cadenceRpm)
        try step(statement)
        fixSequence += 1
    }

    func write(waypoint: Waypoint, line: Int) throws {
        let statement = waypointStatement.sqliteStatement
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, fileID)
        sqlite3_bind_int64(statement, 2, waypointSequence)
        bindText(statement, 3, waypoint.kind.rawValue)
        bind(statement, 4, waypoint.route.map(Double.init))
        bindText(statement, 5, waypoint.name)
        sqlite3_bind_int64(statement, 6, Int64(line))
        bind(statement, 7, waypoint.fix.time?.secondsSince1970)
        sqlite3_bind_double(statement, 8, waypoint.fix.latitudeDegrees)
        sqlite3_bind_double(statement, 9, waypoint.fix.longitudeDegrees)
        bind(statement, 10, waypoint.fix.elevationMeters)
        try step(statement)
        waypointSequence += 1
    }

    private func bind(_ statement: OpaquePointer, _ index: Int32, _ value: Double?) {
        if let value, value.isFinite { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(statement, index); return }
        // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
        sqlite3_bind_text(statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    private func step(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))))
        }
    }
}
