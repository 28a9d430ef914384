import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Texts written to an unlinked temporary file as they are made, and read back one at a time.
/// A run's legs' lines (GeoJSON, about 21 bytes a fix on the move) are made device by device but
/// stored only once every device is done; held in memory, they grew with the whole data set (a
/// city's month at 1 Hz: gigabytes) where everything else of the trip stage is bounded by one
/// device (`TrackPieceAnalysis`). Written here, they take disk, and a line is in memory only
/// while it is stored.
///
/// Devices are analysed on several threads at once, each with its own `Writer`: a writer holds
/// at most `blockBytes` before it writes them to a range of the file reserved for it alone, so a
/// text is a list of ranges (one, unless another writer came between its blocks). The file is
/// unlinked as soon as it is made: it is gone when the spool is, or when the process ends,
/// however it ends.
public final class TextSpool: @unchecked Sendable {
    /// A text in the spool: its byte ranges in the file, in order.
    public struct Text: Sendable, Hashable {
        public fileprivate(set) var ranges: [Range<Int64>] = []
        /// Its length in bytes.
        public var count: Int { ranges.reduce(0) { $0 + Int($1.count) } }
    }

    /// Where the spool's file was made.
    public let directory: String
    private let descriptor: Int32
    private let lock = NSLock()
    /// The file's length so far: the next block goes there (under `lock`).
    private var end: Int64 = 0
    /// The first write that failed (under `lock`), thrown by `check()` and by every read.
    private var failure: PipelineError?
    /// Bytes a writer holds before it writes them: 1 MiB.
    public static let blockBytes = 1 << 20

    /// A spool whose file is made in `directory` (beside the store: the system's temporary
    /// folder may be a RAM disk) and unlinked at once.
    public init(directory: String) throws {
        self.directory = directory
        descriptor = try UnlinkedFile.make(in: directory, prefix: ".pipeline-spool", for: "the legs' lines")
    }

    deinit { close(descriptor) }

    /// Throws the first write that failed (a full disk), naming the folder.
    public func check() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// One thread's texts, written a block at a time: `write` the text's pieces (it is a
    /// `TextOutputStream`), then `end()` gives the text.
    public struct Writer: TextOutputStream {
        public let spool: TextSpool
        private var buffer: [UInt8] = []
        private var ranges: [Range<Int64>] = []

        public init(_ spool: TextSpool) { self.spool = spool }

        public mutating func write(_ string: String) {
            if buffer.capacity == 0 { buffer.reserveCapacity(TextSpool.blockBytes + 4096) }
            buffer.append(contentsOf: string.utf8)
            if buffer.count >= TextSpool.blockBytes { flush() }
        }

        /// The text written since the last `end()`, now in the file.
        public mutating func end() -> Text {
            flush()
            defer { ranges = [] }
            return Text(ranges: ranges)
        }

        private mutating func flush() {
            guard !buffer.isEmpty else { return }
            let offset = spool.append(buffer)
            let range = offset..<offset + Int64(buffer.count)
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes `bytes` to a range reserved for them, returning its offset.
    private func append(_ bytes: [UInt8]) -> Int64 {
        let offset = lock.withLock {
            defer { end += Int64(bytes.count) }
            return end
        }
        var written = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let result = pwrite(descriptor, raw.baseAddress! + written, raw.count - written, off_t(offset) + off_t(written))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    let reason = String(cString: strerror(errno))
                    lock.withLock {
                        if failure == nil {
                            failure = PipelineError(
                                .cannotWrite,
                                "cannot write the legs' lines to a temporary file in \(directory): \(reason); free space there")
                        }
                    }
                    return
                }
                written += result
            }
        }
        return offset
    }

    /// `text` as a `BlockText`, read from the file a block at a time.
    public func blockText(_ text: Text) -> BlockText {
        BlockText(count: text.count) { [self] buffer, offset in
            try check()
            var skipped = 0, filled = 0
            for range in text.ranges where filled < buffer.count {
                let length = Int(range.count)
                defer { skipped += length }
                guard offset + filled < skipped + length else { continue }
                let from = offset + filled - skipped
                let take = min(length - from, buffer.count - filled)
                try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + take]), at: range.lowerBound + Int64(from))
                filled += take
            }
            guard filled == buffer.count else {
                throw PipelineError(.cannotWrite, "the legs' lines' temporary file in \(directory) ended early")
            }
        }
    }

    /// `text` whole, as a string.
    public func string(_ text: Text) throws -> String {
        let source = blockText(text)
        var failure: Error?
        let string = String(unsafeUninitializedCapacity: source.count) { buffer in
            do {
                try source.read(UnsafeMutableRawBufferPointer(buffer), 0)
                return buffer.count
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return string
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let reason = result == 0 ? "it ended early" : String(cString: strerror(errno))
                throw PipelineError(.cannotWrite, "cannot read the legs' lines' temporary file in \(directory): \(reason)")
            }
            done += result
        }
    }
}

/// A text held in memory, or in a `TextSpool` until it is needed.
public enum SpooledText: Sendable {
    case inMemory(String)
    case spooled(TextSpool, TextSpool.Text)

    /// The whole text.
    public func string() throws -> String {
        switch self {
        case let .inMemory(text): text
        case let .spooled(spool, text): try spool.string(text)
        }
    }

    /// The text's length in bytes (of UTF-8), without reading it.
    public var byteCount: Int {
        switch self {
        case let .inMemory(text): text.utf8.count
        case let .spooled(_, text): text.count
        }
    }

    /// Calls `body` with the text's bytes a block of at most `blockBytes` at a time, in order
    /// (a block may end inside a character); a text in memory is one block.
    public func forEachBlock(blockBytes: Int = TextSpool.blockBytes, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        switch self {
        case var .inMemory(text): try text.withUTF8(body)
        case let .spooled(spool, text): try spool.blockText(text).forEachBlock(blockBytes: blockBytes, body)
        }
    }

    /// The text written to `output` a block at a time, never whole in memory.
    public func write(to output: inout some TextOutputStream) throws {
        switch self {
        case let .inMemory(text): output.write(text)
        case let .spooled(spool, text):
            // A block may end inside a character: its first bytes wait for the next block.
            var carried: [UInt8] = []
            try spool.blockText(text).forEachBlock { block in
                let bytes = carried + block
                let whole = Self.wholeCharacters(bytes)
                output.write(String(decoding: bytes[..<whole], as: UTF8.self))
                carried = Array(bytes[whole...])
            }
            if !carried.isEmpty { output.write(String(decoding: carried, as: UTF8.self)) }
        }
    }

    /// How many of `bytes` end at a character's end: all, but for the first bytes of a UTF-8
    /// sequence cut off at the end.
    package static func wholeCharacters(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        while start > max(0, bytes.count - 4) {
            start -= 1
            let byte = bytes[start]
            guard byte & 0xC0 == 0x80 else {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return start + length <= bytes.count ? bytes.count : start
            }
        }
        return bytes.count
    }
}
