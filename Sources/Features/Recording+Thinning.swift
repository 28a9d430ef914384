import Foundation
import MobilityCore

/// Augmentation for training data that comes from another kind of logger than the phones it
/// will classify: the recording as an event logger that delivers samples sparsely and
/// irregularly would have written it (TMD's Android event logs give the accelerometer at
/// 2–12 Hz with jittery intervals).
extension Recording {
    /// The recording with each IMU sample kept with probability `rateHz` / (the stream's own
    /// rate, count over span), independently, so the kept samples arrive at about `rateHz`
    /// with exponential gaps, as an event logger's do. A stream no faster than `rateHz` is
    /// kept whole. The trace is renamed (`trace#thinned-<rate>hz`) so that its windows never
    /// join the original's in a smoothing chain; fixes, labels and the device stay. The same
    /// seed gives the same samples; the readers' measured rates are dropped (they describe the
    /// original).
    public func thinned(toRateHz rateHz: Double, seed: UInt64) -> Recording {
        precondition(rateHz > 0, "a positive rate")
        var generator = SeededGenerator(seed: seed)
        var result = self
        result.trace = trace + String(format: "#thinned-%.1fhz", rateHz)
        result.streamRates = [:]
        for (sensor, samples) in streams.sorted(by: { $0.key < $1.key }) {
            guard samples.count > 1 else { continue }
            let span = samples[0].time.seconds(until: samples[samples.count - 1].time)
            guard span > 0 else { continue }
            let keep = rateHz / (Double(samples.count - 1) / span)
            guard keep < 1 else { continue }
            result.streams[sensor] = samples.filter { _ in generator.nextUnit() < keep }
        }
        return result
    }
}
