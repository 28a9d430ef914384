import Foundation

/// What one sensor stream of a recording holds: the descriptor the store keeps, while the raw
/// samples stay in the user's file (referenced by path and content hash).
public struct IMUStreamSummary: Hashable, Sendable {
    public var sensor: IMUSensor
    public var samples = 0
    public var first: Timestamp?
    public var last: Timestamp?
    /// Samples with the same time as the previous one: kept (the resampler interpolates), and
    /// counted because they reveal a timestamp resolution coarser than the sample period.
    public var duplicateTimes = 0
    /// Rows of this sensor that were dropped (time going backwards, values not numbers …),
    /// so `samples + droppedSamples` is the sensor's row count in the file.
    public var droppedSamples = 0

    /// Rate from the median interval, Hz (a pause does not lower it; see `StreamTiming`).
    public var effectiveRateHz: Double?
    /// Intervals longer than 4 median intervals: count, longest and total, seconds.
    public var gaps = 0
    public var longestGapSeconds = 0.0
    public var gapSeconds = 0.0
    /// Samples repeating the previous value exactly, and the run length k when most values
    /// come k times (a sensor logged k times faster than it measures).
    public var repeatedSamples = 0
    public var repeatFactor: Int?
    /// The rate the sensor measured at, Hz: effective rate / repeat factor. What rate gates use.
    public var realRateHz: Double?
    /// Times the clock stepped backwards.
    public var clockJumps = 0

    public init(sensor: IMUSensor) {
        self.sensor = sensor
    }

    /// Takes the timing measures of `timing`.
    public mutating func record(_ timing: StreamTiming) {
        effectiveRateHz = timing.effectiveRateHz
        (gaps, longestGapSeconds, gapSeconds) = timing.gaps
        repeatedSamples = timing.repeatedSamples
        repeatFactor = timing.repeatFactor
        realRateHz = timing.realRateHz
        clockJumps = timing.clockJumps
    }

    /// One line for logs and `inspect`: "200.0 Hz written, 50.0 Hz measured (each value 4×), 2 gaps (longest 3.1 s, 4.0 s in all)".
    public var timingText: String {
        guard let effective = effectiveRateHz else { return "fewer than two distinct times" }
        var parts = [String(format: "%.1f Hz from the median interval", effective)]
        if let factor = repeatFactor, let real = realRateHz {
            parts.append(String(format: "each value written %d× so %.1f Hz measured", factor, real))
        }
        if gaps > 0 { parts.append(String(format: "%d gaps (longest %.1f s, %.1f s in all)", gaps, longestGapSeconds, gapSeconds)) }
        if clockJumps > 0 { parts.append("\(clockJumps) clock jumps backwards") }
        return parts.joined(separator: ", ")
    }

    /// Mean sample rate over the stream's span, Hz; nil with fewer than two samples.
    public var rateHz: Double? {
        guard samples > 1, let first, let last, last > first else { return nil }
        return Double(samples - 1) / first.seconds(until: last)
    }
}
