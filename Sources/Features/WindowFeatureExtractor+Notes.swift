import MobilityCore

extension WindowFeatureExtractor {
    /// What the user should know about a recording's windows: why it gave none (with what to
    /// do), or what its windows lack. Empty when there is nothing to say.
    public func notes(for recording: Recording, windows: Int) -> [String] {
        guard windows == 0 else { return limitations(recording) }
        return [whyNoWindows(recording)]
    }

    func whyNoWindows(_ recording: Recording) -> String {
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
        let pieces = recording.accelerationPieces(splittingAtGapsOver: parameters.maxGapSeconds)
        let longest = pieces.compactMap(\.imuSpan).map { $0.upperBound - $0.lowerBound }.max() ?? 0
        return String(format: "no windows: the longest stretch of acceleration without a pause over %.0f s lasts %.1f s, "
                      + "shorter than one %.0f s window (check the time column and its unit, or --columns 'time=…:ms')",
                      parameters.maxGapSeconds, longest, length)
    }

    private func limitations(_ recording: Recording) -> [String] {
        var notes: [String] = []
        if recording.accelerationBasis != nil && !recording.hasGravityReference {
            notes.append("gravity-free acceleration only (no TotalAcceleration or Gravity stream): |a|, vertical and horizontal "
                         + "features missing, modes from the rules on |a − g| (still, walk or car); export those files too for the model")
        }
        // Rates per stretch between pauses, as the windows gate them (a pause is not a slow sensor).
        if let basis = recording.accelerationBasis {
            let pieces = recording.accelerationPieces(splittingAtGapsOver: parameters.maxGapSeconds)
            let slow = pieces.compactMap { piece -> (rate: Double, repeats: Int?)? in
                guard let samples = piece.streams[basis], samples.count > 1 else { return nil }
                let timing = StreamTiming.of(samples)
                guard let rate = timing.usableRateHz, rate < parameters.minimumSpectralRateHz else { return nil }
                return (rate, timing.repeatFactor)
            }
            if let slowest = slow.min(by: { $0.rate < $1.rate }) {
                notes.append(String(format: "frequency features not computed: the acceleration was measured at %.1f Hz, below %.0f Hz",
                                    slowest.rate, parameters.minimumSpectralRateHz)
                             + (slowest.repeats.map { " (each value written \($0)×)" } ?? "")
                             + (pieces.count > 1 ? " (in \(slow.count) of \(pieces.count) stretches between pauses)" : ""))
            }
        }
        return notes
    }
}
