import ArgumentParser
import PipelineRunner

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

    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        var classify = ClassifyRun(paths: paths, out: out, loader: try input.loader)
        (classify.model, classify.storePath) = (rules ? nil : model, store.map(StorePath.resolved))
        (classify.smooth, classify.smoother, classify.findsVehicleStops) = (!noSmoothing, smoothing.smoother, !noVehicleStops)
        let progress = ProgressReporter()
        classify.legFeatures = { [legContext] in try legContext.legFeatures(progress: progress) }
        let status = try runStage(json: false, progress: progress) { try classify.run(progress: progress) }
        if status != 0 { throw ExitCode(status) }
    }
}
