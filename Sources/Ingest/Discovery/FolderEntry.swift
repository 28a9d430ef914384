import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// One name in a folder, read with `readdir` so that a name which is not UTF-8 is seen (and
/// reported) instead of vanishing, as it does from Foundation's listing.
struct FolderEntry: Hashable {
    /// The name; for a name that is not UTF-8, its bytes with every non-ASCII one written `\xNN`.
    var name: String
    var isValidUTF8: Bool

    /// The entries of `folder` (without `.` and `..`), or the OS error when it cannot be listed.
    static func list(_ folder: String) -> Result<[FolderEntry], FolderError> {
        guard let directory = opendir(folder) else { return .failure(FolderError(errno: errno)) }
        defer { closedir(directory) }
        var entries: [FolderEntry] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard bytes != [0x2E], bytes != [0x2E, 0x2E] else { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                entries.append(FolderEntry(name: name, isValidUTF8: true))
            } else {
                entries.append(FolderEntry(name: escaped(bytes), isValidUTF8: false))
            }
        }
        return .success(entries)
    }

    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
    }
}

/// An OS error met while walking the inputs, with its message.
struct FolderError: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { String(cString: strerror(errno)) }
}

/// What a path is, from `stat` (links followed) and, for a link that leads nowhere, `lstat`.
public enum FileKind: Equatable {
    case regular, folder(device: UInt64, inode: UInt64), other(String), missing(String)

    /// Nothing at the path (a link to nothing is `other`, not missing).
    public var isMissing: Bool { if case .missing = self { true } else { false } }
    public var isFolder: Bool { if case .folder = self { true } else { false } }

    public init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = FolderError(errno: errno)
            var link = stat()
            self =
                lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
                ? .other("a symbolic link to nothing (\(error))") : .missing(error.description)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        case S_IFIFO: self = .other("a FIFO (named pipe)")
        case S_IFSOCK: self = .other("a socket")
        case S_IFCHR: self = .other("a character device")
        case S_IFBLK: self = .other("a block device")
        default: self = .other("not a regular file")
        }
    }
}
