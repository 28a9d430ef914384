import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// `Statement.execute(blob:values:)` binds as GRDB's `StatementArguments` would: each storage
/// class, a text with a NUL inside whole, the blob first and unchanged.
@Suite struct StatementCBindTests {
    @Test func everyValueReadsBackAsBound() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("bind.sqlite"))
        let blob: [UInt8] = [0x47, 0x50, 0, 3, 0xFF, 0]
        let values: [DatabaseValue] = [.null, 42.databaseValue, 2.5.databaseValue, "a\u{0}b é".databaseValue, Data([1, 2]).databaseValue]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (g BLOB, n, i INTEGER, r REAL, s TEXT, b BLOB)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
            try insert.execute(blob: blob, values: values)
            try insert.execute(values: [.null] + values) // no blob: the values from the first parameter
        }
        let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT g, n, i, r, s, b, hex(s) AS h FROM t ORDER BY rowid") }
        #expect(rows.count == 2)
        #expect(rows[0]["g"] as Data? == Data(blob) && rows[1]["g"] as Data? == nil)
        for row in rows {
            #expect(row["n"] as DatabaseValue == .null && row["i"] as Int? == 42 && row["r"] as Double? == 2.5)
            // Read back as bytes (GRDB's String stops at a NUL): 61 00 62 20 C3 A9.
            #expect(row["h"] as String? == "61006220C3A9" && row["b"] as Data? == Data([1, 2]), "\(row)")
        }
    }
}
