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
    /// When set, the recordings whose windows are computed: each recording read becomes these
    /// (`Supplement`'s augmentation); default, the recording itself.
    public var variants: (@Sendable (Recording) -> [Recording])?
    /// When set, the labelled legs of every recording with fixes are also cut
    /// (`Output.legs`), as recorded and after thinning to each of these intervals, seconds.
    public var legThinningSeconds: [Double]?
    /// With `legThinningSeconds`: the legs are also cut from the recording replayed at these
    /// paces (`LabelledLegs.of(_:everySeconds:speedScale:)`), each at every thinning; for
    /// training (`LegTrainer.speedScales`). Default none.
    public var legSpeedScales: [Double] = []
    /// How the legs' features are computed (with transit geofences or not).
    public var legFeatures = LegFeatures()
    /// When true, every recording's fixes are kept (`Output.fixes`), for deciding GPS-only
    /// legs (`GPSLegDecision`).
    public var keepsFixes = false
    /// Called with every recording read and its windows, in order, before the next is read
    /// (while the recording is still in memory): `StopFusion` looks at its acceleration here.
    public var onRecording: ((Recording, FeatureTable) -> Void)?

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
        /// The labelled legs, when `legThinningSeconds` asked for them.
        public var legs = LegTable()
        /// Per trace, its fixes, when `keepsFixes`.
        public var fixes: [String: [PositionFix]] = [:]
    }

    public func run(_ paths: [String], progress: ProgressReporter) throws -> Output {
        let variants = self.variants
        return try run { extract in
            try loader.load(paths, progress: progress) { read in
                for recording in variants?(read) ?? [read] { extract(recording) }
            }
        }
    }

    /// The windows of a recording already read, exactly as if `run` had read it from its file:
    /// `pipeline run` hands over each IMU recording ingest read, so the file is parsed once.
    public func run(_ recording: Recording) -> Output {
        let variants = self.variants
        return run { extract in
            for each in variants?(recording) ?? [recording] { extract(each) }
            return RecordingLoader.Report(recordings: 1)
        }
    }

    /// Extracts every recording `read` hands over, in order.
    private func run(
        reading read: (_ extract: (Recording) -> Void) throws -> RecordingLoader.Report
    ) rethrows -> Output {
        let started = Date()
        let extractor = WindowFeatureExtractor(parameters: window)
        var table = FeatureTable(), reduced = reducedWithout.map { _ in FeatureTable() }
        var notes: [String: [String]] = [:], legs = LegTable(), fixes: [String: [PositionFix]] = [:]
        func extract(_ recording: Recording) {
            if keepsFixes, !recording.fixes.isEmpty { fixes[recording.trace, default: []] += recording.fixes }
            if let thinning = legThinningSeconds, !recording.fixes.isEmpty, !recording.labels.isEmpty {
                for scale in [nil] + legSpeedScales.map(Optional.some) {
                    for every in [nil] + thinning.map(Optional.some) {
                        legs.append(LabelledLegs.of(recording, everySeconds: every, speedScale: scale, features: legFeatures))
                    }
                }
            }
            let (part, said) = extractor.extractWithNotes(recording)
            if !said.isEmpty { notes[recording.trace, default: []] += said }
            onRecording?(recording, part)
            table.append(part)
            if let dropped = reducedWithout {
                var without = recording
                for sensor in dropped { without.streams[sensor] = nil }
                reduced!.append(extractor.extract(without))
            }
        }
        let report = try read(extract)
        return Output(
            table: table, report: report, seconds: Date().timeIntervalSince(started), notes: notes, reducedTable: reduced, legs: legs,
            fixes: fixes)
    }
}
