import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What the file system says of an input without reading it: size, modification time (to the
/// nanosecond), inode and device; for a folder (a Sensor Logger or phyphox export), the same
/// of every file inside, names sorted, as `ContentHash` reads them. Equal signatures let a
/// re-run call an input unchanged without hashing its bytes; `--verify` hashes anyway, for a
/// file changed in place within the same nanosecond at the same size, or a copy tool that
/// restores modification times.
public enum FileSignature {
    /// The signature of `path`, or nil when it cannot be examined.
    public static func of(path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return fileSignature(path) }
        var lines: [String] = []
        guard collect(path, prefix: "", into: &lines) else { return nil }
        let hasher = SHA256Hasher()
        hasher.update(data: Data(lines.joined(separator: "\n").utf8))
        return "folder:" + hasher.hexDigest()
    }

    private static func collect(_ folder: String, prefix: String, into lines: inout [String]) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        for name in names.filter({ !$0.hasPrefix(".") }).sorted() {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                guard collect(path, prefix: prefix + name + "/", into: &lines) else { return false }
            } else {
                guard let signature = fileSignature(path) else { return false }
                lines.append(prefix + name + "\t" + signature)
            }
        }
        return true
    }

    /// "size:mtime-seconds.nanoseconds:inode:device" of one file (links followed).
    private static func fileSignature(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ino):\(info.st_dev)"
    }
}
