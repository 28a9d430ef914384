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
            columns, label files, manifest.csv or --name-pattern's mode group; names map to modes through the mode table.
            """
    )

    @Argument(help: "Labelled trace files or folders.")
    var paths: [String]

    @Option(help: "The model file to write.")
    var model = "models/mode-model.json"

    @OptionGroup var input: InputOptions
    @OptionGroup var window: WindowOptions
    @OptionGroup var training: TrainingOptions
    @OptionGroup var supplement: SupplementOptions

    func run() throws {
        let progress = Progress()
        var output = try FeatureRun(loader: try input.loader, window: window.parameters).run(paths, progress: progress)
        output.table = training.restrict(output.table)
        output.table.append(try supplement.table(loader: try input.loader, window: window.parameters, progress: progress))
        let labelled = ModeTrainer.labelled(output.table)
        var perClass: [String: Int] = [:]
        for window in labelled.windows { perClass[window.mode!.rawValue, default: 0] += 1 }
        var provenance = ModeModel.Provenance(
            command: "pipeline " + CommandLine.arguments.dropFirst().joined(separator: " "), inputs: paths,
            recordings: output.report.recordings, devices: Array(Set(labelled.windows.map(\.device))).sorted(),
            windowsPerClass: perClass, training: training.kind == .softmaxRegression ? training.trainer.training : nil,
            networkTraining: training.kind == .mlp ? training.trainer.network : nil, toolVersion: Pipeline.configuration.version)
        provenance.supplement = supplement.supplement?.description
        do {
            let trained = try training.trainer.train(output.table, window: window.parameters, provenance: provenance)
            try trained.save(path: model)
            progress.log("trained on \(labelled.count) windows of \(output.report.recordings) recordings ("
                         + perClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                         + "); wrote \(model)")
        } catch let error as ModeTrainer.TrainingError {
            progress.log("error: \(error)")
            throw ExitCode(1)
        }
        if !output.report.unknownModes.isEmpty {
            progress.log("label names not in the mode table (left out): " + output.report.unknownModes.sorted().joined(separator: ", "))
        }
    }
}
