/// How regularly a sensor stream was sampled, measured as its samples arrive (memory grows
/// with the number of distinct intervals, not with the samples): the rate from the median
/// interval, gaps, runs of repeated values and the real rate they imply, and clock jumps.
///
/// Count over span hides all of this: a stream with one long pause reads as a slow stream,
/// and a 50 Hz sensor logged at 200 Hz (each value written 4 times) reads as 200 Hz.
public struct StreamTiming: Sendable {
    /// Intervals in units of 0.1 ms → (count, sum of seconds): the median interval to 0.1 ms.
    private var intervals: [Int: Int] = [:]
    private var intervalSums: [Int: Double] = [:]
    /// The current run of equal interval keys, added to the tables when the key changes (a
    /// steady logger writes one key for long stretches, so this runs per sample without hashing).
    private var pendingKey = 0, pendingCount = 0, pendingSum = 0.0
    /// Lengths of runs of identical consecutive values → count of runs.
    private var runLengths: [Int: Int] = [:]
    private var lastTime: Double?
    private var firstTime: Double?
    private var lastValue: (Double, Double, Double)?
    private var run = 0
    /// Times that went backwards (each step back, however many samples it cost).
    public private(set) var clockJumps = 0
    private var wentBack = false
    public private(set) var samples = 0

    public init() {}

    /// A gap is an interval longer than this many median intervals.
    public static let gapFactor = 4.0
    /// Values repeated in runs of k ≥ 2 samples for at least this share of all runs mean a sensor
    /// logged k times faster than it measures.
    public static let repeatShare = 0.6
    /// Fewer runs of values than this say nothing about repeats (a constant signal is one run).
    public static let minimumRuns = 10

    /// Adds the next sample in file order; `time` may go backwards (counted as a clock jump, not
    /// measured as an interval).
    public mutating func add(seconds time: Double, x: Double, y: Double, z: Double) {
        if let last = lastTime {
            if time < last {
                if !wentBack { clockJumps += 1 }
                wentBack = true
                return
            }
            wentBack = false
            let key = Int(((time - last) * 10_000).rounded())
            if key > 0 {
                if key != pendingKey { flushInterval(); pendingKey = key }
                pendingCount += 1
                pendingSum += time - last
            }
        }
        if firstTime == nil { firstTime = time }
        lastTime = time
        samples += 1
        if let value = lastValue, value == (x, y, z) {
            run += 1
        } else {
            if run > 0 { runLengths[run, default: 0] += 1 }
            run = 1
        }
        lastValue = (x, y, z)
    }

    private mutating func flushInterval() {
        guard pendingCount > 0 else { return }
        intervals[pendingKey, default: 0] += pendingCount
        intervalSums[pendingKey, default: 0] += pendingSum
        (pendingCount, pendingSum) = (0, 0)
    }

    /// The interval tables with the pending run added.
    private var allIntervals: (counts: [Int: Int], sums: [Int: Double]) {
        var copy = self
        copy.flushInterval()
        return (copy.intervals, copy.intervalSums)
    }

    /// The median of the positive intervals, seconds; nil with fewer than two distinct times.
    public var medianIntervalSeconds: Double? {
        let intervals = allIntervals.counts
        let total = intervals.values.reduce(0, +)
        guard total > 0 else { return nil }
        var seen = 0
        for key in intervals.keys.sorted() {
            seen += intervals[key]!
            if 2 * seen >= total { return Double(key) / 10_000 }
        }
        return nil
    }

    /// 1 / median interval, Hz: the rate the logger wrote, unaffected by pauses.
    public var effectiveRateHz: Double? { medianIntervalSeconds.map { 1 / $0 } }

    /// Intervals longer than `gapFactor` median intervals: how many, the longest and their total, seconds.
    public var gaps: (count: Int, longestSeconds: Double, totalSeconds: Double) {
        guard let median = medianIntervalSeconds else { return (0, 0, 0) }
        let (intervals, intervalSums) = allIntervals
        let limit = Int((Self.gapFactor * median * 10_000).rounded())
        let keys = intervals.keys.filter { $0 > limit }
        return (keys.reduce(0) { $0 + intervals[$1]! }, keys.map { intervalSums[$0]! / Double(intervals[$0]!) }.max() ?? 0,
                keys.reduce(0) { $0 + intervalSums[$1]! })
    }

    /// Samples that repeat the previous sample's value exactly.
    public var repeatedSamples: Int {
        allRuns.reduce(0) { $0 + ($1.key - 1) * $1.value }
    }

    /// k when most runs of values (at least `repeatShare` of them) are k ≥ 2 samples long: the
    /// logger wrote each measurement k times; nil otherwise (a still phone's quantised values
    /// repeat in runs of every length, and do not count).
    public var repeatFactor: Int? {
        let runs = allRuns
        let total = runs.values.reduce(0, +)
        // At least 10 runs: a constant signal is one run, not a sensor logged k times per value.
        guard total >= Self.minimumRuns, let (length, count) = runs.max(by: { $0.value < $1.value }), length >= 2,
              Double(count) >= Self.repeatShare * Double(total) else { return nil }
        return length
    }

    /// The rate at which the sensor measured, Hz: the effective rate divided by the repeat
    /// factor when there is one. What the stages' rate gates use.
    public var realRateHz: Double? {
        effectiveRateHz.map { $0 / Double(repeatFactor ?? 1) }
    }

    /// Samples per second over the whole span, Hz; nil with fewer than two distinct times.
    public var meanRateHz: Double? {
        guard let first = firstTime, let last = lastTime, last > first, samples > 1 else { return nil }
        return Double(samples - 1) / (last - first)
    }

    /// The rate a stage may count on, Hz: the lower of the real rate and the mean rate seen
    /// through repeats. A bursty logger (TMD's event logs write bursts 20 ms apart between
    /// pauses, 2–12 Hz on average) delivers the information of its mean rate, not its bursts';
    /// a steady logger's two rates agree.
    public var usableRateHz: Double? {
        guard let real = realRateHz, let mean = meanRateHz else { return nil }
        return min(real, mean / Double(repeatFactor ?? 1))
    }

    private var allRuns: [Int: Int] {
        var runs = runLengths
        if run > 0 { runs[run, default: 0] += 1 }
        return runs
    }

    /// The timing of samples already in time order.
    public static func of(_ samples: [IMUSample]) -> StreamTiming {
        var timing = StreamTiming()
        for sample in samples { timing.add(seconds: sample.time.secondsSince1970, x: sample.x, y: sample.y, z: sample.z) }
        return timing
    }
}
