import MobilityCore

/// A recording's acceleration, gyroscope and gravity on one uniform grid, and the per-window
/// channels computed from them (see `WindowFeatureExtractor`). A stream written faster than the
/// grid is low-passed before it is interpolated (`AntiAliasing`), so nothing above the grid's
/// Nyquist frequency folds into the bands the features read.
struct ResampledSignals {
    let grid: UniformGrid
    /// Acceleration including gravity, three axes of `grid.count` values (NaN in gaps); for a
    /// recording of gravity-free acceleration alone, that acceleration (`hasGravityReference`
    /// false).
    let acceleration: [[Double]]
    let gyro: [[Double]]?
    let gravity: [[Double]]?
    /// False when `acceleration` is gravity-free and no gravity stream says where down is: the
    /// channels that need gravity are then missing, `acc_dyn` is |acceleration|.
    let hasGravityReference: Bool
    /// Samples per second the phone delivered, for acceleration and gyroscope.
    let accelerationRateHz: Double
    let gyroRateHz: Double
    /// k when the acceleration logger wrote each value k times (see `StreamTiming.repeatFactor`).
    let accelerationRepeatFactor: Int?

    /// Nil when the recording has no acceleration stream.
    init?(_ recording: Recording, parameters: WindowParameters) {
        let rate = parameters.rateHz, gap = parameters.maxGapSeconds
        let streams = recording.streams
        if let accelerometer = streams[.accelerometer], !accelerometer.isEmpty {
            grid = UniformGrid(covering: accelerometer, rateHz: rate)
            (accelerationRateHz, accelerationRepeatFactor) = Self.timing(accelerometer, known: recording.streamRates[.accelerometer])
            acceleration = grid.resample(AntiAliasing.lowPassed(accelerometer, gridRateHz: rate), maxGapSeconds: gap)
            hasGravityReference = true
        } else if let linear = streams[.linearAcceleration], !linear.isEmpty {
            grid = UniformGrid(covering: linear, rateHz: rate)
            (accelerationRateHz, accelerationRepeatFactor) = Self.timing(linear, known: recording.streamRates[.linearAcceleration])
            if let gravity = streams[.gravity], !gravity.isEmpty {
                let parts = (
                    grid.resample(AntiAliasing.lowPassed(linear, gridRateHz: rate), maxGapSeconds: gap),
                    grid.resample(gravity, maxGapSeconds: gap)
                )
                acceleration = (0..<3).map { axis in zip(parts.0[axis], parts.1[axis]).map(+) }
                hasGravityReference = true
            } else {
                acceleration = grid.resample(AntiAliasing.lowPassed(linear, gridRateHz: rate), maxGapSeconds: gap)
                hasGravityReference = false
            }
        } else {
            return nil
        }
        let grid = self.grid
        gyro = streams[.gyroscope].flatMap {
            $0.isEmpty ? nil : grid.resample(AntiAliasing.lowPassed($0, gridRateHz: rate), maxGapSeconds: gap)
        }
        gravity = streams[.gravity].flatMap { $0.isEmpty ? nil : grid.resample($0, maxGapSeconds: gap) }
        gyroRateHz = streams[.gyroscope].map { Self.timing($0, known: recording.streamRates[.gyroscope]).rateHz } ?? 0
    }

    /// The rate the sensor measured these samples (a stretch between pauses) at, Hz, and the
    /// repeat factor: `StreamTiming.usableRateHz`, the lower of the median interval's rate and
    /// the mean rate, each divided by the repeat factor of a sensor logged faster than it
    /// measures (count over span alone would take a 50 Hz sensor written 4 times per value for
    /// 200 Hz). From the recording's `known` rate (measured at ingest) and these samples' count
    /// over span, without a pass over them; else from one pass.
    static func timing(_ samples: [IMUSample], known: StreamRate?) -> (rateHz: Double, repeatFactor: Int?) {
        guard let known else {
            let timing = StreamTiming.of(samples)
            return (timing.usableRateHz ?? 0, timing.repeatFactor)
        }
        guard samples.count > 1, let first = samples.first, let last = samples.last, last.time > first.time else {
            return (0, known.repeatFactor)
        }
        let mean = Double(samples.count - 1) / first.time.seconds(until: last.time)
        return (min(known.realRateHz, mean / Double(known.repeatFactor ?? 1)), known.repeatFactor)
    }

    /// Writes the window of `count` grid points from `first` into row `row` of each channel's
    /// block (in `FeatureSchema.Channel.allCases` order). Returns false when the acceleration
    /// has a gap inside the window; sets `gyroValid` to false when the gyroscope has one.
    /// Without a gravity reference the gravity channels are left at 0 (the caller marks them
    /// missing) and `acc_dyn` is the gravity-free acceleration's magnitude.
    func fillChannels(from first: Int, count n: Int, row: Int, blocks: inout [[Double]], gyroValid: inout Bool) -> Bool {
        let range = first..<(first + n)
        let (ax, ay, az) = (acceleration[0], acceleration[1], acceleration[2])
        if range.contains(where: { ax[$0].isNaN || ay[$0].isNaN || az[$0].isNaN }) { return false }
        let base = row * n
        let dynamic = Self.dynamicBlock
        if hasGravityReference {
            // Gravity: the gravity stream's mean over the window, else the acceleration's (a low-pass estimate).
            let gravityVector = mean(gravity, range) ?? mean(acceleration, range)!
            let norm = (gravityVector.0 * gravityVector.0 + gravityVector.1 * gravityVector.1 + gravityVector.2 * gravityVector.2)
                .squareRoot()
            let g = norm > 0 ? (gravityVector.0 / norm, gravityVector.1 / norm, gravityVector.2 / norm) : gravityVector
            for (offset, i) in range.enumerated() {
                let x = ax[i], y = ay[i], z = az[i]
                let vertical = x * g.0 + y * g.1 + z * g.2
                let hx = x - vertical * g.0, hy = y - vertical * g.1, hz = z - vertical * g.2
                let dx = x - gravityVector.0, dy = y - gravityVector.1, dz = z - gravityVector.2
                blocks[0][base + offset] = (x * x + y * y + z * z).squareRoot()
                blocks[1][base + offset] = vertical
                blocks[2][base + offset] = (hx * hx + hy * hy + hz * hz).squareRoot()
                blocks[dynamic][base + offset] = (dx * dx + dy * dy + dz * dz).squareRoot()
            }
        } else {
            for (offset, i) in range.enumerated() {
                let x = ax[i], y = ay[i], z = az[i]
                blocks[dynamic][base + offset] = (x * x + y * y + z * z).squareRoot()
            }
        }
        if let gyro, !range.contains(where: { gyro[0][$0].isNaN || gyro[1][$0].isNaN || gyro[2][$0].isNaN }) {
            let gyroIndex = Self.gyroBlock
            for (offset, i) in range.enumerated() {
                let x = gyro[0][i], y = gyro[1][i], z = gyro[2][i]
                blocks[gyroIndex][base + offset] = (x * x + y * y + z * z).squareRoot()
            }
        } else {
            gyroValid = false
        }
        return true
    }

    /// Rows of `blocks` (channel order) that `fillChannels` writes by name.
    static let dynamicBlock = FeatureSchema.Channel.allCases.firstIndex(of: .accDynamic)!
    static let gyroBlock = FeatureSchema.Channel.allCases.firstIndex(of: .gyroMagnitude)!

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
