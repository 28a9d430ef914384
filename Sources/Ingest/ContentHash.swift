import Crypto
import Foundation

/// SHA-256 of an input's bytes, streamed in 1 MiB chunks; for a folder, of its files' names
/// and contents in sorted order. Two inputs with the same hash are the same data, so
/// re-ingesting an unchanged input is a no-op.
public enum ContentHash {
    public static func sha256(path: String) throws -> String {
        var hasher = SHA256()
        try update(&hasher, path: path)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private static func update(_ hasher: inout SHA256, path: String) throws {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue {
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
            for name in names {
                hasher.update(data: Data(name.utf8))
                try update(&hasher, path: (path as NSString).appendingPathComponent(name))
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(.unreadable, "cannot open the file for reading", path: path)
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
    }
}
