import Foundation
import GRDB
import MobilityCore

/// Moves a store that an earlier version kept at the top of an output folder, among what
/// publishes, to the folder's `restricted/` (`StoreLocation`): once, by the first command that
/// opens the store, holding both places' locks.
///
/// The move is a rename on one file system, so a store is never copied in part: first the
/// store is checkpointed (its write-ahead log written into the database and truncated) and
/// closed, so the database file alone holds every committed row; then it is renamed, and the
/// empty log, its index and the former lock file go. A store found in both places is not
/// moved: which one holds the data is the user's to say, so the command stops (exit 1) naming
/// both.
public enum StoreRelocation {
    /// The line the command logs after a move.
    static func movedMessage(from former: String, to path: String) -> String {
        "moved the store from \(former) to \(path): the store holds every fix, so it is kept in "
            + "\(StoreLocation.restrictedFolderName)/ with the files that identify people, apart from what may be published"
    }

    /// Moves the store `storePath` names from where earlier versions kept it, when it is
    /// there and not yet at `storePath`; returns the line to log, nil when nothing was moved.
    /// The caller holds `storePath`'s `RunLock`; the former place's is taken here, so a run of
    /// an older version on the folder is never moved under.
    public static func moveFormer(to storePath: String) throws -> String? {
        guard let former = StoreLocation.formerPath(ofStore: storePath), FileManager.default.fileExists(atPath: former) else {
            return nil
        }
        if FileManager.default.fileExists(atPath: storePath) {
            throw PipelineError(
                .storeInTwoPlaces,
                "a store is in two places, \(former) and \(storePath); keep the one that holds the data at \(storePath) "
                    + "and move or remove the other (earlier versions kept the store at the top of the output folder)",
                at: .init(path: former))
        }
        let lock = try RunLock(storePath: former)
        try checkpoint(former)
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.moveItem(atPath: former, toPath: storePath)
        } catch {
            throw PipelineError(
                .cannotWrite, "cannot move the store from \(former) to \(storePath): \(error.localizedDescription)", cause: error)
        }
        // Checkpointed and closed, the log and its index hold nothing the database does not.
        for suffix in ["-wal", "-shm"] { try? manager.removeItem(atPath: former + suffix) }
        // What a run killed by an older version left unpacked at the top (emptied by every run since).
        try? manager.removeItem(
            atPath: ((former as NSString).deletingLastPathComponent as NSString).appendingPathComponent(".pipeline-tmp"))
        try? manager.removeItem(atPath: lock.path)
        withExtendedLifetime(lock) {}
        return movedMessage(from: former, to: storePath)
    }

    /// Writes the store's write-ahead log into the database and truncates it, then closes
    /// the store, so the database file alone holds every committed row.
    static func checkpoint(_ path: String) throws {
        let busy: Int?
        do {
            let queue = try DatabaseQueue(path: path)
            // (busy, log frames, frames written back); busy 1: a reader kept the log from being written back.
            busy = try queue.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try queue.close()
        } catch {
            throw PipelineError(.storeUnavailable, "cannot checkpoint the store \(path) before moving it: \(error)", cause: error)
        }
        guard busy ?? 0 == 0 else {
            throw PipelineError(.storeLocked, "another process is reading the store \(path); wait for it to end, then run again")
        }
    }
}
