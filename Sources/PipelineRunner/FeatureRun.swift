import Features
import Foundation
import MobilityCore

/// Reads traces and computes their windows' features: what `features`, `train`, `evaluate`
/// and `classify` all start with.
public struct FeatureRun {
    public var loader: RecordingLoader
    public var window: WindowParameters

    public init(loader: RecordingLoader, window: WindowParameters) {
        self.loader = loader
        self.window = window
    }

    public struct Output: Sendable {
        public var table: FeatureTable
        public var report: RecordingLoader.Report
        public var seconds: Double
    }

    public func run(_ paths: [String], progress: Progress) throws -> Output {
        let started = Date()
        let extractor = WindowFeatureExtractor(parameters: window)
        var table = FeatureTable()
        let report = try loader.load(paths, progress: progress) { recording in
            table.append(extractor.extract(recording))
        }
        return Output(table: table, report: report, seconds: Date().timeIntervalSince(started))
    }
}
