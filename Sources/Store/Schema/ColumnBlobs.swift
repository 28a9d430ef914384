import GRDB
import GRDBSQLite
import MobilityCore

/// One column's values read through SQLite's incremental I/O (`sqlite3_blob_read`), a block
/// at a time, by rowid: a value too long to hold (a leg's line of a year at 1 Hz: 650 MB of
/// text) is never loaded whole, as a row's value would be. One handle is moved from row to row
/// (`sqlite3_blob_reopen`), where opening one per row compiles a statement each time. Used
/// within one read of the connection, on one thread at a time.
final class ColumnBlobs {
    private let connection: OpaquePointer?
    private let table: String, column: String
    private var handle: OpaquePointer?

    init(_ connection: OpaquePointer?, table: String, column: String) {
        (self.connection, self.table, self.column) = (connection, table, column)
    }

    deinit {
        if let handle { sqlite3_blob_close(handle) }
    }

    /// Row `rowid`'s value, read until the next call. Throws SQLite's error when the row does
    /// not exist or its value is neither text nor a blob (NULL, a number).
    func text(ofRow rowid: Int64) throws -> BlockText {
        var code: Int32
        if let open = handle {
            code = sqlite3_blob_reopen(open, rowid)
            if code != SQLITE_OK { sqlite3_blob_close(open); handle = nil } // a failed reopen leaves the handle unusable
        } else {
            code = sqlite3_blob_open(connection, "main", table, column, rowid, 0, &handle)
            if code != SQLITE_OK { handle = nil }
        }
        guard code == SQLITE_OK, let opened = handle else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "\(table).\(column) of row \(rowid): \(String(cString: sqlite3_errmsg(connection)))")
        }
        let (table, column) = (table, column)
        return BlockText(count: Int(sqlite3_blob_bytes(opened))) { buffer, offset in
            let read = sqlite3_blob_read(opened, buffer.baseAddress, Int32(buffer.count), Int32(offset))
            guard read == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: read), message: "\(table).\(column) of row \(rowid) at byte \(offset)")
            }
        }
    }
}

extension ColumnBlobs {
    /// Writes `text`'s bytes, a block at a time through SQLite's incremental I/O, into row
    /// `rowid`'s value of `column`, which must be a blob of as many zero bytes (`zeroblob`): SQLite
    /// builds a row whole in memory, a text value too, but leaves a blob's zeros out.
    static func write(
        _ text: SpooledText, into table: String, column: String, row rowid: Int64, connection: OpaquePointer?, blockBytes: Int
    ) throws {
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(connection, "main", table, column, rowid, 1, &blob)
        guard opened == SQLITE_OK, let blob else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: opened),
                message: "\(table).\(column) of row \(rowid): \(String(cString: sqlite3_errmsg(connection)))")
        }
        defer { sqlite3_blob_close(blob) }
        var offset = 0
        try text.forEachBlock(blockBytes: blockBytes) { block in
            let code = sqlite3_blob_write(blob, block.baseAddress, Int32(block.count), Int32(offset))
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(table).\(column) of row \(rowid) at byte \(offset)")
            }
            offset += block.count
        }
        guard offset == Int(sqlite3_blob_bytes(blob)) else {
            throw DatabaseError(message: "\(table).\(column) of row \(rowid): \(offset) bytes written of \(sqlite3_blob_bytes(blob))")
        }
    }
}
