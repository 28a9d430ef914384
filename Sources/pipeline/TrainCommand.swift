import ArgumentParser
import Classify
import Features
import Foundation
import MobilityCore
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
        var run = FeatureRun(loader: try input.loader, window: window.parameters)
        run.legThinningSeconds = LegTrainer.thinningSeconds
        run.legSpeedScales = LegTrainer.speedScales
        run.legFeatures = try legContext.legFeatures(progress: progress)
        var output = try run.run(paths, progress: progress)
        if !legData.isEmpty {
            let legsOnly = try run.run(legData, progress: progress)
            output.legs.append(legsOnly.legs)
            output.report.recordings += legsOnly.report.recordings
            output.report.unknownModes.formUnion(legsOnly.report.unknownModes)
        }
        output.table = training.restrict(output.table)
        output.table.append(try supplement.table(loader: try input.loader, window: window.parameters, progress: progress))
        let labelled = ModeTrainer.labelled(output.table)
        var perClass: [String: Int] = [:]
        for window in labelled.windows { perClass[window.mode!.rawValue, default: 0] += 1 }
        var provenance = ModeModel.Provenance(
            command: "pipeline " + CommandLine.arguments.dropFirst().joined(separator: " "), inputs: paths + legData,
            recordings: output.report.recordings, devices: Array(Set(labelled.windows.map(\.device))).sorted(),
            windowsPerClass: perClass, training: training.kind == .softmaxRegression ? training.trainer.training : nil,
            networkTraining: training.kind == .mlp ? training.trainer.network : nil, toolVersion: Pipeline.configuration.version)
        provenance.supplement = supplement.supplement?.description
        var used = DataIdentity.windowsPerTrace(labelled)
        for leg in LegTrainer.labelled(output.legs).legs where used[leg.trace] == nil { used[leg.trace] = 0 }
        let identity = try DataIdentity(paths: paths + supplement.paths + legData, listing: try input.listing, windows: used)
        provenance.trainingInputs = identity.inputs.values.sorted { $0.path < $1.path }
        provenance.persons = Set(identity.inputs.values.map(\.person)).sorted()
        do {
            var trained = try training.trainer.train(output.table, window: window.parameters, provenance: provenance)
            let persons = try DataIdentity.persons(paths: paths + legData, listing: try input.listing)
            trained.gpsLegs = try Self.legModel(output.legs, groupBy: groupBy, persons: persons, progress: progress)
            try trained.save(path: model)
            progress.log(
                "trained on \(labelled.count) windows of \(output.report.recordings) recordings ("
                    + perClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + "); wrote \(model)")
        } catch let error as PipelineError where error.code == .cannotTrain {
            try fail(error, json: false, progress: progress)
        }
        if !output.report.unknownModes.isEmpty {
            progress.log("label names not in the mode table (left out): " + output.report.unknownModes.sorted().joined(separator: ", "))
        }
    }

    /// The GPS leg model of the labelled legs, its classifier chosen on inner folds over people;
    /// nil, said in the log, when the legs are of fewer than two modes of movement.
    static func legModel(
        _ legs: LegTable, groupBy: GroupedCrossValidation.GroupBy, persons: [String: String],
        progress: ProgressReporter
    ) throws -> GPSLegModel? {
        let labelled = LegTrainer.labelled(legs)
        let modes = Set(labelled.legs.compactMap { $0.mode })
        guard modes.count >= 2 else {
            progress.log(
                "no GPS leg model: the inputs have labelled GPS legs of \(modes.count) modes of movement "
                    + (modes.isEmpty ? "" : "(\(modes.map { $0.rawValue }.sorted().joined(separator: ", "))) ")
                    + "and it needs two; GPS-only legs will be decided by the speed rules")
            return nil
        }
        let (kind, inner) = try LegCrossValidation(groupBy: groupBy, persons: persons).choose(labelled)
        let model = try LegTrainer(kind: kind).train(labelled)
        let chosen = kind.rawValue + (inner.map { String(format: ", inner-fold macro-F1 %.3f", $0) } ?? "")
        let perClass = model.legsPerClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let thinning = model.thinnedToSeconds.map { String(format: "%g", $0) }.joined(separator: " and ")
        let paces = (model.speedScales ?? []).map { String(format: "%g", $0) }.joined(separator: " and ")
        progress.log(
            "GPS leg model (\(chosen)) trained on \(perClass) legs of \(model.devices.count) devices, also thinned to one fix every \(thinning) s"
                + (paces.isEmpty ? "" : " and replayed at \(paces) times their pace"))
        return model
    }
}
