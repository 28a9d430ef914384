import Foundation
import Features

/// Temporal smoothing of per-window mode probabilities within each trace, because per-window
/// labels flicker while people change mode a few times a day.
///
/// 1. Viterbi over a hidden Markov chain whose states are the classes: emissions are the
///    classifier's probabilities, staying costs nothing and switching costs `switchPenalty`
///    nats, so a switch needs that much evidence.
/// 2. Segments shorter than `minimumSegmentSeconds` are merged into the neighbour whose class
///    the segment's windows find more probable.
/// 3. A stop survives: a run of windows whose own most probable class is still, lasting
///    `minimumStopSeconds` (15 s) or more, stays still whatever steps 1 and 2 made of it (a
///    vehicle standing at a station or a light for 15 s is still for that time; without this
///    a metro's 19–36 s station stops vanished into the ride).
///
/// A chain breaks where consecutive windows are more than `maxChainGapSeconds` apart (a
/// recording pause), and in a new trace.
///
/// - Complexity: O(w·k²) for w windows and k classes.
public struct ModeSmoother: Codable, Hashable, Sendable {
    /// Cost of a mode switch, nats. Default 6: about 400:1 evidence before the path switches.
    public var switchPenalty = 6.0
    /// Shortest kept segment, seconds. Default 30 s: shorter legs are flicker.
    public var minimumSegmentSeconds = 30.0
    /// Windows farther apart than this start a new chain, seconds. Default 60 s.
    public var maxChainGapSeconds = 60.0
    /// Shortest stop kept still through smoothing, seconds. Default 15 s.
    public var minimumStopSeconds = 15.0

    public init(
        switchPenalty: Double = 6, minimumSegmentSeconds: Double = 30, maxChainGapSeconds: Double = 60, minimumStopSeconds: Double = 15
    ) {
        self.switchPenalty = switchPenalty
        self.minimumSegmentSeconds = minimumSegmentSeconds
        self.maxChainGapSeconds = maxChainGapSeconds
        self.minimumStopSeconds = minimumStopSeconds
    }

    enum CodingKeys: String, CodingKey { case switchPenalty, minimumSegmentSeconds, maxChainGapSeconds, minimumStopSeconds }

    /// Models written before `minimumStopSeconds` existed read with its default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switchPenalty = try container.decode(Double.self, forKey: .switchPenalty)
        minimumSegmentSeconds = try container.decode(Double.self, forKey: .minimumSegmentSeconds)
        maxChainGapSeconds = try container.decode(Double.self, forKey: .maxChainGapSeconds)
        minimumStopSeconds = try container.decodeIfPresent(Double.self, forKey: .minimumStopSeconds) ?? 15
    }

    /// The smoothed class index of every window (in table order); `stillClass`: the index of
    /// still, whose runs of `minimumStopSeconds` or more are kept.
    ///
    /// The paths are held as one byte a window (a class index is below 256): as `Int`s, a
    /// device's 640,000 windows took 5 MB per path, and three were alive at once.
    public func smooth(windows: some WindowTimeline, probabilities: [Double], classes: Int, stillClass: Int? = nil) -> [Int] {
        precondition(classes < 256, "a class index must fit a byte")
        var result = [Int](repeating: 0, count: windows.count)
        for chain in chains(windows) {
            var path = viterbi(chain, probabilities: probabilities, classes: classes)
            mergeShortSegments(chain, path: &path, windows: windows, probabilities: probabilities, classes: classes)
            if let stillClass {
                keepStops(chain, path: &path, windows: windows, probabilities: probabilities, classes: classes, still: UInt8(stillClass))
            }
            for (position, index) in chain.enumerated() { result[index] = Int(path[position]) }
        }
        return result
    }

    /// Sets `path` to still over every run of windows whose most probable class is still and
    /// that lasts `minimumStopSeconds` or more.
    private func keepStops(
        _ chain: [Int], path: inout [UInt8], windows: some WindowTimeline, probabilities: [Double], classes k: Int, still: UInt8
    ) {
        let raw = chain.map { UInt8(Self.mostProbable(probabilities[($0 * k)..<(($0 + 1) * k)])) }
        keepStops(&path, raw: raw, chain.indices, still: still) { run in
            windows.start(at: chain[run.lowerBound]).seconds(until: windows.end(at: chain[run.upperBound - 1]))
        }
    }

    /// Sets `path` to `still` over every run of `raw` in `range` that is `still` and lasts
    /// `minimumStopSeconds` or more (`seconds`: a run's); shared by `smooth` and `Stream`.
    func keepStops(_ path: inout [UInt8], raw: [UInt8], _ range: Range<Int>, still: UInt8, seconds: (Range<Int>) -> Double) {
        for run in Self.runs(of: raw, in: range) where raw[run.lowerBound] == still && seconds(run) >= minimumStopSeconds {
            for position in run { path[position] = still }
        }
    }

    /// The runs of equal values of `values` in `range`, in order (none in an empty range):
    /// what `keepStops` and `mergeShortRuns` scan.
    static func runs(of values: [UInt8], in range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        var runs: [Range<Int>] = []
        var start = range.lowerBound
        for index in (range.lowerBound + 1)...range.upperBound where index == range.upperBound || values[index] != values[start] {
            runs.append(start..<index)
            start = index
        }
        return runs
    }

    /// The class with the highest probability (the first on a tie).
    static func mostProbable(_ probabilities: ArraySlice<Double>) -> Int {
        let p = probabilities.startIndex
        return (0..<probabilities.count).max { probabilities[p + $0] < probabilities[p + $1] }!
    }

    static let logFloor = 1e-12

    /// The Viterbi scores at a chain's first window.
    static func firstScores(_ probabilities: ArraySlice<Double>) -> [Double] {
        probabilities.map { log(max($0, logFloor)) }
    }

    /// One Viterbi step: `score` moved to the next window (of `probabilities`), each class's
    /// best predecessor appended to `back`; shared by `smooth` and `Stream`.
    func step(_ score: inout [Double], _ probabilities: ArraySlice<Double>, back: inout [UInt8]) {
        let best = score.indices.max { score[$0] < score[$1] }!
        var next = score
        let p = probabilities.startIndex
        for c in score.indices {
            let switched = score[best] - switchPenalty
            let from = best != c && switched > score[c] ? best : c
            back.append(UInt8(from))
            next[c] = (from == c ? score[c] : switched) + log(max(probabilities[p + c], Self.logFloor))
        }
        score = next
    }

    /// Window indices grouped by trace and contiguous time, each in time order.
    ///
    /// Windows already in that order (a device's track) are not sorted, and one chain is the
    /// order itself: a chain grown window by window held 8 MB for a device's 640,000 windows,
    /// beside the 5 MB order. (Swift's sort is stable, so skipping it on sorted input changes
    /// nothing.)
    func chains(_ windows: some WindowTimeline) -> [[Int]] {
        let precedes = { (a: Int, b: Int) in
            (windows.trace(at: a), windows.start(at: a).secondsSince1970) < (windows.trace(at: b), windows.start(at: b).secondsSince1970)
        }
        var order = Array(0..<windows.count)
        if order.indices.dropFirst().contains(where: { precedes(order[$0], order[$0 - 1]) }) { order.sort(by: precedes) }
        var starts: [Int] = []
        for position in order.indices {
            if position == 0 { starts.append(0); continue }
            let (last, index) = (order[position - 1], order[position])
            if windows.trace(at: last) != windows.trace(at: index)
                || windows.start(at: last).seconds(until: windows.start(at: index)) > maxChainGapSeconds
            {
                starts.append(position)
            }
        }
        if starts.count == 1 { return [order] }
        return starts.indices.map { chain in Array(order[starts[chain]..<(chain + 1 < starts.count ? starts[chain + 1] : order.count)]) }
    }

    private func viterbi(_ chain: [Int], probabilities: [Double], classes k: Int) -> [UInt8] {
        let row = { (window: Int) in probabilities[(window * k)..<((window + 1) * k)] }
        var score = Self.firstScores(row(chain[0]))
        // Each window's best predecessor per class, in one flat array of bytes (a class index
        // is below 256): a row array per window cost an allocation each, 41 MB for a device's
        // 640,000 windows.
        var back = [UInt8]()
        back.reserveCapacity(chain.count * k)
        back += repeatElement(0, count: k)
        for position in chain.indices.dropFirst() { step(&score, row(chain[position]), back: &back) }
        var state = score.indices.max { score[$0] < score[$1] }!
        var path = [UInt8](repeating: UInt8(state), count: chain.count)
        for position in stride(from: chain.count - 1, to: 0, by: -1) {
            state = Int(back[position * k + state])
            path[position - 1] = UInt8(state)
        }
        return path
    }

    private func mergeShortSegments(
        _ chain: [Int], path: inout [UInt8], windows: some WindowTimeline, probabilities: [Double], classes k: Int
    ) {
        mergeShortRuns(
            &path, 0..<chain.count, left: nil, right: nil,
            seconds: { windows.start(at: chain[$0.lowerBound]).seconds(until: windows.end(at: chain[$0.upperBound - 1])) },
            evidence: { run, c in run.reduce(0.0) { $0 + log(max(probabilities[chain[$1] * k + Int(c)], Self.logFloor)) } })
    }

    /// Merges the runs of `path` in `region` shorter than `minimumSegmentSeconds`, the shortest
    /// first (the earliest on a tie), each into the neighbour whose class its windows find more
    /// probable (`evidence`: a run's summed log-probability of a class; the earlier neighbour on
    /// a tie), until none is left or the region is one run with no neighbour. `left` and `right`:
    /// the classes of long segments beside the region, never merged away (nil: the chain ends
    /// there); a run with one of their classes at an edge is part of that segment. Over a whole
    /// chain (no neighbours) this is `smooth`'s step 2; `Stream` runs it region by region.
    func mergeShortRuns(
        _ path: inout [UInt8], _ region: Range<Int>, left: UInt8?, right: UInt8?, seconds: (Range<Int>) -> Double,
        evidence: (Range<Int>, UInt8) -> Double
    ) {
        var region = region
        while true {
            while !region.isEmpty, let left, path[region.lowerBound] == left { region = (region.lowerBound + 1)..<region.upperBound }
            while !region.isEmpty, let right, path[region.upperBound - 1] == right { region = region.lowerBound..<(region.upperBound - 1) }
            guard !region.isEmpty else { return }
            let runs = Self.runs(of: path, in: region)
            guard
                let shortest = runs.indices.filter({ seconds(runs[$0]) < minimumSegmentSeconds })
                    .min(by: { seconds(runs[$0]) < seconds(runs[$1]) })
            else { return }
            let before = shortest > 0 ? path[runs[shortest - 1].lowerBound] : left
            let after = shortest + 1 < runs.count ? path[runs[shortest + 1].lowerBound] : right
            let neighbours = [before, after].compactMap { $0 }
            guard !neighbours.isEmpty else { return } // the chain's only segment
            let target = neighbours.max { evidence(runs[shortest], $0) < evidence(runs[shortest], $1) }!
            for index in runs[shortest] { path[index] = target }
        }
    }
}
