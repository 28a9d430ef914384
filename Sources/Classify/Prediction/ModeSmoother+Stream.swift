import Foundation
import Features
import MobilityCore

extension ModeSmoother {
    /// The smoothing of windows handed over one at a time, in time order, each with its class
    /// probabilities: the same classes as `smooth` over all of them, while holding the
    /// probabilities only of the windows whose class is not yet settled (a device's GPS windows
    /// held 20 MB of them at 640,000 windows, the largest thing beside its fixes).
    ///
    /// Why each step can settle early and still give `smooth`'s classes to the bit:
    /// 1. Viterbi: once the best paths into every class at the newest window share their states
    ///    up to some window, the final path does too, whatever comes after (the survivors have
    ///    merged). Those states are fixed, and their back pointers let go.
    /// 2. Short segments: a segment of `minimumSegmentSeconds` or more is never merged away (a
    ///    merge only takes the shortest of the shorter ones, and a segment only grows; its
    ///    seconds, from its first window's start to its last one's end, grow with it because the
    ///    windows' ends come in order, as they do for windows of one length), so it
    ///    parts the chain into regions that merge independently, each between two such segments.
    ///    Merging in one region reads only its own windows and its two neighbours' classes, and
    ///    picks its segments in the same order as over the whole chain (the shortest, the earliest
    ///    on a tie). A region is merged once the long segment after it is fixed.
    /// 3. Stops: a run of windows whose own most probable class is still, read from each
    ///    window's most probable class (a byte a window) at the end.
    public struct Stream {
        let smoother: ModeSmoother
        let classes: Int
        let still: UInt8?
        /// Each window's most probable class (the first on a tie).
        public private(set) var raw: [UInt8] = []
        /// Each window's Viterbi state once fixed, then its smoothed class once merged.
        private var path: [UInt8] = []
        /// The first window of each chain.
        private var chainStarts: [Int] = []
        private var lastStart: Timestamp?, lastEnd: Timestamp?
        private var lastTrace: String?

        // Viterbi over the current chain: the best score into each class, and the back pointers
        // of the windows from `fixedEnd` on (a row of `classes` bytes each).
        private var score: [Double] = []
        private var back: [UInt8] = []
        /// Windows before this have their Viterbi state in `path`.
        private var fixedEnd = 0
        private var nextCheck = 0

        // Merging: the windows from `regionStart` on are not merged yet, and their probabilities
        // and times are held (the first held is `regionStart`'s).
        private var regionStart = 0
        private var leftBarrier: UInt8?
        /// Where the last look for a long segment stopped: the runs before it are short and
        /// ended, the one from it may still grow.
        private var scanFrom = 0
        private var heldProbabilities: [Double] = []
        private var heldStarts: [Timestamp] = []
        private var heldEnds: [Timestamp] = []

        /// `classes` columns of probabilities per window; `stillClass` as for `smooth`.
        public init(_ smoother: ModeSmoother, classes: Int, stillClass: Int? = nil) {
            precondition(classes < 256, "a class index must fit a byte")
            (self.smoother, self.classes, still) = (smoother, classes, stillClass.map(UInt8.init))
        }

        /// How many windows were handed over.
        public var count: Int { raw.count }
        /// How many windows' probabilities are held: those not settled yet.
        var heldWindows: Int { heldStarts.count }

        /// The next window: its trace, times and class probabilities (`classes` of them). Windows
        /// come in the order `smooth` would sort them to (a trace's together, by start), and
        /// within a trace no window ends before the one before it.
        public mutating func add(trace: String, start: Timestamp, end: Timestamp, probabilities: ArraySlice<Double>) {
            precondition(probabilities.count == classes, "a window has one probability per class")
            let k = classes, index = raw.count
            let newChain =
                lastTrace != trace || lastStart.map { $0.seconds(until: start) > smoother.maxChainGapSeconds } ?? true
            if let lastStart, let lastEnd, lastTrace == trace {
                precondition(lastStart <= start && lastEnd <= end, "windows come in time order, their ends too")
            }
            if newChain, index > 0 { finishChain() }
            raw.append(UInt8(ModeSmoother.mostProbable(probabilities)))
            path.append(0)
            if newChain {
                chainStarts.append(index)
                (fixedEnd, regionStart, scanFrom, leftBarrier, nextCheck) = (index, index, index, nil, index + 64)
                back.removeAll(keepingCapacity: true)
                score = ModeSmoother.firstScores(probabilities)
                back += repeatElement(0, count: k)
            } else {
                smoother.step(&score, probabilities, back: &back)
            }
            (lastTrace, lastStart, lastEnd) = (trace, start, end)
            heldProbabilities += probabilities
            heldStarts.append(start)
            heldEnds.append(end)
            if index + 1 >= nextCheck { settle() }
        }

        /// Every window's smoothed class, in the order handed over. `windows`: the same windows
        /// (their times, for the stops).
        public mutating func finish(_ windows: some WindowTimeline) -> [UInt8] {
            precondition(windows.count == raw.count, "the windows handed over")
            if !raw.isEmpty { finishChain() }
            if let still {
                for (number, first) in chainStarts.enumerated() {
                    let end = number + 1 < chainStarts.count ? chainStarts[number + 1] : raw.count
                    smoother.keepStops(&path, raw: raw, first..<end, still: still) {
                        windows.start(at: $0.lowerBound).seconds(until: windows.end(at: $0.upperBound - 1))
                    }
                }
            }
            return path
        }

        /// Fixes the Viterbi states the survivors share, and merges what that settles.
        private mutating func settle() {
            let k = classes, newest = raw.count - 1
            var states = (0..<k).map(UInt8.init)
            var merged: Int?
            var window = newest
            while window > fixedEnd {
                let row = (window - fixedEnd) * k
                for s in 0..<k { states[s] = back[row + Int(states[s])] }
                window -= 1
                if states.allSatisfy({ $0 == states[0] }) {
                    merged = window
                    break
                }
            }
            let pending = newest - fixedEnd + 1
            guard let merged else {
                nextCheck = newest + 1 + pending // twice as far: a long wait costs its length once more
                return
            }
            trace(from: merged, state: states[0])
            nextCheck = newest + 1 + 64
            mergeSettled(chainEnd: nil)
        }

        /// Writes the Viterbi path from `window` (in `state`) back to `fixedEnd`, and lets go of
        /// the back pointers up to `window`.
        private mutating func trace(from window: Int, state: UInt8) {
            let k = classes
            var state = state
            path[window] = state
            var position = window
            while position > fixedEnd {
                state = back[(position - fixedEnd) * k + Int(state)]
                position -= 1
                path[position] = state
            }
            back.removeFirst((window + 1 - fixedEnd) * k)
            fixedEnd = window + 1
        }

        /// The chain's last window is in: its path is the best final state's, then every region left is merged.
        private mutating func finishChain() {
            let newest = raw.count - 1
            if newest >= fixedEnd {
                let state = score.indices.max { score[$0] < score[$1] }!
                trace(from: newest, state: UInt8(state))
            }
            mergeSettled(chainEnd: newest + 1)
            heldProbabilities.removeAll(keepingCapacity: true)
            heldStarts.removeAll(keepingCapacity: true)
            heldEnds.removeAll(keepingCapacity: true)
        }

        /// The settled windows' runs, from `regionStart` to `fixedEnd`: each region ended by a
        /// segment of `minimumSegmentSeconds` or more is merged; with `chainEnd`, the last one too.
        private mutating func mergeSettled(chainEnd: Int?) {
            var start = regionStart
            // A run that goes on from the last long segment is part of it.
            while start < fixedEnd, let left = leftBarrier, path[start] == left { start += 1 }
            var runStart = max(start, scanFrom), lastRun = runStart
            while runStart < fixedEnd {
                lastRun = runStart
                var runEnd = runStart + 1
                while runEnd < fixedEnd, path[runEnd] == path[runStart] { runEnd += 1 }
                if duration(runStart..<runEnd) >= smoother.minimumSegmentSeconds {
                    mergeRegion(start..<runStart, left: leftBarrier, right: path[runStart])
                    leftBarrier = path[runStart]
                    start = runEnd
                }
                runStart = runEnd
            }
            scanFrom = max(start, lastRun)
            if chainEnd != nil {
                mergeRegion(start..<fixedEnd, left: leftBarrier, right: nil)
                start = fixedEnd
            }
            let done = start - regionStart
            heldProbabilities.removeFirst(done * classes)
            heldStarts.removeFirst(done)
            heldEnds.removeFirst(done)
            regionStart = start
        }

        /// Seconds from the first window's start to the last one's end.
        private func duration(_ windows: Range<Int>) -> Double {
            heldStarts[windows.lowerBound - regionStart].seconds(until: heldEnds[windows.upperBound - 1 - regionStart])
        }

        /// `ModeSmoother.mergeShortRuns` over one region's windows, from what is held of them.
        private mutating func mergeRegion(_ region: Range<Int>, left: UInt8?, right: UInt8?) {
            let k = classes, first = regionStart, held = heldProbabilities, starts = heldStarts, ends = heldEnds
            smoother.mergeShortRuns(
                &path, region, left: left, right: right,
                seconds: { starts[$0.lowerBound - first].seconds(until: ends[$0.upperBound - 1 - first]) },
                evidence: { run, c in run.reduce(0.0) { $0 + log(max(held[($1 - first) * k + Int(c)], ModeSmoother.logFloor)) } })
        }
    }
}
