import Classify
import Features
import Foundation
import Fusion
import MobilityCore
import Reports
import Store

/// `pipeline classify`: every window of traces given a mode by a saved model (or the rules),
/// decided the one way `pipeline run` decides them (`RecordingClassifier`), written to
/// `modes.csv` and, given a store, kept in it.
public struct ClassifyRun {
    public var paths: [String]
    /// The model file; nil classifies by the rules.
    public var model: String?
    public var out: String
    /// A store to keep the windows' modes in, replacing earlier ones of the same traces.
    public var storePath: String?
    /// Temporal smoothing (off: the modes as the model gives them).
    public var smooth = true
    public var smoother = ModeSmoother()
    /// Windows of vehicle stops found in the acceleration made still (only when smoothing).
    public var findsVehicleStops = true
    public var loader: RecordingLoader
    /// The legs' context (transit geofences), read only when the model has a GPS leg model.
    public var legFeatures: () throws -> LegFeatures = { LegFeatures() }

    public init(paths: [String], out: String, loader: RecordingLoader) { (self.paths, self.out, self.loader) = (paths, out, loader) }

    /// Writes the windows' modes; returns the exit status (2 when a file was quarantined).
    public func run(progress: ProgressReporter) throws -> Int32 {
        var saved: ModeModel?
        if let model {
            do { saved = try ModeModel.load(path: DefaultModel.resolve(model)) } catch let error as PipelineError
                where error.code == .modelUnreadable
            {
                let advice = error.message + " (train one with `pipeline train`, or use --rules)"
                throw PipelineError(error.code, advice, at: error.location)
            }
            for warning in saved?.warnings ?? [] { progress.log("warning: \(model): \(warning)") }
        }
        var predictor = ModePredictor(model: saved, smooth: smooth)
        predictor.smoother = smoother
        var run = FeatureRun(loader: loader, window: saved?.window ?? .init())
        run.keepsFixes = saved?.gpsLegs != nil
        // The one way windows are decided, `pipeline run`'s too (RecordingClassifier).
        let classifier = RecordingClassifier(
            predictor: predictor, findsVehicleStops: smooth && findsVehicleStops,
            minimumStopSeconds: predictor.smoother.minimumStopSeconds)
        run.onRecording = { recording, part in classifier.observe(recording, part: part) }
        let output = try run.run(paths, progress: progress)
        var prediction = classifier.predict(output.table)
        var gpsLegs = 0
        if let saved, let legModel = saved.gpsLegs {
            let features = try legFeatures()
            if legModel.usesTransitGeofences != (features.transitDistanceMeters != nil) {
                progress.log(
                    legModel.usesTransitGeofences
                        ? "warning: the GPS leg model was trained with transit geofences and none are given (--geofences): its legs lack the distances of their ends from transit"
                        : "the GPS leg model was trained without transit geofences: --geofences is not used")
            }
            gpsLegs = GPSLegDecision.apply(
                saved, table: output.table, fixesByTrace: output.fixes, smooth: smooth, features: features, prediction: &prediction)
        }
        let stopWindows = classifier.applyStops(windows: output.table.windows, to: &prediction)
        try ModesCSV.write(output.table.windows, prediction: prediction, to: out)
        if let storePath {
            try StoreSession.run(storePath: storePath) {
                try $0.replaceModeWindows(ModesCSV.storeRows(output.table.windows, prediction: prediction))
            }
        }
        var seconds: [Mode: Double] = [:]
        let hop = (saved?.window ?? .init()).hopSeconds
        for mode in prediction.modes { seconds[mode, default: 0] += hop }
        progress.log(
            "\(output.report.recordings) recordings, \(output.table.count) windows: "
                + seconds.sorted { $0.key < $1.key }.map { String(format: "%@ %.1f min", $0.key.rawValue, $0.value / 60) }.joined(
                    separator: ", ")
                + "; wrote \(out)")
        progress.log(GPSLegDecision.line(windowsDecidedBy: prediction.sources, gpsLegs: gpsLegs, model: saved))
        let stopCount = classifier.stopCount
        if stopCount > 0 {
            progress.log(
                "vehicle stops: \(stopCount) stops of \(String(format: "%g", predictor.smoother.minimumStopSeconds)) s or more found in the acceleration of riding stretches; \(stopWindows) windows in them made still"
            )
        }
        for (trace, notes) in output.notes.sorted(by: { $0.key < $1.key }) {
            progress.log("\(trace): " + notes.joined(separator: "; "))
        }
        return output.report.quarantined.isEmpty ? 0 : 2
    }
}
