import MobilityCore

/// How one recording fared: its most common true mode, the mode predicted most often over its
/// windows, and the share of its windows predicted right. "Is the recording's mode right?" is
/// what a user of one trip asks, and a window score pooled over everyone hides a recording
/// that is wrong from end to end.
public struct RecordingScore: Codable, Hashable, Sendable {
    public var trace: String
    public var device: String
    public var windows: Int
    public var trueMode: Mode
    public var predictedMode: Mode
    /// Share of the recording's windows predicted right.
    public var accuracy: Double

    public var majorityRight: Bool { trueMode == predictedMode }

    /// One score per recording (trace) of `outcomes`, in trace order; majorities break ties by
    /// mode order.
    public static func of(_ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>) -> [RecordingScore] {
        Dictionary(grouping: outcomes, by: \.trace).map { trace, windows in
            let right = windows.filter { $0.truth == $0[keyPath: predicted] }.count
            return RecordingScore(
                trace: trace, device: windows[0].device, windows: windows.count,
                trueMode: majority(windows.map(\.truth)), predictedMode: majority(windows.map { $0[keyPath: predicted] }),
                accuracy: Double(right) / Double(windows.count))
        }.sorted { $0.trace < $1.trace }
    }

    static func majority(_ modes: [Mode]) -> Mode {
        var counts: [Mode: Int] = [:]
        for mode in modes { counts[mode, default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
    }
}
