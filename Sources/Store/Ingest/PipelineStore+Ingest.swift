import Foundation
import GRDB
import MobilityCore

/// What the store already knows of an input.
public struct StoredFileState: Hashable, Sendable {
    public var contentSHA256: String
    public var status: String
    /// The user's column mapping the file was read with, if any (`ColumnMappingSpec.text`).
    public var columnMapping: String?
    /// Its size, modification time and inode when last hashed (`FileSignature`), if known.
    public var fileSignature: String?
    /// The device and person it was stored under (nil for tables that are no device's recording).
    public var device: String?, person: String?
    /// The path outputs show, below the folder given to the run that stored it.
    public var relativePath: String?
}

extension PipelineStore {
    /// The stored hash and status of the input at `path`, or nil when it was never seen.
    public func storedState(path: String) throws -> StoredFileState? {
        try database.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT content_sha256, status, column_mapping, file_signature, device, person, relative_path FROM input_files WHERE path = ?",
                arguments: [path]
            )
            .map {
                StoredFileState(
                    contentSHA256: $0[0], status: $0[1], columnMapping: $0[2], fileSignature: $0[3], device: $0[4], person: $0[5],
                    relativePath: $0[6])
            }
        }
    }

    /// Records the file-system signature an unchanged input now has (touched, copied back),
    /// so the next run need not hash it again.
    public func updateFileSignature(path: String, signature: String?) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE input_files SET file_signature = ? WHERE path = ?", arguments: [signature, path])
        }
    }

    /// Reads one input into the store in one transaction: any rows of an earlier version of
    /// the file are replaced atomically, and if `read` throws nothing of this file changes.
    /// `read` streams the file's fixes and waypoints into the sink and returns its result;
    /// `rows` says what of that result the store keeps.
    public func storeIngested<Outcome: Sendable>(
        path: String, contentSHA256: String, sizeBytes: Int64, runID: Int64, fileSignature: String? = nil, relativePath: String? = nil,
        read: (IngestSink) throws -> Outcome, rows: (Outcome) -> IngestedFileRows
    ) throws -> Outcome {
        try database.write { db in
            try db.execute(sql: "DELETE FROM input_files WHERE path = ?", arguments: [path])
            try db.execute(
                sql: """
                    INSERT INTO input_files (path, content_sha256, size_bytes, status, run_id, ingested_unix_s, file_signature, relative_path)
                    VALUES (?, ?, ?, 'ingested', ?, ?, ?, ?)
                    """, arguments: [path, contentSHA256, sizeBytes, runID, Date().timeIntervalSince1970, fileSignature, relativePath])
            let fileID = db.lastInsertedRowID
            let writer = try FixWriter(db: db, fileID: fileID)
            let result = try ParallelIngest.run(read: read, into: writer)
            try writer.flush()
            try IngestRows.write(rows(result), fileID: fileID, db: db)
            return result
        }
    }

    /// Records that the input at `path` was quarantined, replacing any earlier version's rows.
    public func storeQuarantined(
        path: String, contentSHA256: String, sizeBytes: Int64, runID: Int64, format: String?, problem: QuarantineProblem,
        fileSignature: String? = nil, relativePath: String? = nil
    ) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM input_files WHERE path = ?", arguments: [path])
            try db.execute(
                sql: """
                    INSERT INTO input_files (path, content_sha256, size_bytes, status, format, run_id, ingested_unix_s, file_signature, relative_path)
                    VALUES (?, ?, ?, 'quarantined', ?, ?, ?, ?, ?)
                    """,
                arguments: [path, contentSHA256, sizeBytes, format, runID, Date().timeIntervalSince1970, fileSignature, relativePath])
            try db.execute(
                sql: """
                    INSERT INTO quarantine (file_id, code, reason, line, column, run_id) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [db.lastInsertedRowID, problem.code, problem.reason, problem.line, problem.column, runID])
        }
    }

    /// The derived state holding the quarantines a completed command has reported (exit 2), by
    /// `quarantineKey`: a command killed after it quarantined a file never said so, so the
    /// command that completes after it does.
    public static let reportedQuarantinesKey = "reported_quarantines"

    /// An entry's identity across runs: its content (or path, when it could not be hashed),
    /// stage and code, so a moved input's old quarantine is not new.
    public static func quarantineKey(_ entry: QuarantineEntry) -> String {
        (entry.contentSHA256.isEmpty ? entry.path : entry.contentSHA256) + "\t" + entry.stage + "\t" + entry.code
    }

    /// The quarantines a completed command reported; for a store of an earlier version (no
    /// record), every quarantine it holds.
    public func reportedQuarantines() throws -> Set<String> {
        if let text = try derivedState(Self.reportedQuarantinesKey),
            let keys = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        {
            return Set(keys)
        }
        return Set(try quarantinedFiles().map(Self.quarantineKey))
    }

    /// A command completed: every quarantine the store holds has been reported.
    public func markQuarantinesReported() throws {
        let keys = try quarantinedFiles().map(Self.quarantineKey).sorted()
        let text = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
        try setDerivedState(Self.reportedQuarantinesKey, text)
    }

    /// Every quarantined input with its reason, in path order: inputs that could not be read
    /// (stage `ingest`) and ingested files a later stage failed on (see `recordStageFailure`).
    public func quarantinedFiles() throws -> [QuarantineEntry] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT f.path, f.format, f.content_sha256, q.code, q.reason, q.line, q.column, r.started_unix_s, 'ingest' AS stage,
                           COALESCE(f.relative_path, f.path) AS shown
                    FROM quarantine q JOIN input_files f ON f.id = q.file_id JOIN runs r ON r.id = q.run_id
                    UNION ALL
                    SELECT f.path, f.format, f.content_sha256, s.code, s.reason, NULL, NULL, s.failed_unix_s, s.stage,
                           COALESCE(f.relative_path, f.path)
                    FROM stage_failures s JOIN input_files f ON f.id = s.file_id AND f.content_sha256 = s.sha256
                    ORDER BY 10, 9, 1
                    """
            ).map { row in
                QuarantineEntry(
                    path: row["path"], format: row["format"], contentSHA256: row["content_sha256"],
                    code: row["code"], reason: row["reason"], line: row["line"], column: row["column"],
                    runStarted: Timestamp(secondsSince1970: row["started_unix_s"]), stage: row["stage"], shownPath: row["shown"])
            }
        }
    }
}

/// Why an input could not be read: a stable code, the reason, and where in the file.
public struct QuarantineProblem: Hashable, Sendable {
    public var code: String, reason: String, line: Int?, column: Int?
    public init(code: String, reason: String, line: Int?, column: Int?) {
        (self.code, self.reason, self.line, self.column) = (code, reason, line, column)
    }
}

/// One quarantined input, as `reports/quarantine.csv` lists it.
public struct QuarantineEntry: Hashable, Sendable {
    public var path: String
    public var format: String?
    public var contentSHA256: String
    public var code: String
    public var reason: String
    public var line: Int?
    public var column: Int?
    public var runStarted: Timestamp
    /// The stage that set the input aside: `ingest`, or a later one such as `classify`.
    public var stage = "ingest"
    /// The path outputs show: below the folder given to the run that found it.
    public var shownPath = ""
}
