import MobilityCore

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

    public init(sensor: IMUSensor) {
        self.sensor = sensor
    }

    /// Mean sample rate over the stream's span, Hz; nil with fewer than two samples.
    public var rateHz: Double? {
        guard samples > 1, let first, let last, last > first else { return nil }
        return Double(samples - 1) / first.seconds(until: last)
    }
}
