import Foundation
import GRDB

/// Counts of what a run did with its inputs.
public struct RunCounts: Hashable, Sendable {
    public var seen = 0
    public var ingested = 0
    public var unchanged = 0
    public var quarantined = 0
    public var skipped = 0

    public init() {}
}

extension PipelineStore {
    /// Starts a run log entry and returns its id.
    public func beginRun(command: String) throws -> Int64 {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO runs (command, started_unix_s, status) VALUES (?, ?, 'running')",
                arguments: [command, Date().timeIntervalSince1970])
            return db.lastInsertedRowID
        }
    }

    public func finishRun(id: Int64, counts: RunCounts, failed: Bool = false) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE runs SET finished_unix_s = ?, status = ?, files_seen = ?, files_ingested = ?, files_unchanged = ?,
                      files_quarantined = ?, files_skipped = ? WHERE id = ?
                    """,
                arguments: [
                    Date().timeIntervalSince1970, failed ? "failed" : "completed", counts.seen, counts.ingested,
                    counts.unchanged, counts.quarantined, counts.skipped, id
                ])
        }
    }
}
