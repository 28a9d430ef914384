import MobilityCore

/// One trace held in memory for the feature stage: its IMU streams (in time order, already
/// checked by ingest), its cleaned GPS fixes, and the labels that apply to it.
public struct Recording: Sendable {
    /// The input path, which names the trace in every output.
    public var trace: String
    public var device: String
    public var streams: [IMUSensor: [IMUSample]]
    public var fixes: [PositionFix]
    public var labels: [LabelInterval]
    /// The activities the phone itself recognised, in time order (`IngestResult.activities`):
    /// a motion source's evidence, never truth.
    public var activities: [LabelInterval] = []
    /// Per stream, the rate its sensor measured at and its repeat factor, when the reader
    /// already measured them (`StreamTiming` at ingest); else the feature stage measures them.
    public var streamRates: [IMUSensor: StreamRate] = [:]

    public init(
        trace: String, device: String, streams: [IMUSensor: [IMUSample]] = [:],
        fixes: [PositionFix] = [], labels: [LabelInterval] = []
    ) {
        self.trace = trace
        self.device = device
        self.streams = streams
        self.fixes = fixes
        self.labels = labels
    }

    /// From the first to the last acceleration sample, seconds since 1970; nil without IMU.
    public var imuSpan: ClosedRange<Double>? {
        let samples = (streams[.accelerometer] ?? []).isEmpty ? streams[.linearAcceleration] ?? [] : streams[.accelerometer]!
        guard let first = samples.first, let last = samples.last else { return nil }
        return first.time.secondsSince1970...last.time.secondsSince1970
    }

    /// The activity the phone recognised for most of `start...end` (each run lasting until the
    /// next begins, at most `maxRunSeconds` past its last row), and its share of the covered
    /// time; nil when no run with a known mode covers any of it.
    ///
    /// - Complexity: O(log runs + runs inside the interval); `activities` are in start order.
    public func activity(from start: Timestamp, to end: Timestamp, maxRunSeconds: Double = 120) -> (mode: Mode, share: Double)? {
        var seconds: [Mode: Double] = [:]
        // The run that may reach into the interval starts before it: begin one run earlier.
        let first = max(0, activities.firstIndex(notBelow: start.secondsSince1970) { $0.start.secondsSince1970 } - 1)
        for index in first..<activities.count {
            let run = activities[index]
            if run.start > end { break }
            guard let mode = run.mode else { continue }
            let next = index + 1 < activities.count ? activities[index + 1].start.secondsSince1970 : .infinity
            let runEnd = min(next, max(run.end.secondsSince1970, run.start.secondsSince1970) + maxRunSeconds)
            let overlap = min(runEnd, end.secondsSince1970) - max(run.start.secondsSince1970, start.secondsSince1970)
            if overlap > 0 { seconds[mode, default: 0] += overlap }
        }
        let total = seconds.values.reduce(0, +)
        guard total > 0, let best = seconds.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        return (best.key, best.value / total)
    }

    /// The label whose interval holds `time`; of several, the shortest (the most specific).
    public func label(at time: Timestamp) -> LabelInterval? {
        labels.filter { $0.start <= time && time <= $0.end }
            .min { $0.start.seconds(until: $0.end) < $1.start.seconds(until: $1.end) }
    }
}

/// Where a window lies and what it is known to be.
public struct WindowInfo: Hashable, Sendable {
    public var trace: String
    public var device: String
    public var start: Timestamp
    public var end: Timestamp
    /// The label's name as written in the source, when the window is labelled.
    public var labelName: String?
    /// The product mode that name maps to, or nil when unlabelled or unknown.
    public var mode: Mode?

    public init(trace: String, device: String, start: Timestamp, end: Timestamp, labelName: String? = nil, mode: Mode? = nil) {
        self.trace = trace
        self.device = device
        self.start = start
        self.end = end
        self.labelName = labelName
        self.mode = mode
    }
}

/// Windows and their features: one row of `values` per window, one column per name of
/// `FeatureSchema.names`. NaN marks a feature that could not be computed (no gyroscope, no
/// fixes near the window).
public struct FeatureTable: Sendable {
    public var windows: [WindowInfo] = []
    public var values: [Double] = []
    public static var columns: Int { FeatureSchema.names.count }

    public init() {}

    public var count: Int { windows.count }

    public func row(_ index: Int) -> ArraySlice<Double> {
        values[(index * Self.columns)..<((index + 1) * Self.columns)]
    }

    public mutating func append(_ other: FeatureTable) {
        windows += other.windows
        values += other.values
    }

    /// The windows (and their rows) for which `keep` holds.
    public func filter(_ keep: (WindowInfo) -> Bool) -> FeatureTable {
        subset(windows.indices.filter { keep(windows[$0]) })
    }

    /// Keeps the windows for which `keep` holds, in place (`retain(_:)`).
    public mutating func retainAll(where keep: (WindowInfo) -> Bool) {
        retain(windows.indices.filter { keep(windows[$0]) })
    }

    /// Keeps the windows at `indices` (ascending), moving their rows forward in place: a
    /// device's GPS windows at 1 Hz fill hundreds of megabytes, and a filtered copy beside them
    /// doubled the trip stage's peak memory.
    public mutating func retain(_ indices: [Int]) {
        guard indices.count < windows.count else { return }
        let width = Self.columns
        values.withUnsafeMutableBufferPointer { rows in
            for (to, from) in indices.enumerated() where to != from {
                precondition(from > to, "retain takes ascending indices")
                for column in 0..<width { rows[to * width + column] = rows[from * width + column] }
            }
        }
        values.removeLast(values.count - indices.count * width)
        windows = indices.map { windows[$0] }
    }

    /// The windows at `indices`, in that order, with their rows.
    public func subset(_ indices: [Int]) -> FeatureTable {
        var result = FeatureTable()
        result.windows = indices.map { windows[$0] }
        result.values.reserveCapacity(indices.count * Self.columns)
        for index in indices { result.values += row(index) }
        return result
    }
}

/// What `StreamTiming` found for one stream, kept with a recording so the feature stage need
/// not pass over the samples again.
public struct StreamRate: Hashable, Sendable {
    /// The rate from the median interval divided by the repeat factor, Hz.
    public var realRateHz: Double
    public var repeatFactor: Int?

    public init(realRateHz: Double, repeatFactor: Int?) {
        self.realRateHz = realRateHz
        self.repeatFactor = repeatFactor
    }
}
