import Foundation
import MobilityCore
#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock (flock) on `<store>.lock`, held by every command that writes a
/// store or its output folder (`run`, `ingest`, `classify --store`, `trips`, `heatmap`,
/// `comfort`): a second writer stops at once with a clear message instead of interleaving its
/// writes. The kernel releases the lock when the process ends, even on SIGKILL, so a killed
/// run never leaves a stale lock behind. The file records the holder's pid and start.
///
/// Re-entrant within one process: `run` holds the lock and its stages take it again, which
/// only counts (flock would refuse a second open file description, even in the same process).
public final class RunLock {
    /// Another run holds the lock: `PipelineError.Code.storeLocked` (exit 75).
    static func heldMessage(path: String, holder: String) -> String {
        "another pipeline run is using this store (\(holder.isEmpty ? "holder unknown" : holder)); "
            + "wait for it to finish, or stop it (lock file \(path))"
    }

    /// The lock file cannot be created or opened (a read-only folder, permissions): a fatal
    /// error (`storeUnavailable`, exit 1), not another run.
    static func cannotOpenMessage(path: String, reason: String) -> String { "cannot open the lock file \(path): \(reason)" }

    private static let registry = NSLock()
    /// Descriptor and holders of each lock this process holds, by lock path.
    nonisolated(unsafe) private static var held: [String: (descriptor: Int32, holders: Int)] = [:]

    public let path: String

    public init(storePath: String) throws {
        path = StandardPath.of(storePath) + ".lock" // one lock however the store's path is spelled
        Self.registry.lock()
        defer { Self.registry.unlock() }
        if let current = Self.held[path] {
            Self.held[path] = (current.descriptor, current.holders + 1)
            return
        }
        Self.held[path] = (try Self.acquire(path), 1)
    }

    private static func acquire(_ path: String) throws -> Int32 {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw PipelineError(
                .storeUnavailable, Self.cannotOpenMessage(path: path, reason: "cannot create its folder (\(error.localizedDescription))"),
                at: .init(path: path))
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw PipelineError(
                .storeUnavailable, cannotOpenMessage(path: path, reason: String(cString: strerror(errno))), at: .init(path: path))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw PipelineError(.storeLocked, Self.heldMessage(path: path, holder: holder), at: .init(path: path))
        }
        let note = "pid \(getpid()), started \(ISO8601.formatNow())\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { write(descriptor, $0, strlen($0)) }
        return descriptor
    }

    deinit {
        Self.registry.lock()
        defer { Self.registry.unlock() }
        guard let current = Self.held[path] else { return }
        if current.holders > 1 {
            Self.held[path] = (current.descriptor, current.holders - 1)
        } else {
            Self.held[path] = nil
            flock(current.descriptor, LOCK_UN)
            close(current.descriptor)
        }
    }
}
