import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock (flock) on `<store>.lock`, held for a whole `pipeline run`: a
/// second run on the same store stops at once with a clear message instead of interleaving
/// its writes. The kernel releases the lock when the process ends, even on SIGKILL, so a
/// killed run never leaves a stale lock behind. The file records the holder's pid and start.
public final class RunLock {
    public struct Held: Error, CustomStringConvertible {
        public var path: String
        public var holder: String
        public var description: String {
            "another pipeline run is using this store (\(holder.isEmpty ? "holder unknown" : holder)); "
                + "wait for it to finish, or stop it (lock file \(path))"
        }
    }

    private let descriptor: Int32
    public let path: String

    public init(storePath: String) throws {
        path = storePath + ".lock"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw Held(path: path, holder: "cannot open the lock file") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw Held(path: path, holder: holder)
        }
        let note = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
