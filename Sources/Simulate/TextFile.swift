import CGZip
import Foundation
import MobilityCore

/// A text file written in large chunks, plain or gzip-compressed (zlib, level 6).
final class TextFile {
    /// `cannotWrite`: "cannot write PATH (reason)".
    private static func writeError(_ path: String, _ reason: String? = nil) -> PipelineError {
        PipelineError(.cannotWrite, "cannot write \(path)" + (reason.map { " (\($0))" } ?? ""), at: .init(path: path))
    }

    private let path: String
    private var buffer: [UInt8] = []
    private var handle: FileHandle?
    private var gz: gzFile?

    init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw Self.writeError(path, "cannot create the folder \(folder): a file is in the way, or no permission")
        }
        if path.hasSuffix(".gz") {
            guard let file = gzopen(path, "wb6") else { throw Self.writeError(path) }
            gz = file
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw Self.writeError(path)
            }
            self.handle = handle
        }
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func close() throws {
        try flush()
        if let gz { guard gzclose(gz) == Z_OK else { throw Self.writeError(path) } }
        try handle?.close()
        gz = nil
        handle = nil
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if let gz {
            let written = buffer.withUnsafeBytes { gzwrite(gz, $0.baseAddress, UInt32($0.count)) }
            guard written == buffer.count else { throw Self.writeError(path) }
        } else {
            try handle?.write(contentsOf: buffer)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `text` to `path` in one go.
    static func write(_ text: String, to path: String) throws {
        let file = try TextFile(path: path)
        try file.write(text)
        try file.close()
    }
}
