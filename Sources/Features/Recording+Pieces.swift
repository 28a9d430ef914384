import MobilityCore

/// Cutting a recording where it pauses, so that every grid, window and span is computed only
/// where there is data: the cost of a recording then follows its samples, never the calendar
/// (one stray sample a year after the rest adds one piece, not a year of grid points).
extension Recording {
    /// The stream windows are cut from: the accelerometer (with gravity), else linear
    /// acceleration (with or without a gravity stream); nil without either.
    public var accelerationBasis: IMUSensor? {
        if !(streams[.accelerometer] ?? []).isEmpty { return .accelerometer }
        if !(streams[.linearAcceleration] ?? []).isEmpty { return .linearAcceleration }
        return nil
    }

    /// True when the acceleration can be split along gravity: the accelerometer (its window
    /// mean estimates gravity), or linear acceleration with a gravity stream.
    public var hasGravityReference: Bool {
        accelerationBasis == .accelerometer || accelerationBasis == .linearAcceleration && !(streams[.gravity] ?? []).isEmpty
    }

    /// The recording cut at every pause of its acceleration stream longer than `gapSeconds`:
    /// one recording per run of samples, each with every stream's samples inside that run's
    /// span, and the recording's fixes and labels. Empty without acceleration; the recording
    /// itself when it has no such pause.
    ///
    /// - Complexity: O(n) for n samples of the basis, plus O(s log n) per piece and stream.
    public func accelerationPieces(splittingAtGapsOver gapSeconds: Double) -> [Recording] {
        guard let basis = accelerationBasis, let samples = streams[basis] else { return [] }
        let runs = Self.runs(count: samples.count, splittingAtGapsOver: gapSeconds) { samples[$0].time.secondsSince1970 }
        guard runs.count > 1 else { return [self] }
        return runs.map { run in
            let span = samples[run.lowerBound].time.secondsSince1970...samples[run.upperBound - 1].time.secondsSince1970
            var piece = self
            piece.streams = streams.mapValues { Self.slice($0, within: span) }
            return piece
        }
    }

    /// Index ranges of `sortedTimes` between which consecutive times are more than
    /// `gapSeconds` apart.
    public static func runs(_ sortedTimes: [Double], splittingAtGapsOver gapSeconds: Double) -> [Range<Int>] {
        runs(count: sortedTimes.count, splittingAtGapsOver: gapSeconds) { sortedTimes[$0] }
    }

    /// The same over `count` times read through `time` (no copy of a device-day's times).
    static func runs(count: Int, splittingAtGapsOver gapSeconds: Double, time: (Int) -> Double) -> [Range<Int>] {
        guard count > 0 else { return [] }
        var runs: [Range<Int>] = []
        var start = 0
        for index in 1..<max(1, count) where time(index) - time(index - 1) > gapSeconds {
            runs.append(start..<index)
            start = index
        }
        runs.append(start..<count)
        return runs
    }

    /// The samples inside `span`, found by binary search on the samples themselves (no copy of
    /// their times per piece, so many pieces cost O(log n) each, not O(n)).
    private static func slice(_ samples: [IMUSample], within span: ClosedRange<Double>) -> [IMUSample] {
        Array(samples[firstIndex(samples, notBefore: span.lowerBound)..<firstIndex(samples, notBefore: span.upperBound.nextUp)])
    }

    private static func firstIndex(_ samples: [IMUSample], notBefore seconds: Double) -> Int {
        samples.firstIndex(notBelow: seconds) { $0.time.secondsSince1970 }
    }
}
