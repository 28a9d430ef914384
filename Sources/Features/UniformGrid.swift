import MobilityCore

/// A uniform time grid that every stream of one recording is resampled onto, so that the
/// accelerometer, gyroscope and gravity of a window line up sample for sample and windows can
/// be stacked into matrices (phones deliver samples at jittery, sensor-specific rates; TMD's
/// event logs interleave them at 2–12 Hz).
public struct UniformGrid: Hashable, Sendable {
    public var start: Timestamp
    public var rateHz: Double
    public var count: Int

    public init(start: Timestamp, rateHz: Double, count: Int) {
        precondition(rateHz > 0 && count >= 0, "a grid needs a positive rate and a non-negative length")
        self.start = start
        self.rateHz = rateHz
        self.count = count
    }

    /// Most points one grid may have: 2³² (a day at 50 Hz is 4.3 M). Callers cut recordings at
    /// their pauses first (`Recording.accelerationPieces`), so a grid spans data, never a gap.
    public static let maxCount = 1 << 32

    /// The grid from the first to the last sample of `samples`.
    public init(covering samples: [IMUSample], rateHz: Double) {
        guard let first = samples.first, let last = samples.last else {
            self.init(start: Timestamp(secondsSince1970: 0), rateHz: rateHz, count: 0)
            return
        }
        let points = (first.time.seconds(until: last.time) * rateHz + 1e-4).rounded(.down) + 1
        precondition(
            points.isFinite && points <= Double(Self.maxCount),
            "a grid of \(points) points: cut the samples at their gaps before gridding them")
        self.init(start: first.time, rateHz: rateHz, count: Int(points))
    }

    public func time(at index: Int) -> Double { start.secondsSince1970 + Double(index) / rateHz }

    /// `samples` linearly interpolated at every grid point, as three axis arrays of `count`
    /// values. Points before the first or after the last sample, and points inside a gap longer
    /// than `maxGapSeconds` between two samples, are NaN: a recording pause never becomes a
    /// straight line. Samples must be in time order; of two with the same time, the later wins.
    ///
    /// - Complexity: O(n + count) for n samples.
    public func resample(_ samples: [IMUSample], maxGapSeconds: Double) -> [[Double]] {
        var axes = [[Double]](repeating: [Double](repeating: .nan, count: count), count: 3)
        guard count > 0, !samples.isEmpty else { return axes }
        var index = 0
        for gridIndex in 0..<count {
            let time = self.time(at: gridIndex)
            while index + 1 < samples.count, samples[index + 1].time.secondsSince1970 <= time { index += 1 }
            let a = samples[index]
            let aTime = a.time.secondsSince1970
            if abs(aTime - time) < 1e-9 {
                axes[0][gridIndex] = a.x; axes[1][gridIndex] = a.y; axes[2][gridIndex] = a.z
                continue
            }
            if index + 1 == samples.count || aTime > time { continue }
            let b = samples[index + 1]
            let span = b.time.secondsSince1970 - aTime
            guard span <= maxGapSeconds else { continue }
            let weight = span > 0 ? (time - aTime) / span : 1
            axes[0][gridIndex] = a.x + (b.x - a.x) * weight
            axes[1][gridIndex] = a.y + (b.y - a.y) * weight
            axes[2][gridIndex] = a.z + (b.z - a.z) * weight
        }
        return axes
    }
}
