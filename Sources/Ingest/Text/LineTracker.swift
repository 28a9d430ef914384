import Foundation

/// Counts lines incrementally as the scanner moves forward.
struct LineTracker {
    private(set) var line = 1
    /// Absolute offset of the first byte of the current line.
    private(set) var lineStart = 0
    private var counted = 0

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
