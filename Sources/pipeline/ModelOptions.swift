import ArgumentParser
import Classify

/// Training and smoothing parameters as options; defaults and reasons come from the types.
struct TrainingOptions: ParsableArguments {
    @Option(help: "L2 penalty per weight of the logistic regression.")
    var l2 = SoftmaxRegression.Training().l2

    @Option(help: "Full-batch optimisation steps.")
    var steps = SoftmaxRegression.Training().steps

    @Option(help: "Seed of the initial weights and of the fold assignment.")
    var seed = SoftmaxRegression.Training().seed

    @OptionGroup var smoothing: SmoothingOptions

    var trainer: ModeTrainer {
        var trainer = ModeTrainer()
        trainer.training.l2 = l2
        trainer.training.steps = steps
        trainer.training.seed = seed
        trainer.smoothing = smoothing.smoother
        return trainer
    }

    func validate() throws {
        guard l2 >= 0, steps > 0 else { throw ValidationError("--l2 must be ≥ 0 and --steps > 0") }
    }
}

struct SmoothingOptions: ParsableArguments {
    @Option(name: .customLong("switch-penalty"), help: "Cost of a mode switch in the smoothing pass, nats.")
    var switchPenalty = ModeSmoother().switchPenalty

    @Option(name: .customLong("min-segment-s"), help: "Shortest mode segment kept by smoothing, seconds.")
    var minimumSegmentSeconds = ModeSmoother().minimumSegmentSeconds

    var smoother: ModeSmoother {
        ModeSmoother(switchPenalty: switchPenalty, minimumSegmentSeconds: minimumSegmentSeconds)
    }

    func validate() throws {
        guard switchPenalty >= 0, minimumSegmentSeconds >= 0 else {
            throw ValidationError("--switch-penalty and --min-segment-s must be ≥ 0")
        }
    }
}
