import Foundation

/// A fresh folder under the system's temporary directory, removed when released.
public final class TemporaryFolder {
    public let path: String

    public init(_ name: String = "pipeline-test") throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A folder a suite's static property keeps for the whole test process (a run made once for
    /// the suite's tests): a static is never released, so its `deinit` never runs; this one is
    /// removed when the process exits.
    public static func forProcess(_ name: String = "pipeline-test") throws -> TemporaryFolder {
        let folder = try TemporaryFolder(name)
        ProcessFolders.shared.add(folder.path)
        return folder
    }

    /// Writes `text` (UTF-8) to `name` inside the folder, creating sub-folders; returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes `text` gzip-compressed to `name`; returns the path.
    @discardableResult
    public func writeGzip(_ name: String, _ text: String) throws -> String {
        let file = try write(name, Data())
        try Gzip.write(Data(text.utf8), to: file)
        return file
    }

    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}

/// The folders `TemporaryFolder.forProcess` made, removed at the process's exit.
private final class ProcessFolders: @unchecked Sendable {
    static let shared = ProcessFolders()
    private let lock = NSLock()
    private var paths: [String] = []

    private init() { atexit { ProcessFolders.shared.removeAll() } }

    func add(_ path: String) { lock.withLock { paths.append(path) } }

    func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
