/// A text kept elsewhere (a value in the store) and read a block at a time, so a text too long
/// to hold (a leg's line of a year at 1 Hz: 650 MB) never is held whole.
public struct BlockText {
    /// The text's length in bytes.
    public let count: Int
    /// Fills the buffer with the text's bytes from the offset.
    public let read: (_ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) throws -> Void

    public init(count: Int, read: @escaping (_ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) throws -> Void) {
        (self.count, self.read) = (count, read)
    }

    /// The whole text's bytes, for a text known to be short enough to hold.
    public func bytes() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try read($0, 0) }
        return bytes
    }

    /// Calls `body` with each block of at most `blockBytes`, in order.
    public func forEachBlock(blockBytes: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        precondition(blockBytes > 0, "blocks of \(blockBytes) bytes")
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: min(blockBytes, max(count, 1)), alignment: 8)
        defer { block.deallocate() }
        var offset = 0
        while offset < count {
            let piece = UnsafeMutableRawBufferPointer(rebasing: block[0..<min(block.count, count - offset)])
            try read(piece, offset)
            try body(UnsafeBufferPointer(piece.bindMemory(to: UInt8.self)))
            offset += piece.count
        }
    }
}
