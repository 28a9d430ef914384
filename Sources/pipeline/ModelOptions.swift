import ArgumentParser
import Classify
import Features
import Foundation
import MobilityCore

extension ModeTrainer.Balance: ExpressibleByArgument {}
extension ModeTrainer.Kind: ExpressibleByArgument {}

/// Training and smoothing parameters as options; defaults and reasons come from the types.
struct TrainingOptions: ParsableArguments {
    @Option(name: .customLong("model-kind"), help: "The classifier to train: mlp (one hidden layer) or softmax_regression.")
    var kind = ModeTrainer.Kind.mlp

    @Option(help: "L2 penalty per weight.")
    var l2 = MultilayerPerceptron.Training().l2

    @Option(help: "Hidden units of the mlp.")
    var hidden = MultilayerPerceptron.Training().hidden

    @Option(help: "Passes over the training windows (mlp).")
    var epochs = MultilayerPerceptron.Training().epochs

    @Option(help: "Full-batch optimisation steps (softmax_regression).")
    var steps = SoftmaxRegression.Training().steps

    @Option(help: "Seed of the initial weights and of the fold assignment.")
    var seed = SoftmaxRegression.Training().seed

    @Option(help: ArgumentHelp("Learn and score only windows labelled with these modes, comma-separated, e.g. still,walk,car.",
                               discussion: "Windows of other modes are left out. Default: every mode the labels bring."))
    var modes: String?

    @Option(help: ArgumentHelp("What the training weights balance.",
                               discussion: "mode-then-device: every mode weighs alike, and within a mode every device that recorded it; device-and-mode: every (device, mode) pair weighs alike, so a mode one phone recorded counts for less; mode: every mode weighs alike, whichever phones recorded it."))
    var balance = ModeTrainer.Balance.modeThenDevice

    @OptionGroup var smoothing: SmoothingOptions

    /// The modes `--modes` names, or nil for all.
    var modeSet: Set<Mode>? {
        modes.map { Set($0.split(separator: ",").compactMap { Mode(rawValue: $0.trimmingCharacters(in: .whitespaces)) }) }
    }

    /// `table` without the windows of modes outside `--modes`.
    func restrict(_ table: FeatureTable) -> FeatureTable {
        guard let kept = modeSet else { return table }
        return table.filter { $0.mode.map(kept.contains) ?? false }
    }

    var trainer: ModeTrainer {
        var trainer = ModeTrainer()
        trainer.kind = kind
        trainer.training.l2 = l2
        trainer.training.steps = steps
        trainer.training.seed = seed
        trainer.network.l2 = l2
        trainer.network.hidden = hidden
        trainer.network.epochs = epochs
        trainer.network.seed = seed
        trainer.balance = balance
        trainer.smoothing = smoothing.smoother
        return trainer
    }

    func validate() throws {
        guard l2 >= 0, steps > 0, hidden > 0, epochs > 0 else {
            throw ValidationError("--l2 must be ≥ 0, and --steps, --hidden and --epochs > 0")
        }
        if let modes {
            let unknown = modes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { Mode(rawValue: $0) == nil }
            guard unknown.isEmpty else {
                throw ValidationError("--modes: unknown mode \(unknown.joined(separator: ", ")); modes are "
                                      + Mode.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
    }
}

struct SmoothingOptions: ParsableArguments {
    @Option(name: .customLong("switch-penalty"), help: "Cost of a mode switch in the smoothing pass, nats.")
    var switchPenalty = ModeSmoother().switchPenalty

    @Option(name: .customLong("min-segment-s"), help: "Shortest mode segment kept by smoothing, seconds.")
    var minimumSegmentSeconds = ModeSmoother().minimumSegmentSeconds

    @Option(name: .customLong("min-stop-s"), help: "Shortest run of still windows that smoothing keeps still (a stop at a station or a light), seconds.")
    var minimumStopSeconds = ModeSmoother().minimumStopSeconds

    var smoother: ModeSmoother {
        ModeSmoother(switchPenalty: switchPenalty, minimumSegmentSeconds: minimumSegmentSeconds, minimumStopSeconds: minimumStopSeconds)
    }

    func validate() throws {
        guard switchPenalty >= 0, minimumSegmentSeconds >= 0, minimumStopSeconds >= 0 else {
            throw ValidationError("--switch-penalty, --min-segment-s and --min-stop-s must be ≥ 0")
        }
    }
}
