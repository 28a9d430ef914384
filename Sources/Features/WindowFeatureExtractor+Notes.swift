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
        if let basis = recording.accelerationBasis, let samples = recording.streams[basis] {
            let timing = StreamTiming.of(samples)
            if let real = timing.usableRateHz, real < parameters.minimumSpectralRateHz {
                notes.append(String(format: "frequency features not computed: the acceleration was measured at %.1f Hz, below %.0f Hz",
                                    real, parameters.minimumSpectralRateHz)
                             + (timing.repeatFactor.map { " (each value written \($0)×)" } ?? ""))
            }
        }
        return notes
    }
}
