import MobilityCore

/// What the user should know about a recording's windows, gathered while they are computed
/// (no second pass over the samples).
struct PieceFacts {
    var gravityFree = false
    /// Stretches between pauses whose acceleration was measured below the spectral rate.
    var slow: [(rateHz: Double, repeatFactor: Int?)] = []

    mutating func record(_ signals: ResampledSignals, minimumRateHz: Double) {
        if !signals.hasGravityReference { gravityFree = true }
        if signals.accelerationRateHz < minimumRateHz { slow.append((signals.accelerationRateHz, signals.accelerationRepeatFactor)) }
    }
}

extension WindowFeatureExtractor {
    /// Why a recording gave no window, with what to do.
    func whyNoWindows(_ recording: Recording, pieces: [Recording]) -> String {
        let length = parameters.lengthSeconds
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
        return String(format: "no windows: the longest stretch of acceleration without a pause over %.0f s lasts %.1f s, "
                      + "shorter than one %.0f s window (check the time column and its unit, or --columns 'time=…:ms')",
                      parameters.maxGapSeconds, longest, length)
    }

    /// What windows lack: gravity (gravity-free acceleration alone), or a rate high enough for
    /// the frequency features (judged per stretch between pauses, as the windows are).
    func notes(_ seen: PieceFacts, pieces: Int) -> [String] {
        var notes: [String] = []
        if seen.gravityFree {
            notes.append("gravity-free acceleration only (no TotalAcceleration or Gravity stream): |a|, vertical and horizontal "
                         + "features missing; modes from the model's gravity-free classifier on |a − g| and |ω| (the rules with a model "
                         + "trained without one); export those files too for the full model")
        }
        if let slowest = seen.slow.min(by: { $0.rateHz < $1.rateHz }) {
            notes.append(String(format: "frequency features not computed: the acceleration was measured at %.1f Hz, below %.0f Hz",
                                slowest.rateHz, parameters.minimumSpectralRateHz)
                         + (slowest.repeatFactor.map { " (each value written \($0)×)" } ?? "")
                         + (pieces > 1 ? " (in \(seen.slow.count) of \(pieces) stretches between pauses)" : ""))
        }
        return notes
    }
}
