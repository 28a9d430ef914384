import Foundation
import Ingest
import MobilityCore
import Store

/// What `pipeline export` writes as files of its own shape (trackintel's tables, the travel
/// diary): its format, folder, rows per file and seconds (`--json`).
public struct FileExportSummary: Sendable, Encodable {
    public var format: String
    public var folder: String
    public var rows: [String: Int] = [:]
    public var seconds = 0.0

    /// Reads what to write from the store at `storePath` (`read` may refuse, and then nothing
    /// is created), then creates `folder`, marks it so that no run reads it as input, and writes.
    static func run<Rows>(
        format: String, storePath: String, folder: String, read: (PipelineStore) throws -> Rows,
        write: (Rows) throws -> [String: Int]
    ) throws -> FileExportSummary {
        let started = Date()
        return try StoreSession.run(storePath: storePath) { store in
            let rows = try read(store)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("written by `pipeline export --format \(format)`; a pipeline run never reads this folder as input\n".utf8)
                .writeThroughPartial(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(PipelineOutputs.exportMarker)))
            var summary = FileExportSummary(format: format, folder: folder)
            summary.rows = try write(rows)
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
    }
}
