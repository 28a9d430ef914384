/// How regularly a sensor stream was sampled, measured as its samples arrive (memory grows
/// with the number of distinct intervals, not with the samples): the rate from the median
/// interval, gaps, runs of repeated values and the real rate they imply, and clock jumps.
///
/// Count over span hides all of this: a stream with one long pause reads as a slow stream,
/// and a 50 Hz sensor logged at 200 Hz (each value written 4 times) reads as 200 Hz.
public struct StreamTiming: Sendable {
    /// Intervals in units of 0.1 ms → count: the median interval to 0.1 ms, and gap lengths to
    /// 0.05 ms each (no sums kept: key × count is the total within that).
    private var intervals: [Int: Int] = [:]
    /// Counts of intervals under 0.4096 s by key, without hashing: every sample of a jittery
    /// logger (TMD's event logs) has a new key, and a table write per sample cost a sixth of
    /// the read time. Allocated at the first such interval.
    private var shortIntervals: [Int] = []
    private static let shortKeys = 4096
    /// The current run of equal interval keys, added to the table when the key changes (a
    /// steady logger writes one key for long stretches, so this runs per sample without hashing).
    private var pendingKey = 0, pendingCount = 0
    /// Counts of runs of identical consecutive values by length: lengths below 16 in an array
    /// (no hashing per sample), longer ones in a table.
    private var shortRuns = [Int](repeating: 0, count: 16)
    private var longRuns: [Int: Int] = [:]
    /// The current batch of runs of one length (a signal that changes every sample ends a run
    /// of 1 per sample: counted here, added to the tables when the length changes).
    private var pendingRunLength = 0, pendingRunCount = 0
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
            }
        }
        if firstTime == nil { firstTime = time }
        lastTime = time
        samples += 1
        if let value = lastValue, value == (x, y, z) {
            run += 1
        } else {
            if run > 0 {
                if run == pendingRunLength { pendingRunCount += 1 } else { flushRuns(); (pendingRunLength, pendingRunCount) = (run, 1) }
            }
            run = 1
        }
        lastValue = (x, y, z)
    }

    private mutating func flushInterval() {
        guard pendingCount > 0 else { return }
        if pendingKey < Self.shortKeys {
            if shortIntervals.isEmpty { shortIntervals = [Int](repeating: 0, count: Self.shortKeys) }
            shortIntervals[pendingKey] += pendingCount
        } else {
            intervals[pendingKey, default: 0] += pendingCount
        }
        pendingCount = 0
    }

    private mutating func flushRuns() {
        guard pendingRunCount > 0 else { return }
        if pendingRunLength < shortRuns.count {
            shortRuns[pendingRunLength] += pendingRunCount
        } else {
            longRuns[pendingRunLength, default: 0] += pendingRunCount
        }
        pendingRunCount = 0
    }

    /// The interval table with the pending run and the short intervals added.
    private var allIntervals: [Int: Int] {
        var copy = self
        copy.flushInterval()
        var all = copy.intervals
        for (key, count) in copy.shortIntervals.enumerated() where count > 0 { all[key] = count }
        return all
    }

    /// The median of the positive intervals, seconds; nil with fewer than two distinct times.
    public var medianIntervalSeconds: Double? {
        let intervals = allIntervals
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
        let intervals = allIntervals
        let limit = Int((Self.gapFactor * median * 10_000).rounded())
        let keys = intervals.keys.filter { $0 > limit }
        return (
            keys.reduce(0) { $0 + intervals[$1]! }, Double(keys.max() ?? 0) / 10_000,
            Double(keys.reduce(0) { $0 + $1 * intervals[$1]! }) / 10_000
        )
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
            Double(count) >= Self.repeatShare * Double(total)
        else { return nil }
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
        var copy = self
        copy.flushRuns()
        if run > 0 { (copy.pendingRunLength, copy.pendingRunCount) = (run, 1); copy.flushRuns() }
        var runs = copy.longRuns
        for (length, count) in copy.shortRuns.enumerated() where count > 0 { runs[length, default: 0] += count }
        return runs
    }

    /// The timing of samples already in time order.
    public static func of(_ samples: [IMUSample]) -> StreamTiming {
        var timing = StreamTiming()
        for sample in samples { timing.add(seconds: sample.time.secondsSince1970, x: sample.x, y: sample.y, z: sample.z) }
        return timing
    }
}
