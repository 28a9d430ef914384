import CMalloc
import MobilityCore
import Testing

/// `LargeBlocks`: once set, a block of 4 MiB or more is mapped on its own even after a larger
/// one was freed (glibc's own rule would have raised the threshold past it and served it from
/// the heap, where it stays resident once freed).
@Suite struct LargeBlocksTests {
    /// Bytes the allocator holds in blocks mapped on their own (`mallinfo2().hblkhd`).
    static var mappedBytes: Int { Int(mallinfo2().hblkhd) }

    static func touched(_ bytes: Int) -> UnsafeMutableRawPointer {
        let block = malloc(bytes)!
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        return block
    }

    @Test func aBlockAfterALargerOneFreedIsStillMappedOnItsOwn() {
        LargeBlocks.returnToTheSystem()
        free(Self.touched(24 << 20)) // what raises glibc's own threshold to 24 MiB
        let before = Self.mappedBytes
        let block = Self.touched(8 << 20)
        let mapped = Self.mappedBytes - before
        free(block)
        #expect(mapped >= 8 << 20, "the 8 MiB block is mapped on its own (\(mapped) bytes more mapped)")
    }
}
