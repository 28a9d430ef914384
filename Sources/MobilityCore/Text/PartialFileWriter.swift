import Foundation

/// Text written to `path.partial` as it is made, in blocks of `blockBytes`, then moved into
/// place by `finish()`, as `Data.writeThroughPartial` does for a file made whole in memory: a
/// reader never sees half a file, and a file as large as a year's leg never sits in memory.
/// Dropped without `finish()` (an error on the way), the partial file is removed.
public final class PartialFileWriter: TextOutputStream {
    public let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var finished = false
    /// A block write that failed, thrown by `finish()`.
    private var failure: Error?
    /// Bytes held before they are written: 1 MiB.
    public static let blockBytes = 1 << 20

    public init(path: String) throws {
        self.path = path
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil) else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial, NSLocalizedDescriptionKey: "cannot create \(partial)"])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        buffer.reserveCapacity(Self.blockBytes + 4096)
    }

    /// Appends `string` (TextOutputStream's requirement: it cannot throw, so a failed block
    /// write is kept and thrown by `finish()`).
    public func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= Self.blockBytes { flushBlock() }
    }

    private func flushBlock() {
        guard failure == nil, !buffer.isEmpty else { return buffer.removeAll(keepingCapacity: true) }
        do { try handle.write(contentsOf: buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and moves the file into place.
    public func finish() throws {
        flushBlock()
        finished = true
        try handle.close()
        if let failure { throw failure }
        try Data.movePartialIntoPlace(path)
    }

    deinit {
        guard !finished else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path + ".partial")
    }
}
