import Features
import Foundation
import MobilityCore

/// Reads traces and computes their windows' features: what `features`, `train`, `evaluate`
/// and `classify` all start with.
public struct FeatureRun {
    public var loader: RecordingLoader
    public var window: WindowParameters
    /// When set, every recording's windows are also computed without these streams
    /// (`Output.reducedTable`), from the same read: `evaluate --test-without-streams`.
    public var reducedWithout: Set<IMUSensor>?

    public init(loader: RecordingLoader, window: WindowParameters) {
        self.loader = loader
        self.window = window
    }

    public struct Output: Sendable {
        public var table: FeatureTable
        public var report: RecordingLoader.Report
        public var seconds: Double
        /// Per trace, why it gave no window or what its windows lack (`WindowFeatureExtractor.notes`).
        public var notes: [String: [String]] = [:]
        /// The windows of the recordings without the streams `reducedWithout` names.
        public var reducedTable: FeatureTable?
    }

    public func run(_ paths: [String], progress: Progress) throws -> Output {
        let started = Date()
        let extractor = WindowFeatureExtractor(parameters: window)
        var table = FeatureTable(), reduced = reducedWithout.map { _ in FeatureTable() }
        var notes: [String: [String]] = [:]
        let report = try loader.load(paths, progress: progress) { recording in
            let (part, said) = extractor.extractWithNotes(recording)
            if !said.isEmpty { notes[recording.trace, default: []] += said }
            table.append(part)
            if let dropped = reducedWithout {
                var without = recording
                for sensor in dropped { without.streams[sensor] = nil }
                reduced!.append(extractor.extract(without))
            }
        }
        return Output(table: table, report: report, seconds: Date().timeIntervalSince(started), notes: notes, reducedTable: reduced)
    }
}
