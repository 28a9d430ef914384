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
    /// `temporaryFolder`, with that folder in place.
    public static func run<T>(storePath: String, temporaryFolder: String? = nil, _ body: (PipelineStore) throws -> T) throws -> T {
        let lock = try RunLock(storePath: storePath)
        defer { withExtendedLifetime(lock) {} }
        guard let temporaryFolder else { return try body(try PipelineStore(path: storePath)) }
        return try ZipExtraction.using(folder: temporaryFolder) { try body(try PipelineStore(path: storePath)) }
    }
}
