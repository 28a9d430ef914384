import ArgumentParser
import Classify
import Foundation
import PipelineRunner

struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a transport-mode model on labelled traces and save it as a versioned JSON file.",
        discussion: """
            The model is a small neural network (one hidden layer of ReLU units; --model-kind softmax_regression for a \
            multinomial logistic regression) on the windowed features (signed-log and standardised, balanced by mode and \
            device, L2-penalised, fixed seed), followed by HMM/Viterbi smoothing. It learns only from features every \
            training phone delivers. The file records the feature \
            schema, window parameters, classes and where the training data came from. Labels come from per-sample \
            columns, label files, manifest.csv or --name-pattern's mode group; names map to modes through the mode table. \
            Labelled GPS fixes also train a GPS leg model: each labelled interval of movement is a leg, described by its \
            speed percentiles over 30 s chords, acceleration, stops and turns per km, straightness, length and duration, \
            as recorded and thinned to one fix every 10 s and 60 s; its classifier (network or logistic regression) is \
            chosen on inner folds over devices (--group-by). It names GPS-only legs in `classify`, `trips` and `run`.
            """
    )

    @Argument(help: "Labelled trace files or folders.")
    var paths: [String]

    @Option(help: ArgumentHelp("The model file to write (required: train writes nowhere it was not told to).", valueName: "file"))
    var model: String

    @Flag(help: "Replace the model file if it exists. Default: off (an existing model is never overwritten).")
    var force = false

    @Option(
        name: .customLong("leg-data"),
        help: ArgumentHelp(
            "Labelled GPS traces, file or folder, that train only the GPS leg model; repeatable. Default: none.",
            discussion:
                "Their windows train nothing, so a GPS data set (MobilityNet) can name GPS-only legs without teaching the window model that phones have no IMU.",
            valueName: "path"))
    var legData: [String] = []

    @Option(
        name: .customLong("choose-with"),
        help: ArgumentHelp(
            "Labelled GPS traces, file or folder, that choose the GPS leg model's calibration and type threshold and never train its weights; repeatable. Default: none.",
            discussion:
                "For a data set whose licence allows evaluating with it but not training on it (gps/cbs-ssi, EUPL-1.2): its legs are predicted by the model of the training legs, beside each training data set predicted by a model of the others.",
            valueName: "path"))
    var chooseWith: [String] = []

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Groups of the inner folds that choose the GPS leg model's classifier: person, device, trace or day.",
            discussion:
                "person: every leg of a named person (manifest, --name-pattern), or of a device where none is named, in one fold. day, for one person's data (MobilityNet): every leg of a date, of any device, in one fold. Default: person."
        ))
    var groupBy: GroupedCrossValidation.GroupBy = .person

    @OptionGroup var input: InputOptions
    @OptionGroup var window: WindowOptions
    @OptionGroup var training: TrainingOptions
    @OptionGroup var supplement: SupplementOptions
    @OptionGroup var legContext: LegContextOptions

    func validate() throws {
        if groupBy == .dataset {
            throw ValidationError(
                "--group-by dataset is evaluate's (leave one data set out); train chooses the leg model's classifier on inner folds by person, device, trace or day"
            )
        }
        if !force, FileManager.default.fileExists(atPath: model) {
            throw ValidationError("\(model) exists; give --force to replace it, or another --model file")
        }
    }

    func run() throws {
        let progress = ProgressReporter()
        try runStage(json: false, progress: progress) { try training(progress: progress).run(progress: progress) }
    }

    /// The run these options describe.
    private func training(progress: ProgressReporter) throws -> TrainingRun {
        var run = TrainingRun(paths: paths, model: model, loader: try input.loader, listing: try input.listing)
        (run.legData, run.chooseWith, run.groupBy, run.window) = (legData, chooseWith, groupBy, window.parameters)
        (run.restrict, run.trainer, run.supplement) = (training.restrict, training.trainer, supplement.supplement)
        (run.legFeatures, run.command) = (
            try legContext.legFeatures(progress: progress), "pipeline " + CommandLine.arguments.dropFirst().joined(separator: " ")
        )
        return run
    }
}
