import Foundation
import GRDB
import GRDBSQLite

extension Statement {
    /// Steps through the statement's rows with SQLite's C API, calling `body` with the handle
    /// to read columns from (`sqlite3_column_*`), then resets it. For the store's bulk reads,
    /// where GRDB's `Row` took a quarter longer (`trackPoints(named:)`); `FixWriter` binds the same way.
    func forEachCRow(_ body: (OpaquePointer) throws -> Void) throws {
        let handle = sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
            }
            try body(handle)
        }
    }

    /// A text column's UTF-8 bytes as SQLite holds them, valid until the row steps on.
    static func text(_ row: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = sqlite3_column_text(row, column) // before _bytes, as SQLite's documentation asks
        return UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(row, column)))
    }
}

extension Array where Element == UInt8 {
    /// The same bytes as a column's `text`: one `memcmp`, where `elementsEqual` stepped an
    /// iterator per byte and took a fifth of the report's CPU at 1,600 device-days (three
    /// columns of a million windows).
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { memcmp($0.baseAddress!, other.baseAddress!, count) == 0 }
    }
}
