import MobilityCore
import Testing

/// Quantiles of values counted by distinct value (`Quantile.Tally`) are those of the sorted
/// array of them all, to the bit, whether the values stay few or pass the limit midway.
@Suite struct QuantileTallyTests {
    func expectSame(_ values: [Double], distinctLimit: Int, _ what: String) {
        var tally = Quantile.Tally(distinctLimit: distinctLimit)
        for value in values { tally.add(value) }
        let sorted = values.sorted()
        for q in [0, 0.1, 0.25, 0.5, 0.85, 0.9, 1] {
            let found = tally.quantile(q), expected = Quantile.sorted(sorted, q)
            #expect(found?.bitPattern == expected.bitPattern, "\(what), q \(q): \(String(describing: found)) against \(expected)")
        }
        #expect(tally.count == values.count)
    }

    @Test func countedQuantilesAreTheSortedArraysQuantiles() {
        var generator = SeededGenerator(seed: 7)
        // A 1 Hz logger with a few 2 s and 5 s steps, in the order a track gives them.
        let regular = (0..<10_000).map { _ in [1.0, 1, 1, 1, 2, 5, 1, 0.999, 1.001].randomElement(using: &generator)! }
        // A phone's jittered intervals: nearly every value distinct.
        let jittered = (0..<5_000).map { _ in Double.random(in: 0.8...1.3, using: &generator) }
        for limit in [1, 3, 16, 4_096] {
            expectSame(regular, distinctLimit: limit, "regular, limit \(limit)")
            expectSame(jittered, distinctLimit: limit, "jittered, limit \(limit)")
            expectSame(
                Array(regular.prefix(50)) + Array(jittered.prefix(40)), distinctLimit: limit, "passing the limit midway, limit \(limit)")
            expectSame([3.5], distinctLimit: limit, "one value")
            expectSame([2, 0, 2], distinctLimit: limit, "a zero")
        }
        #expect(Quantile.Tally().quantile(0.5) == nil)
    }
}
