import Foundation

/// Counts lines incrementally as the scanner moves forward.
struct LineTracker {
    private(set) var line = 1
    /// Absolute offset of the first byte of the current line.
    private(set) var lineStart = 0
    private var counted = 0

    init() {}

    /// Lines counted from 1 at `offset` (a block of a file read on its own).
    init(at offset: Int) {
        (lineStart, counted) = (offset, offset)
    }

    /// Jumps to `offset` over `newlines` line ends, the last of them starting a line at
    /// `lastLineStart` (counted elsewhere: a block read on its own).
    mutating func skip(newlines: Int, lastLineStart: Int?, to offset: Int) {
        line += newlines
        if let lastLineStart { lineStart = lastLineStart }
        counted = offset
    }

    mutating func advance(_ buffer: UnsafeMutablePointer<UInt8>, to index: Int, bufferOffset: Int) {
        let target = bufferOffset + index
        guard target > counted else { return }
        var cursor = counted - bufferOffset
        let stop = index
        while cursor < stop, let found = memchr(buffer + cursor, 0x0A, stop - cursor) {
            cursor = UnsafeMutableRawPointer(found) - UnsafeMutableRawPointer(buffer) + 1
            line += 1
            lineStart = bufferOffset + cursor
        }
        counted = target
    }
}
