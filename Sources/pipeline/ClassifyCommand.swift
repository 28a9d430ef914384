import ArgumentParser
import Classify
import Foundation
import Fusion
import MobilityCore
import PipelineRunner
import Reports
import Store

struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify the transport mode of every window of traces with a saved model (or the rules).",
        discussion: """
            Writes one row per window: trace, device, start, end, the smoothed mode, the unsmoothed one, its \
            probability, and whether the model or the rules decided (windows without IMU data under an IMU model \
            are decided by the model's GPS leg model, or by the GPS-speed rules when it has none). Prints minutes per mode \
            and what decided how many windows.
            """
    )

    @Argument(help: "Trace files or folders.")
    var paths: [String]

    @Option(
        help: ArgumentHelp(
            "The model file (see `pipeline train`).",
            discussion: "When left at the default and not in the working folder, the shipped model beside the executable is used."))
    var model = "models/mode-model.json"

    @Flag(help: "Use the rules baseline instead of a model.")
    var rules = false

    @Flag(help: "Keep the per-window modes as the model gives them, without temporal smoothing.")
    var noSmoothing = false

    @Flag(
        help: ArgumentHelp(
            "Do not make still the windows of vehicle stops found in the acceleration.",
            discussion:
                "By default, stretches classified as car, bus or train, recorded at 20 Hz or more, are searched for stops of --min-stop-s or more (ride comfort's stop detector), and their windows are made still after smoothing."
        ))
    var noVehicleStops = false

    @Option(help: "The CSV file to write.")
    var out = "reports/modes.csv"

    @Option(help: "Also keep the windows' modes in this SQLite store, replacing earlier ones of the same traces, for `pipeline trips`.")
    var store: String?

    @OptionGroup var input: InputOptions
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var legContext: LegContextOptions

    func run() throws {
        let progress = ProgressReporter()
        var saved: ModeModel?
        if !rules {
            do { saved = try ModeModel.load(path: DefaultModel.resolve(model)) } catch let error as PipelineError
                where error.code == .modelUnreadable
            {
                let advice = error.message + " (train one with `pipeline train`, or use --rules)"
                try fail(PipelineError(error.code, advice, at: error.location), json: false, progress: progress)
            }
        }
        var predictor = ModePredictor(model: saved, smooth: !noSmoothing)
        predictor.smoother = smoothing.smoother
        var run = FeatureRun(loader: try input.loader, window: saved?.window ?? .init())
        run.keepsFixes = saved?.gpsLegs != nil
        // The one way windows are decided, `pipeline run`'s too (RecordingClassifier).
        let classifier = RecordingClassifier(
            predictor: predictor, findsVehicleStops: !noSmoothing && !noVehicleStops,
            minimumStopSeconds: predictor.smoother.minimumStopSeconds)
        run.onRecording = { recording, part in classifier.observe(recording, part: part) }
        let output = try run.run(paths, progress: progress)
        var prediction = classifier.predict(output.table)
        var gpsLegs = 0
        if let legModel = saved?.gpsLegs {
            // The speed rules cut the legs (a GPS window model trained at 1 Hz misreads a sparse
            // logger's walk as still); the leg model names them. Under a model of GPS alone its
            // windows are regrouped into legs too.
            let rules = ModePredictor(model: nil, smooth: !noSmoothing).predict(output.table).modes
            let features = try legContext.legFeatures(progress: progress)
            if legModel.usesTransitGeofences != (features.transitDistanceMeters != nil) {
                progress.log(
                    legModel.usesTransitGeofences
                        ? "warning: the GPS leg model was trained with transit geofences and none are given (--geofences): its legs lack the distances of their ends from transit"
                        : "the GPS leg model was trained without transit geofences: --geofences is not used")
            }
            gpsLegs = GPSLegDecision.apply(
                legModel, windows: output.table.windows, fixesByTrace: output.fixes, prediction: &prediction,
                deciding: saved!.usesInertial ? [.rules] : [.rules, .model], segmentation: rules, features: features)
        }
        let stopWindows = classifier.applyStops(windows: output.table.windows, to: &prediction)
        try ModesCSV.write(output.table.windows, prediction: prediction, to: out)
        if let store {
            try runStage(json: false, progress: progress) {
                try StoreSession.run(storePath: store) {
                    try $0.replaceModeWindows(ModesCSV.storeRows(output.table.windows, prediction: prediction))
                }
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
        progress.log(Self.decidedBy(prediction.sources, gpsLegs: gpsLegs, model: saved))
        let stopCount = classifier.stopCount
        if stopCount > 0 {
            progress.log(
                "vehicle stops: \(stopCount) stops of \(String(format: "%g", predictor.smoother.minimumStopSeconds)) s or more found in the acceleration of riding stretches; \(stopWindows) windows in them made still"
            )
        }
        for (trace, notes) in output.notes.sorted(by: { $0.key < $1.key }) {
            progress.log("\(trace): " + notes.joined(separator: "; "))
        }
        if !output.report.quarantined.isEmpty { throw ExitCode(2) }
    }

    /// Which classifier decided how many windows, and why the rules decided any under a model.
    static func decidedBy(_ sources: [Decider], gpsLegs: Int, model: ModeModel?) -> String {
        guard !sources.isEmpty else { return "decided by: nothing, there are no windows (each file's reason follows)" }
        var counts: [String: Int] = [:]
        for source in sources { counts[source.rawValue, default: 0] += 1 }
        var said =
            "decided by: "
            + counts.sorted { $0.key < $1.key }.map { source, count in
                source == GPSLegDecision.source.rawValue ? "\(source) \(count) windows in \(gpsLegs) legs" : "\(source) \(count) windows"
            }.joined(separator: ", ")
        if let model, let rules = counts["rules"], rules > 0 {
            said +=
                model.gpsLegs == nil
                ? "; the \(rules) windows the model cannot read (GPS only) were decided by the GPS speed rules (still, walk, bike, car only): "
                    + "the model has no GPS leg part (train one on labelled GPS legs with `pipeline train`)"
                : "; the \(rules) windows left to the GPS speed rules are still, or in legs too short for the GPS leg model (under 3 fixes or two 30 s chords)"
        }
        return said
    }
}
