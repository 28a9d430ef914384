import ArgumentParser
import Classify
import Features
import Foundation
import Fusion
import MobilityCore
import PipelineRunner

extension GroupedCrossValidation.GroupBy: ExpressibleByArgument {}

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a saved model on labelled traces, or cross-validate training grouped by device or trace.",
        discussion: """
            Without --model: nested grouped k-fold cross-validation. Every window of a device (a person), or of a \
            trace, stays in one fold, so nobody is scored on their own data; each fold's classifier, balance and \
            switch penalty are chosen on inner folds of its training groups alone (--inner-folds 0: as given). \
            Prints accuracy and macro-F1 with 95 % bootstrap intervals over people, per-class precision, recall, F1 \
            (with interval) and support for the classes present in the truth, the confusion matrix, per-recording \
            majority scores and what decided the windows (model or rules), for the model smoothed and unsmoothed \
            and for the rules baseline on the same windows. Inputs with labelled GPS fixes also get a GPS legs section: \
            every labelled interval of movement is a leg, scored as recorded and thinned to one fix every 10 s and 60 s, \
            by the GPS leg model (nested cross-validation by device, or the --model's own) beside trackintel's speed rule \
            (15 and 100 km/h), over the modes and as slow against motorised.
            """
    )

    @Argument(help: "Labelled trace files or folders.")
    var paths: [String]

    @Option(help: "A saved model to score (windows are cut with its own parameters). Default: none (cross-validate training instead).")
    var model: String?

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Cross-validation groups: person, device, trace, day or dataset.",
            discussion:
                "person holds out every recording of a person (a manifest's person column, --name-pattern's (?<person>…) group), so one person's two phones are never split between training and test; where no person is named, each device counts as one, and the output says so. day holds out every window and leg of a date (local solar time from a leg's position, else UTC), of any device: for one person's data, whose devices are never independent. dataset holds out each path given in turn (leave-one-data-set-out: trained on the others, scored on it; options chosen on inner folds by device); it needs two paths or more. With two paths or more, every evaluation also scores each data set apart. Intervals resample persons (days, grouped by day). Default: person."
        ))
    var groupBy: GroupedCrossValidation.GroupBy = .person

    @Option(help: "Cross-validation folds, at most the number of groups (as many as groups: leave-one-group-out).")
    var folds = 5

    @Option(
        name: .customLong("test-without-streams"),
        help: ArgumentHelp(
            "Score the windows as if their recordings lacked these streams, comma-separated (accelerometer, gyroscope, gravity, linear_acceleration).",
            discussion:
                "Training windows keep every stream. accelerometer,gravity scores the gravity-free form a phone's linear acceleration gives (Sensor Logger's Accelerometer.csv). Default: none."
        ))
    var testWithoutStreams: String?

    @Flag(help: "Print one JSON object on standard output.")
    var json = false

    @Flag(
        name: .customLong("legs-only"),
        help: ArgumentHelp(
            "Score only the GPS legs (the leg model beside trackintel's rule), not the windows. Default: off.",
            discussion:
                "For GPS-only data sets, where the windows' nested cross-validation would take most of the time and say less than the legs."
        ))
    var legsOnly = false

    @Option(
        name: .customLong("choose-with"),
        help: ArgumentHelp(
            "A labelled data set (file or folder) whose GPS legs choose the leg model's calibration and type threshold and are scored, never train; repeatable. Default: none.",
            discussion:
                "Without --model: in every fold its legs are predicted by the model of the training legs and choose with them; held out in turn (--group-by dataset), it is scored by a model trained and chosen without it. Added to the paths evaluated when not among them.",
            valueName: "path"))
    var chooseWith: [String] = []

    @OptionGroup var input: InputOptions
    @OptionGroup var window: WindowOptions
    @OptionGroup var training: TrainingOptions
    @OptionGroup var search: SearchOptions
    @OptionGroup var supplement: SupplementOptions
    @OptionGroup var legContext: LegContextOptions

    func validate() throws {
        if model != nil && !supplement.paths.isEmpty {
            throw ValidationError("--supplement only trains, and with --model nothing is trained: drop one of them")
        }
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2") }
        let given = Set(paths + chooseWith).count
        if groupBy == .dataset && given < 2 {
            throw ValidationError(
                "--group-by dataset holds out each path given in turn: give two data sets or more (got \(given) path)")
        }
        if model != nil && !chooseWith.isEmpty {
            throw ValidationError(
                "--choose-with chooses a trained model's calibration, and with --model nothing is trained: drop one of them")
        }
        if groupBy == .dataset && model != nil {
            throw ValidationError(
                "--group-by chooses cross-validation folds, and with --model nothing is trained: drop one of them (each path is still scored apart)"
            )
        }
        if let testWithoutStreams {
            let unknown = testWithoutStreams.split(separator: ",").map(String.init).filter { IMUSensor(rawValue: $0) == nil }
            guard unknown.isEmpty else {
                throw ValidationError(
                    "--test-without-streams: unknown stream \(unknown.joined(separator: ", ")); streams are "
                        + IMUSensor.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
    }

    func run() throws {
        let progress = ProgressReporter()
        let outcome = try runStage(json: json, progress: progress) { try evaluation(progress: progress).run(progress: progress) }
        switch outcome {
        case .legs(let legs): print(json ? try JSONText.string(legs, keys: .snakeCase, layout: .pretty) : legs.text)
        case .windows(let summary): print(json ? try summary.json() : summary.text)
        }
    }

    /// The run these options describe.
    private func evaluation(progress: ProgressReporter) throws -> EvaluationRun {
        var evaluation = EvaluationRun(paths: paths, loader: try input.loader, listing: try input.listing)
        (evaluation.model, evaluation.groupBy, evaluation.folds, evaluation.chooseWith) = (model, groupBy, folds, chooseWith)
        (evaluation.testWithoutStreams, evaluation.legsOnly, evaluation.window) = (testWithoutStreams, legsOnly, window.parameters)
        (evaluation.restrict, evaluation.trainer, evaluation.smoother) = (training.restrict, training.trainer, training.smoothing.smoother)
        (evaluation.search, evaluation.seed) = (search.search(around: training.trainer), training.seed)
        (evaluation.supplement, evaluation.legFeatures) = (supplement.supplement, try legContext.legFeatures(progress: progress))
        return evaluation
    }
}
