import Foundation
import GRDB
import GRDBSQLite
import MobilityCore

/// One value as SQLite stores it (its storage class), for exporting tables exactly.
public enum StoredValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A store table as its schema declares it: columns in order, with their declared types, and
/// the columns of its primary key (the order rows are exported in).
public struct StoredTable: Sendable {
    public struct Column: Sendable {
        public var name: String
        /// The type the schema declares (`INTEGER`, `REAL`, `TEXT`, …), upper-cased.
        public var declaredType: String
        public var notNull: Bool
    }

    public var name: String
    public var columns: [Column]
    /// Primary-key columns in key order; empty for a table keyed by its rowid alone.
    public var primaryKey: [String]
}

extension PipelineStore {
    /// Every table of the pipeline's schema, by name (GRDB's migration log and SQLite's own
    /// tables left out).
    public func storedTables() throws -> [StoredTable] {
        try database.read { db in
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name
                    """)
            return try names.map { name in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
                let columns = rows.map { StoredTable.Column(name: $0[0], declaredType: ($0[1] as String).uppercased(), notNull: $0[2]) }
                let key = rows.compactMap { row -> (Int, String)? in
                    let position: Int = row[3]
                    return position > 0 ? (position, row[0]) : nil
                }.sorted { $0.0 < $1.0 }.map(\.1)
                return StoredTable(name: name, columns: columns, primaryKey: key)
            }
        }
    }

    /// Calls `body` with each row of `table` in primary-key order (rowid order for a table
    /// keyed by its rowid), as SQLite stores the values: doubles to the last bit, text as it
    /// is. One read transaction, so the rows are one consistent snapshot.
    public func forEachRow(of table: StoredTable, _ body: ([StoredValue]) throws -> Void) throws {
        let columns = table.columns.map { quoted($0.name) }.joined(separator: ", ")
        let order = table.primaryKey.isEmpty ? "rowid" : table.primaryKey.map(quoted).joined(separator: ", ")
        try database.read { db in
            let statement = try db.makeStatement(sql: "SELECT \(columns) FROM \(quoted(table.name)) ORDER BY \(order)")
            var values = [StoredValue](repeating: .null, count: table.columns.count)
            try statement.forEachCRow { handle in
                for index in values.indices { values[index] = Self.value(handle, Int32(index)) }
                try body(values)
            }
        }
    }

    /// Columns whose values may be too long to hold (a leg's line: 650 MB of text for a year at
    /// 1 Hz), by table: `forEachRow(of:long:)` gives them as texts read a block at a time.
    package static let longTextColumns = ["triplegs": "geometry_geojson"]

    /// `forEachRow(of:_:)` with the table's long text column (`longTextColumns`), if it has one,
    /// given apart: `.null` in the values, and beside them as a text read through SQLite's
    /// incremental I/O until the next row (nil when NULL; `ColumnBlobs`). Its values must be
    /// text, NULL or a blob of a text's bytes (`SQLITE_MISMATCH` otherwise). A table without one goes as `forEachRow(of:_:)` does.
    package func forEachRow(of table: StoredTable, long body: ([StoredValue], _ long: (index: Int, text: BlockText?)?) throws -> Void)
        throws
    {
        guard let name = Self.longTextColumns[table.name], let long = table.columns.firstIndex(where: { $0.name == name }) else {
            try forEachRow(of: table) { try body($0, nil) }
            return
        }
        // The long column's type only (typeof() reads no content) and the rowid to open it by.
        let columns = table.columns.enumerated().map { index, column in
            index == long ? "typeof(\(quoted(column.name)))" : quoted(column.name)
        }
        let order = table.primaryKey.isEmpty ? "rowid" : table.primaryKey.map(quoted).joined(separator: ", ")
        try database.read { db in
            let statement = try db.makeStatement(
                sql: "SELECT \(columns.joined(separator: ", ")), rowid FROM \(quoted(table.name)) ORDER BY \(order)")
            var values = [StoredValue](repeating: .null, count: table.columns.count)
            let texts = ColumnBlobs(db.sqliteConnection, table: table.name, column: name)
            try statement.forEachCRow { handle in
                for index in values.indices where index != long { values[index] = Self.value(handle, Int32(index)) }
                let (type, rowid) = (
                    String(cString: sqlite3_column_text(handle, Int32(long))), sqlite3_column_int64(handle, Int32(table.columns.count))
                )
                guard type != "null" else { return try body(values, (long, nil)) }
                // A long line is stored as a blob of its text's bytes (`PipelineStore.longLineBytes`).
                guard type == "text" || type == "blob" else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISMATCH, message: "\(table.name).\(name) of row \(rowid) holds a \(type), not text")
                }
                let text = try texts.text(ofRow: rowid)
                try body(values, (long, text))
            }
        }
    }

    private static func value(_ handle: OpaquePointer, _ index: Int32) -> StoredValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
