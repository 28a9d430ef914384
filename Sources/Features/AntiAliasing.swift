import MobilityCore

/// The low-pass a stream written faster than the grid it is resampled onto goes through first.
///
/// Interpolating a 200 Hz stream at 50 Hz keeps whatever lies above the grid's 25 Hz Nyquist
/// frequency and folds it down: an engine's or a handlebar's 90 Hz vibration reads as 10 Hz,
/// in the band that tells a car from a bus, and ISO 2631 comfort values grow. So the stream is
/// first filtered by a 4th-order Butterworth low-pass at 0.4 × the grid rate (20 Hz for the
/// 50 Hz feature grid), run forwards and backwards with each end padded by its odd reflection,
/// as SciPy's `sosfiltfilt` does (zero phase, so events keep their times; the magnitude is
/// squared: −6 dB at the cutoff, −28 dB at 30 Hz and −48 dB at 40 Hz, the frequencies that
/// would fold onto 20 and 10 Hz). Streams at up to 1.2 × the grid rate are left
/// alone (a 51 Hz phone onto 50 Hz has almost nothing to fold), as are the 2–12 Hz event logs.
///
/// Phones' sample times jitter; each run between pauses is filtered as if uniform at its
/// mean rate (count − 1 over span), which moves the response by the jitter's fraction only.
public enum AntiAliasing {
    /// Cutoff as a fraction of the grid rate: 0.4.
    public static let cutoffFraction = 0.4
    /// A run written faster than this multiple of the grid rate is filtered: 1.2.
    public static let thresholdFactor = 1.2
    /// Butterworth order (per pass; zero phase doubles it): 4.
    public static let order = 4
    /// A run ends where consecutive samples are further apart than this, seconds: a pause, not jitter.
    static let pauseSeconds = 0.25

    /// `samples` (in time order) low-passed for a grid of `gridRateHz`, or unchanged when no run of
    /// them is written faster than `thresholdFactor` × `gridRateHz`.
    ///
    /// - Complexity: O(n).
    public static func lowPassed(_ samples: [IMUSample], gridRateHz: Double) -> [IMUSample] {
        let runs = Recording.runs(count: samples.count, splittingAtGapsOver: pauseSeconds) { samples[$0].time.secondsSince1970 }
        var output: [IMUSample]? = nil
        for run in runs where run.count >= 8 {
            let span = samples[run.lowerBound].time.seconds(until: samples[run.upperBound - 1].time)
            guard span > 0 else { continue }
            let writtenRateHz = Double(run.count - 1) / span
            guard writtenRateHz > thresholdFactor * gridRateHz else { continue }
            let sections = Biquad.butterworthLowPass(order: order, cutoffHz: cutoffFraction * gridRateHz, rateHz: writtenRateHz)
            let x = ZeroPhase.filterPadded(run.map { samples[$0].x }, sections)
            let y = ZeroPhase.filterPadded(run.map { samples[$0].y }, sections)
            let z = ZeroPhase.filterPadded(run.map { samples[$0].z }, sections)
            if output == nil { output = samples }
            for (offset, index) in run.enumerated() {
                output![index].x = x[offset]; output![index].y = y[offset]; output![index].z = z[offset]
            }
        }
        return output ?? samples
    }
}
