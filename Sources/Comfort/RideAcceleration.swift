import Features
import MobilityCore

/// What was measured of one ride from its IMU data.
public struct RideAnalysis: Sendable {
    public var status: Ride.Status
    public var metrics: RideMetrics?
    /// The stream's native rate, from its raw samples (median interval, repeats seen through,
    /// gaps left out), Hz.
    public var rateHz: Double?
    public var coveredSeconds: Double?
    /// The first and last sample inside the ride, Unix seconds.
    public var firstSeconds: Double?, lastSeconds: Double?
    public var stops: [RideStop] = []
    public var verticalSource: VehicleFrame.VerticalSource?
    /// Why the ride was not measured (nil when it was).
    public var note: String?
}

/// The acceleration of one ride (or of any stretch of a recording), in time order, and whether
/// it includes gravity; cut into the gap-free, uniformly resampled pieces that `VehicleFrame`,
/// `StopDetector` and `RideMetrics` take.
///
/// Gaps are never filled: a piece ends where the interval between samples exceeds
/// `StreamTiming.gapFactor` median intervals; the filters restart on each piece and the
/// durations count covered seconds only.
public struct RideAcceleration: Sendable {
    public var samples: [IMUSample] = []
    public var gravityIncluded = true

    public init(samples: [IMUSample] = [], gravityIncluded: Bool = true) {
        self.samples = samples
        self.gravityIncluded = gravityIncluded
    }

    /// Rides need at least this much covered IMU time, seconds.
    public static let minimumSeconds = 60.0
    /// Lowest native rate whose weighting up to 20 Hz means anything (Nyquist above 10 Hz), Hz:
    /// below it the metrics are "not measured: rate too low", never computed on a band the phone
    /// did not record (Wk and Wb weigh up to 80 Hz; 20 Hz keeps 4–10 Hz, where they peak).
    public static let minimumRateHz = 20.0

    /// The gap-free pieces of `acceleration` on a 50 or 100 Hz grid, the grid's rate, and the
    /// analysis so far (rate, covered time); no pieces, with the analysis's note saying why, when
    /// the samples are too few, too slow for weighting up to 20 Hz, or cover under a minute.
    public static func pieces(_ acceleration: RideAcceleration) -> (RideAnalysis, [AccelerationPiece], rateHz: Double) {
        let samples = acceleration.samples
        guard samples.count > 1 else { return (RideAnalysis(status: .noIMU, note: "no IMU sample of the device inside the ride"), [], 0) }
        let timing = StreamTiming.of(samples)
        guard let median = timing.medianIntervalSeconds, let real = timing.realRateHz else {
            return (RideAnalysis(status: .unusableIMU, note: "the IMU samples inside the ride have no two distinct times"), [], 0)
        }
        let gap = max(StreamTiming.gapFactor * median, 0.1)
        let runs = Recording.runs(samples.map(\.time.secondsSince1970), splittingAtGapsOver: gap)
            .filter { samples[$0.upperBound - 1].time.secondsSince1970 - samples[$0.lowerBound].time.secondsSince1970 >= 1 }
        let covered = runs.reduce(0.0) {
            $0 + samples[$1.upperBound - 1].time.secondsSince1970 - samples[$1.lowerBound].time.secondsSince1970
        }
        // Native rate: the real rate (median interval, repeats seen through), and no more than the
        // samples per covered second (a bursty logger delivers its mean rate's information).
        let perCovered =
            covered > 0 ? Double(runs.reduce(0) { $0 + $1.count } - runs.count) / covered / Double(timing.repeatFactor ?? 1) : 0
        let native = min(real, perCovered)
        var analysis = RideAnalysis(
            status: .unusableIMU, rateHz: native, coveredSeconds: covered,
            firstSeconds: samples.first!.time.secondsSince1970, lastSeconds: samples.last!.time.secondsSince1970)
        guard native >= minimumRateHz else {
            analysis.note = String(
                format: "not measured: rate too low (%.1f Hz measured from the raw stream, %.0f Hz needed for weighting up to 20 Hz)",
                native, minimumRateHz)
            return (analysis, [], 0)
        }
        guard covered >= minimumSeconds else {
            analysis.note = String(format: "not measured: %.0f s of IMU data inside the ride, %.0f s needed", covered, minimumSeconds)
            return (analysis, [], 0)
        }
        let rate = native >= 90 ? 100.0 : 50.0
        return (analysis, runs.map { piece(Array(samples[$0]), rateHz: rate, maxGapSeconds: gap) }, rate)
    }

    /// One gap-free run of samples on its own uniform grid (short dropouts within it interpolated;
    /// a stream written faster than the grid is low-passed first, `AntiAliasing`).
    static func piece(_ samples: [IMUSample], rateHz: Double, maxGapSeconds: Double) -> AccelerationPiece {
        let grid = UniformGrid(covering: samples, rateHz: rateHz)
        var axes = grid.resample(AntiAliasing.lowPassed(samples, gridRateHz: rateHz), maxGapSeconds: maxGapSeconds)
        for axis in axes.indices { // the grid's last point may lie past the last sample
            var last = axes[axis].first { !$0.isNaN } ?? 0
            for index in axes[axis].indices { if axes[axis][index].isNaN { axes[axis][index] = last } else { last = axes[axis][index] } }
        }
        return AccelerationPiece(startSeconds: grid.start.secondsSince1970, x: axes[0], y: axes[1], z: axes[2])
    }

    /// The acceleration of `recording` inside [start, end]: with gravity when the recording has
    /// it (`accelerationWithGravity`), else its gravity-free linear acceleration.
    public static func of(_ recording: Recording, from start: Double, to end: Double) -> RideAcceleration {
        of(withGravity: accelerationWithGravity(recording), linear: linearStream(recording), from: start, to: end)
    }

    /// The acceleration inside [start, end] of a recording's acceleration with gravity
    /// (`accelerationWithGravity`) and, when gravity-free acceleration is its basis, of its linear
    /// stream (`linearStream`): what `of(_:from:to:)` gives from those two alone, so they may
    /// be kept without the recording.
    public static func of(withGravity: [IMUSample], linear: [IMUSample]?, from start: Double, to end: Double) -> RideAcceleration {
        let inside = { (sample: IMUSample) in sample.time.secondsSince1970 >= start && sample.time.secondsSince1970 <= end }
        let total = withGravity.filter(inside)
        if total.isEmpty, let linear {
            return RideAcceleration(samples: linear.filter(inside), gravityIncluded: false)
        }
        return RideAcceleration(samples: total)
    }

    /// The linear acceleration stream of a recording whose basis it is; nil for any other.
    public static func linearStream(_ recording: Recording) -> [IMUSample]? {
        recording.accelerationBasis == .linearAcceleration ? recording.streams[.linearAcceleration] ?? [] : nil
    }

    /// The accelerometer with gravity, or linear acceleration plus gravity at the linear stream's
    /// own sample times (so its native rate and gaps stay what the phone recorded).
    public static func accelerationWithGravity(_ recording: Recording) -> [IMUSample] {
        if let total = recording.streams[.accelerometer], !total.isEmpty { return total }
        guard recording.accelerationBasis == .linearAcceleration, let linear = recording.streams[.linearAcceleration],
            let gravity = recording.streams[.gravity], !gravity.isEmpty
        else { return [] }
        return linearPlusGravity(linear, gravity)
    }

    /// Each linear sample plus gravity interpolated linearly at its time; a sample with no gravity
    /// sample within 1 s on both sides is left out.
    public static func linearPlusGravity(_ linear: [IMUSample], _ gravity: [IMUSample]) -> [IMUSample] {
        var next = 0, result: [IMUSample] = []
        result.reserveCapacity(linear.count)
        for sample in linear {
            let t = sample.time.secondsSince1970
            while next < gravity.count, gravity[next].time.secondsSince1970 < t { next += 1 }
            guard next < gravity.count, next > 0 || gravity[0].time.secondsSince1970 == t else { continue }
            let after = gravity[next], before = gravity[max(next - 1, 0)]
            let (t0, t1) = (before.time.secondsSince1970, after.time.secondsSince1970)
            guard t - t0 <= 1, t1 - t <= 1 else { continue }
            let w = t1 > t0 ? (t - t0) / (t1 - t0) : 0
            result.append(
                IMUSample(
                    time: sample.time, x: sample.x + before.x + w * (after.x - before.x),
                    y: sample.y + before.y + w * (after.y - before.y), z: sample.z + before.z + w * (after.z - before.z)))
        }
        return result
    }
}
