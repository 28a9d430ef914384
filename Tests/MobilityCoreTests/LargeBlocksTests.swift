import CMalloc
import Foundation
import MobilityCore
import Testing

/// `LargeBlocks.returnFreed`: blocks served from the heap stay resident once freed, until they
/// are handed back.
@Suite struct LargeBlocksTests {
    /// The process's resident bytes (`/proc/self/statm`, second field, in pages).
    static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try #require(Int(fields[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func touched(_ bytes: Int) -> UnsafeMutableRawPointer {
        let block = malloc(bytes)!
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        return block
    }

    @Test func freedHeapBlocksGoBackToTheSystem() throws {
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20) // so the 2 MiB blocks come from the heap
        var blocks = (0..<17).map { _ in Self.touched(2 << 20) }
        let pin = blocks.removeLast() // above the others, so freeing them does not shrink the heap's top
        blocks.forEach { free($0) }
        let held = try Self.residentBytes()
        LargeBlocks.returnFreed()
        let returned = held - (try Self.residentBytes())
        free(pin)
        #expect(returned >= 16 << 20, "\(returned) bytes returned of the 32 MiB freed")
    }
}
