import Ingest
import Store

/// What a command holds while it works on a store: the store's lock (`RunLock`: one writer
/// per store at a time), the open store and, for a run, the output folder's temporary folder
/// (zips are unpacked there; emptied when the command starts and removed when it ends).
///
/// One session per command: the command opens it, and its stages are given the session's
/// store (`run(store:progress:)`), never a path to open again.
public enum StoreSession {
    /// Runs `body` on the store at `storePath`, holding its lock, and, given a
    /// `temporaryFolder`, with that folder in place. A store an earlier version kept at the
    /// top of the output folder is moved to `storePath` first (`StoreRelocation`), with a line
    /// in the log.
    public static func run<T>(
        storePath: String, temporaryFolder: String? = nil, progress: ProgressReporter = ProgressReporter(),
        _ body: (PipelineStore) throws -> T
    ) throws -> T {
        let lock = try RunLock(storePath: storePath)
        defer { withExtendedLifetime(lock) {} }
        if let moved = try StoreRelocation.moveFormer(to: storePath) { progress.log(moved) }
        guard let temporaryFolder else { return try body(try PipelineStore(path: storePath)) }
        return try ZipExtraction.using(folder: temporaryFolder) { try body(try PipelineStore(path: storePath)) }
    }
}
