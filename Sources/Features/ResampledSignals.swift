import MobilityCore

/// A recording's acceleration, gyroscope and gravity on one uniform grid, and the per-window
/// channels computed from them (see `WindowFeatureExtractor`).
struct ResampledSignals {
    let grid: UniformGrid
    /// Acceleration including gravity, three axes of `grid.count` values (NaN in gaps).
    let acceleration: [[Double]]
    let gyro: [[Double]]?
    let gravity: [[Double]]?
    /// Samples per second the phone delivered, for acceleration and gyroscope.
    let accelerationRateHz: Double
    let gyroRateHz: Double

    /// Nil when the recording has no acceleration stream.
    init?(_ recording: Recording, parameters: WindowParameters) {
        let rate = parameters.rateHz, gap = parameters.maxGapSeconds
        let streams = recording.streams
        if let accelerometer = streams[.accelerometer], !accelerometer.isEmpty {
            grid = UniformGrid(covering: accelerometer, rateHz: rate)
            accelerationRateHz = Self.nativeRate(accelerometer)
            acceleration = grid.resample(accelerometer, maxGapSeconds: gap)
        } else if let linear = streams[.linearAcceleration], !linear.isEmpty, let gravity = streams[.gravity], !gravity.isEmpty {
            grid = UniformGrid(covering: linear, rateHz: rate)
            accelerationRateHz = Self.nativeRate(linear)
            let parts = (grid.resample(linear, maxGapSeconds: gap), grid.resample(gravity, maxGapSeconds: gap))
            acceleration = (0..<3).map { axis in zip(parts.0[axis], parts.1[axis]).map(+) }
        } else {
            return nil
        }
        let grid = self.grid
        gyro = streams[.gyroscope].flatMap { $0.isEmpty ? nil : grid.resample($0, maxGapSeconds: gap) }
        gravity = streams[.gravity].flatMap { $0.isEmpty ? nil : grid.resample($0, maxGapSeconds: gap) }
        gyroRateHz = streams[.gyroscope].map(Self.nativeRate) ?? 0
    }

    /// Samples per second over the stream's span (0 for fewer than two samples).
    static func nativeRate(_ samples: [IMUSample]) -> Double {
        guard let first = samples.first, let last = samples.last, samples.count > 1 else { return 0 }
        let span = first.time.seconds(until: last.time)
        return span > 0 ? Double(samples.count - 1) / span : 0
    }

    /// Writes the window of `count` grid points from `first` into row `row` of each channel's
    /// block. Returns false when the acceleration has a gap inside the window; sets `gyroValid`
    /// to false when the gyroscope has one.
    func fillChannels(from first: Int, count n: Int, row: Int, blocks: inout [[Double]], gyroValid: inout Bool) -> Bool {
        let range = first..<(first + n)
        let (ax, ay, az) = (acceleration[0], acceleration[1], acceleration[2])
        if range.contains(where: { ax[$0].isNaN || ay[$0].isNaN || az[$0].isNaN }) { return false }
        var g = mean(gravity, range) ?? mean(acceleration, range)!
        let norm = (g.0 * g.0 + g.1 * g.1 + g.2 * g.2).squareRoot()
        if norm > 0 { g = (g.0 / norm, g.1 / norm, g.2 / norm) }
        let base = row * n
        for (offset, i) in range.enumerated() {
            let x = ax[i], y = ay[i], z = az[i]
            let vertical = x * g.0 + y * g.1 + z * g.2
            let hx = x - vertical * g.0, hy = y - vertical * g.1, hz = z - vertical * g.2
            blocks[0][base + offset] = (x * x + y * y + z * z).squareRoot()
            blocks[1][base + offset] = vertical
            blocks[2][base + offset] = (hx * hx + hy * hy + hz * hz).squareRoot()
        }
        if let gyro, !range.contains(where: { gyro[0][$0].isNaN || gyro[1][$0].isNaN || gyro[2][$0].isNaN }) {
            for (offset, i) in range.enumerated() {
                let x = gyro[0][i], y = gyro[1][i], z = gyro[2][i]
                blocks[3][base + offset] = (x * x + y * y + z * z).squareRoot()
            }
        } else {
            gyroValid = false
        }
        return true
    }

    /// The mean vector of `axes` over `range`, or nil when the stream is absent or has a gap there.
    private func mean(_ axes: [[Double]]?, _ range: Range<Int>) -> (Double, Double, Double)? {
        guard let axes else { return nil }
        var sums = (0.0, 0.0, 0.0)
        for i in range {
            sums.0 += axes[0][i]; sums.1 += axes[1][i]; sums.2 += axes[2][i]
        }
        guard !sums.0.isNaN, !sums.1.isNaN, !sums.2.isNaN else { return nil }
        let n = Double(range.count)
        return (sums.0 / n, sums.1 / n, sums.2 / n)
    }
}
