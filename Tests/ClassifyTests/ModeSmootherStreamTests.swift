@testable import Classify
import Features
import Foundation
import MobilityCore
import Testing

/// `ModeSmoother.Stream` must give `smooth`'s classes to the bit, whatever the windows hold:
/// random modes in runs from one window to hundreds (flicker, short segments next to each
/// other, long rides), probabilities from sure to tied, gaps that break the chain, and
/// smoothers from no switch penalty to a high one.
@Suite struct ModeSmootherStreamTests {
    /// Windows every 2.5 s, all of one length (5, 10 or 30 s, as the GPS windows are of one),
    /// with now and then a gap over a minute (a new chain); each favouring its run's mode, some
    /// tied, some all on one class.
    static func windows(seed: UInt64, count: Int, classes k: Int) -> (windows: [WindowInfo], probabilities: [Double]) {
        var g = SeededGenerator(seed: seed)
        let length = [5.0, 10, 30][Int(seed / 3 % 3)]
        var windows: [WindowInfo] = [], probabilities: [Double] = []
        var time = 1_700_000_000.0, mode = 0, left = 0
        let longest = [3, 12, 40, 400][Int.random(in: 0..<4, using: &g)]
        for _ in 0..<count {
            if left == 0 {
                mode = Int.random(in: 0..<k, using: &g)
                left = Int.random(in: 1...longest, using: &g)
            }
            left -= 1
            let gap = Double.random(in: 0..<1, using: &g)
            time += gap < 0.005 ? Double.random(in: 61...900, using: &g) : 2.5
            let start = Timestamp(secondsSince1970: time)
            windows.append(WindowInfo(trace: "device", device: "device", start: start, end: start.adding(seconds: length)))
            let shape = Double.random(in: 0..<1, using: &g)
            var row: [Double]
            if shape < 0.05 {
                row = [Double](repeating: 1 / Double(k), count: k) // a tie between every class
            } else if shape < 0.1 {
                row = [Double](repeating: 0, count: k) // sure: the others at the log floor
                row[mode] = 1
            } else {
                row = (0..<k).map { _ in Double.random(in: 0.01..<1, using: &g) }
                row[mode] += Double.random(in: 0..<2, using: &g)
            }
            let total = row.reduce(0, +)
            probabilities += row.map { $0 / total }
        }
        return (windows, probabilities)
    }

    @Test func streamGivesSmoothsClassesBitForBit() {
        let smoothers = [
            ModeSmoother(), ModeSmoother(switchPenalty: 0), ModeSmoother(switchPenalty: 2, minimumSegmentSeconds: 90),
            ModeSmoother(switchPenalty: 12, minimumSegmentSeconds: 10, maxChainGapSeconds: 120, minimumStopSeconds: 60)
        ]
        var windowsCompared = 0, changedBySmoothing = 0, chains = 0
        for seed in 0..<160 as Range<UInt64> {
            let k = [2, 4, 6][Int(seed % 3)]
            let (windows, probabilities) = Self.windows(seed: seed, count: Int(seed % 7) * 700 + 1, classes: k)
            let smoother = smoothers[Int(seed % 4)]
            let still = seed % 5 == 0 ? nil : 0
            let expected = smoother.smooth(windows: windows, probabilities: probabilities, classes: k, stillClass: still)
            var stream = ModeSmoother.Stream(smoother, classes: k, stillClass: still)
            for (index, window) in windows.enumerated() {
                stream.add(
                    trace: window.trace, start: window.start, end: window.end, probabilities: probabilities[(index * k)..<((index + 1) * k)]
                )
            }
            let raw = stream.raw
            let smoothed = stream.finish(windows).map(Int.init)
            let same = smoothed == expected
            #expect(
                same,
                "seed \(seed): first difference at \(smoothed.indices.first { smoothed[$0] != expected[$0] } ?? -1) of \(windows.count)")
            let argmax = (0..<windows.count).map { i in (0..<k).max { probabilities[i * k + $0] < probabilities[i * k + $1] }! }
            let sameRaw = raw.map(Int.init) == argmax
            #expect(sameRaw, "seed \(seed)")
            windowsCompared += windows.count
            changedBySmoothing += zip(expected, argmax).filter { $0 != $1 }.count
            chains += smoother.chains(windows).count
        }
        // The cases compared are not trivial: smoothing changed many windows, over many chains.
        #expect(
            windowsCompared > 300_000 && changedBySmoothing > windowsCompared / 20 && chains > 500,
            "\(windowsCompared), \(changedBySmoothing), \(chains)")
    }

    @Test func aLongChainIsSettledAsItComes() {
        // One mode switch an hour for a day: the survivors merge within a few windows of each
        // switch, so the probabilities held stay few while every window is smoothed.
        let k = 3
        var stream = ModeSmoother.Stream(ModeSmoother(), classes: k, stillClass: 0)
        var windows: [WindowInfo] = []
        var mostHeld = 0
        for index in 0..<34_560 {
            let start = Timestamp(secondsSince1970: Double(index) * 2.5)
            let window = WindowInfo(trace: "t", device: "d", start: start, end: start.adding(seconds: 5))
            windows.append(window)
            let mode = (index / 1_440) % k
            stream.add(trace: "t", start: start, end: window.end, probabilities: ArraySlice((0..<k).map { $0 == mode ? 0.8 : 0.1 }))
            mostHeld = max(mostHeld, stream.heldWindows)
        }
        let smoothed = stream.finish(windows)
        #expect(smoothed.enumerated().allSatisfy { Int($1) == ($0 / 1_440) % k })
        #expect(mostHeld < 1_000, "\(mostHeld) windows held at once")
    }

    @Test func runsAreScannedInTheirRangeAndAnEmptyRangeHasNone() {
        let values: [UInt8] = [2, 2, 0, 0, 0, 1, 2, 2]
        #expect(ModeSmoother.runs(of: values, in: 0..<8) == [0..<2, 2..<5, 5..<6, 6..<8])
        #expect(ModeSmoother.runs(of: values, in: 3..<7) == [3..<5, 5..<6, 6..<7])
        #expect(ModeSmoother.runs(of: values, in: 4..<4).isEmpty)
        // Still (0) kept over its run of 3 windows of 60 s, and nothing done over an empty range.
        let smoother = ModeSmoother()
        var path: [UInt8] = [2, 2, 1, 1, 1, 1, 2, 2]
        smoother.keepStops(&path, raw: values, 4..<4, still: 0) { _ in .infinity }
        #expect(path == [2, 2, 1, 1, 1, 1, 2, 2])
        smoother.keepStops(&path, raw: values, 0..<8, still: 0) { Double($0.count) * 60 }
        #expect(path == [2, 2, 0, 0, 0, 1, 2, 2])
    }
}
