import MobilityCore

/// What the user should know about a recording's windows, gathered while they are computed
/// (no second pass over the samples).
struct PieceFacts {
    var gravityFree = false
    /// Stretches between pauses whose acceleration was measured below the spectral rate.
    var slow: [(rateHz: Double, repeatFactor: Int?)] = []
    /// Stretches measured below `WindowParameters.minimumIMURateHz`: not classified from the IMU.
    var tooSlow: [Double] = []

    mutating func record(_ signals: ResampledSignals, minimumRateHz: Double) {
        if !signals.hasGravityReference { gravityFree = true }
        if signals.accelerationRateHz < minimumRateHz && signals.accelerationRateHz >= WindowParameters.minimumIMURateHz {
            slow.append((signals.accelerationRateHz, signals.accelerationRepeatFactor))
        }
        if signals.accelerationRateHz < WindowParameters.minimumIMURateHz { tooSlow.append(signals.accelerationRateHz) }
    }
}

extension WindowFeatureExtractor {
    /// Why a recording gave no window, with what to do.
    func whyNoWindows(_ recording: Recording, pieces: [Recording], seen: PieceFacts = PieceFacts()) -> String {
        let length = parameters.lengthSeconds
        if let rate = streamRateTooLow(recording) ?? seen.tooSlow.max() {
            return String(
                format: "not classified: rate too low (the acceleration was measured at %.2f Hz; the IMU model needs %.0f Hz "
                    + "or more, a sample at least every %.0f s) and no GPS fixes to decide by; record at a higher rate, or add the "
                    + "device's GPS track", rate, WindowParameters.minimumIMURateHz, parameters.maxGapSeconds)
        }
        guard recording.accelerationBasis != nil else {
            let held = recording.streams.filter { !$0.value.isEmpty }.keys.map(\.rawValue).sorted()
            if held.isEmpty && recording.fixes.count < 2 { return "no windows: no acceleration samples and fewer than 2 timed fixes" }
            if held.isEmpty {
                return String(format: "no windows: the fixes span less than one %.0f s window, or none falls inside a window", length)
            }
            return "no windows: no acceleration stream (the file holds \(held.joined(separator: ", "))); windows need an accelerometer "
                + "or linear acceleration"
        }
        let longest = pieces.compactMap(\.imuSpan).map { $0.upperBound - $0.lowerBound }.max() ?? 0
        return String(
            format: "no windows: the longest stretch of acceleration without a pause over %.0f s lasts %.1f s, "
                + "shorter than one %.0f s window (check the time column and its unit, or --columns 'time=…:ms')",
            parameters.maxGapSeconds, longest, length)
    }

    /// The acceleration stream's measured rate when it is below what the IMU model needs: the
    /// rate of its median interval (not samples over span, which one stray sample a year away
    /// would make tiny; stretches slowed by pauses are judged one by one, `PieceFacts.tooSlow`).
    func streamRateTooLow(_ recording: Recording) -> Double? {
        guard let basis = recording.accelerationBasis, let samples = recording.streams[basis] else { return nil }
        let rate = recording.streamRates[basis]?.realRateHz ?? StreamTiming.of(samples).realRateHz ?? 0
        return rate < WindowParameters.minimumIMURateHz ? rate : nil
    }

    func tooSlowNote(_ rate: Double, gpsWindows: Int) -> String {
        String(
            format: "not classified from the IMU: rate too low (the acceleration was measured at %.2f Hz, below %.0f Hz); "
                + "its %d windows are decided by GPS", rate, WindowParameters.minimumIMURateHz, gpsWindows)
    }

    /// What windows lack: gravity (gravity-free acceleration alone), or a rate high enough for
    /// the frequency features (judged per stretch between pauses, as the windows are).
    func notes(_ seen: PieceFacts, pieces: Int) -> [String] {
        var notes: [String] = []
        if let fastest = seen.tooSlow.max() {
            notes.append(
                String(
                    format: "not classified from the IMU: rate too low (%.2f Hz measured, below %.0f Hz) in %d of %d stretches; "
                        + "their windows are decided by GPS where the device has fixes, else left out", fastest,
                    WindowParameters.minimumIMURateHz, seen.tooSlow.count, pieces))
        }
        if seen.gravityFree {
            notes.append(
                "gravity-free acceleration only (no TotalAcceleration or Gravity stream): |a|, vertical and horizontal "
                    + "features missing; modes from the model's gravity-free classifier on |a − g| and |ω| (the rules with a model "
                    + "trained without one); export those files too for the full model")
        }
        if let slowest = seen.slow.min(by: { $0.rateHz < $1.rateHz }) {
            notes.append(
                String(
                    format: "frequency features not computed: the acceleration was measured at %.1f Hz, below %.0f Hz",
                    slowest.rateHz, parameters.minimumSpectralRateHz)
                    + (slowest.repeatFactor.map { " (each value written \($0)×)" } ?? "")
                    + (pieces > 1 ? " (in \(seen.slow.count) of \(pieces) stretches between pauses)" : ""))
        }
        return notes
    }
}
