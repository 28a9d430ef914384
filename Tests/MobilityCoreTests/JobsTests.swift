import Foundation
import MobilityCore
import Testing

/// `Jobs.perform`: every index once, never more at once than the width, and work split inside
/// a worker runs on that worker's thread.
@Suite struct JobsTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var seen: [Int] = [], running = 0, most = 0
        func begin(_ index: Int) {
            lock.withLock {
                seen.append(index); running += 1; most = max(most, running)
            }
        }
        func end() { lock.withLock { running -= 1 } }
    }

    @Test func everyIndexRunsOnceAndNoMoreAtOnceThanTheWidth() {
        let tally = Tally()
        Jobs.perform(200) { index in
            tally.begin(index)
            Thread.sleep(forTimeInterval: 0.001)
            tally.end()
        }
        #expect(tally.seen.sorted() == Array(0..<200))
        #expect(tally.most >= 1 && tally.most <= Jobs.width, "\(tally.most) at once, width \(Jobs.width)")
    }

    @Test func workSplitInsideAWorkerStaysOnItsThread() {
        let tally = Tally()
        Jobs.perform(4) { outer in
            Jobs.perform(10) { inner in
                tally.begin(outer * 10 + inner)
                Thread.sleep(forTimeInterval: 0.001)
                tally.end()
            }
        }
        #expect(tally.seen.sorted() == Array(0..<40))
        #expect(tally.most <= Jobs.width, "nested work took \(tally.most) threads, width \(Jobs.width)")
    }
}
