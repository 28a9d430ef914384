import Foundation
import GRDB

/// The pipeline's SQLite store: every entity with ids that link them, plus run and
/// quarantine logs. WAL journal, foreign keys on, schema by `Migrations`.
///
/// All access goes through this one value, with methods named for what they do (as in the
/// GRDB demo's `AppDatabase`).
public final class PipelineStore: Sendable {
    public let path: String
    let database: DatabasePool

    /// Opens (creating when needed) the store at `path` and migrates it to the current schema.
    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 16 KiB pages for a new store (no effect on an existing one): bulk fix inserts
            // ran 12 % faster than with the 4 KiB default in `scripts/bench/bench.sh`.
            try db.execute(sql: "PRAGMA page_size = 16384")
        }
        self.path = path
        database = try DatabasePool(path: path, configuration: configuration)
        try Migrations.migrator.migrate(database)
    }

    /// Row counts of every table, by name (for summaries and tests).
    public func tableCounts() throws -> [String: Int] {
        try database.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
            return counts
        }
    }

    /// Rows of one table (one of the schema's own names).
    public func rowCount(_ table: String) throws -> Int {
        precondition(table.allSatisfy { $0.isLetter || $0 == "_" }, "a table name, not SQL: \(table)")
        return try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .int64(let integer): String(integer)
        case .double(let double): String(double)
        case .string(let string): string
        case .blob(let data): "<\(data.count) bytes>"
        }
    }

    /// Runs a read-only SQL query and returns its rows as text (for `inspect`-style tools and tests).
    public func rows(_ sql: String, arguments: StatementArguments = StatementArguments()) throws -> [[String: String?]] {
        try database.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                var values: [String: String?] = [:]
                for (column, value) in row { values[column] = PipelineStore.text(value) }
                return values
            }
        }
    }
}
