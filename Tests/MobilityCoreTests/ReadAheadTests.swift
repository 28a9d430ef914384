import MobilityCore
import Testing

/// `ReadAhead`: what the reading thread puts is taken in order on this one, and an error on
/// either side stops both.
@Suite struct ReadAheadTests {
    struct Stop: Error, Equatable { var at: Int }

    @Test(arguments: [1, 7, 4_096]) func everyItemIsTakenOnceInOrder(blockItems: Int) throws {
        var taken: [Int] = []
        let outcome = try ReadAhead.run(
            blockItems: blockItems, queuedBlocks: 2,
            read: { queue in
                for i in 0..<100_003 { try queue.put(i) }
                return "read"
            }, take: { taken.append($0) })
        #expect(outcome == "read")
        #expect(taken == Array(0..<100_003))
    }

    /// As without a second thread: the items put before the reader's error are taken, then it
    /// is thrown.
    @Test func aReadersErrorComesAfterItsItems() {
        var taken: [Int] = []
        #expect(throws: Stop(at: 10_000)) {
            try ReadAhead.run(
                blockItems: 64, queuedBlocks: 2,
                read: { queue in
                    for i in 0..<10_000 { try queue.put(i) }
                    throw Stop(at: 10_000)
                }, take: { taken.append($0) })
        }
        #expect(taken == Array(0..<10_000))
    }

    /// The taker's error is thrown, and the reader stops at its next full block instead of
    /// reading on.
    @Test func aTakersErrorStopsTheReader() {
        let put = Counter()
        var taken = 0
        #expect(throws: Stop(at: 500)) {
            try ReadAhead.run(
                blockItems: 64, queuedBlocks: 2,
                read: { queue in
                    for i in 0..<1_000_000 {
                        try queue.put(i)
                        put.value += 1
                    }
                },
                take: { item in
                    if item == 500 { throw Stop(at: 500) }
                    taken += 1
                })
        }
        #expect(taken == 500)
        // At most the queued blocks, the one being taken and the one being filled.
        #expect(put.value < 500 + 4 * 64, "\(put.value)")
    }

    /// Written by the reading thread, read after the join.
    final class Counter: @unchecked Sendable { var value = 0 }
}
