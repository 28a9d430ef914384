/// Turns times relative to an experiment's start into absolute times, from the pairs of
/// (experiment time, system time) an app writes each time a recording starts or resumes
/// (phyphox's `meta/time.csv`: a `START` row per start, a `PAUSE` row per pause).
///
/// A time t maps through the last start at or before it: system + (t − experiment). Before the
/// first start it maps through the first.
public struct ExperimentClock: Hashable, Sendable {
    /// Experiment seconds of each start, ascending, and the Unix seconds at each.
    public private(set) var experimentSeconds: [Double]
    public private(set) var systemSeconds: [Double]

    public init?(starts: [(experiment: Double, system: Double)]) {
        let sorted = starts.filter { $0.experiment.isFinite && $0.system.isFinite }.sorted { $0.experiment < $1.experiment }
        guard !sorted.isEmpty else { return nil }
        experimentSeconds = sorted.map(\.experiment)
        systemSeconds = sorted.map(\.system)
    }

    /// Unix seconds of experiment time `seconds`.
    public func absolute(_ seconds: Double) -> Double {
        var low = 0, high = experimentSeconds.count // the first start after `seconds`
        while low < high {
            let mid = (low + high) / 2
            if experimentSeconds[mid] <= seconds { low = mid + 1 } else { high = mid }
        }
        let index = max(0, low - 1)
        return systemSeconds[index] + (seconds - experimentSeconds[index])
    }
}
