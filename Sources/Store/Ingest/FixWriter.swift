import GRDB
import GRDBSQLite
import MobilityCore

/// Streams one file's fixes and waypoints into the store inside the file's transaction.
///
/// The hot path of ingest: binds values straight into prepared statements through SQLite's C
/// API (the only file that does) instead of building `StatementArguments` per row, and writes
/// fixes `blockRows` to a statement (one multi-row INSERT), which spares SQLite a statement
/// step and reset per row. Call `flush()` after the last fix.
final class FixWriter: IngestSink {
    /// Fixes per multi-row INSERT. 64 × 16 columns stays far below SQLite's 32,766 variables.
    static let blockRows = 64
    private static let columns = 16
    private let blockStatement: Statement
    private let fixStatement: Statement
    private let waypointStatement: Statement
    private let fileID: Int64
    private var fixSequence: Int64 = 0
    private var waypointSequence: Int64 = 0
    private var pending: [(PositionFix, FixPosition)] = []

    init(db: Database, fileID: Int64) throws {
        self.fileID = fileID
        let insert = """
            INSERT INTO fixes (file_id, seq, track, segment, line, time_unix_s, lat_deg, lon_deg, elevation_m,
              accuracy_m, hdop, pdop, speed_mps, course_deg, heart_rate_bpm, cadence_rpm)
            VALUES
            """
        let row = "(" + Array(repeating: "?", count: Self.columns).joined(separator: ", ") + ")"
        fixStatement = try db.makeStatement(sql: insert + " " + row)
        blockStatement = try db.makeStatement(
            sql: insert + " " + Array(repeating: row, count: Self.blockRows).joined(separator: ", "))
        waypointStatement = try db.makeStatement(
            sql: """
                INSERT INTO waypoints (file_id, seq, kind, route, name, line, time_unix_s, lat_deg, lon_deg, elevation_m)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        pending.reserveCapacity(Self.blockRows)
    }

    func write(fix: PositionFix, at position: FixPosition) throws {
        pending.append((fix, position))
        guard pending.count == Self.blockRows else { return }
        let statement = blockStatement.sqliteStatement
        sqlite3_reset(statement)
        for (row, (fix, position)) in pending.enumerated() {
            bind(fix, at: position, into: statement, from: Int32(row * Self.columns))
        }
        try step(statement)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the fixes of a last, partial block, one row per statement.
    func flush() throws {
        let statement = fixStatement.sqliteStatement
        for (fix, position) in pending {
            sqlite3_reset(statement)
            bind(fix, at: position, into: statement, from: 0)
            try step(statement)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Binds one fix to the 16 parameters after `offset` and numbers it.
    private func bind(_ fix: PositionFix, at position: FixPosition, into statement: OpaquePointer, from offset: Int32) {
        sqlite3_bind_int64(statement, offset + 1, fileID)
        sqlite3_bind_int64(statement, offset + 2, fixSequence)
        sqlite3_bind_int64(statement, offset + 3, Int64(position.track))
        sqlite3_bind_int64(statement, offset + 4, Int64(position.segment))
        sqlite3_bind_int64(statement, offset + 5, Int64(position.line))
        bind(statement, offset + 6, fix.time?.secondsSince1970)
        sqlite3_bind_double(statement, offset + 7, fix.latitudeDegrees)
        sqlite3_bind_double(statement, offset + 8, fix.longitudeDegrees)
        bind(statement, offset + 9, fix.elevationMeters)
        bind(statement, offset + 10, fix.accuracyMeters)
        bind(statement, offset + 11, fix.hdop)
        bind(statement, offset + 12, fix.pdop)
        bind(statement, offset + 13, fix.speedMetersPerSecond)
        bind(statement, offset + 14, fix.courseDegrees)
        bind(statement, offset + 15, fix.heartRateBpm)
        bind(statement, offset + 16, fix.cadenceRpm)
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
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))))
        }
    }
}
