import MobilityCore

/// Resamples an irregular IMU stream onto a uniform time grid by linear interpolation, the
/// first step before windows can be stacked into matrices (phones deliver samples at jittery,
/// sensor-specific rates; TMD's event logs interleave them).
///
/// Grid points farther than `maxGapSeconds` from both neighbouring samples are not
/// interpolated across: the stream is split there, so a recording pause never becomes a
/// straight line. Samples must be in time order; of two samples with the same time, the later wins.
///
/// - Complexity: O(n + m) for n input samples and m grid points.
public struct UniformResampler: Hashable, Sendable {
    /// Output rate, Hz. Default 50 Hz (enough for gait at ~2 Hz and road vibration to 25 Hz).
    public var rateHz: Double = 50
    /// Longest gap between two input samples that is interpolated across, seconds. Default 0.5 s.
    public var maxGapSeconds: Double = 0.5

    public init(rateHz: Double = 50, maxGapSeconds: Double = 0.5) {
        precondition(rateHz > 0 && maxGapSeconds > 0, "rate and gap must be positive")
        self.rateHz = rateHz
        self.maxGapSeconds = maxGapSeconds
    }

    /// Uniform runs of samples, one per stretch without a gap longer than `maxGapSeconds`.
    public func resample(_ samples: [IMUSample]) -> [[IMUSample]] {
        guard let first = samples.first else { return [] }
        let step = 1 / rateHz
        var runs: [[IMUSample]] = []
        var run: [IMUSample] = []
        var time = first.time.secondsSince1970
        var index = 0
        while index + 1 < samples.count {
            let a = samples[index], b = samples[index + 1]
            let span = a.time.seconds(until: b.time)
            if span > maxGapSeconds {
                if !run.isEmpty { runs.append(run); run = [] }
                index += 1
                time = b.time.secondsSince1970
                continue
            }
            while time <= b.time.secondsSince1970 {
                let weight = span > 0 ? (time - a.time.secondsSince1970) / span : 1
                run.append(IMUSample(time: Timestamp(secondsSince1970: time),
                                     x: a.x + (b.x - a.x) * weight, y: a.y + (b.y - a.y) * weight, z: a.z + (b.z - a.z) * weight))
                time += step
            }
            index += 1
        }
        if samples.count == 1 { run.append(first) }
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
