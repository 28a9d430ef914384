import ArgumentParser
import Classify
import Features
import Foundation
import MobilityCore

extension ModeTrainer.Balance: ExpressibleByArgument {}
extension ModeTrainer.Kind: ExpressibleByArgument {}

/// A comma-separated list of modes given to an option, e.g. `still,walk,car`.
enum ModeList {
    /// The modes, or an error naming the option, the unknown names and the known modes.
    static func parse(_ text: String, option: String) throws -> Set<Mode> {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let unknown = names.filter { Mode(rawValue: $0) == nil }
        guard unknown.isEmpty else {
            throw ValidationError(
                "\(option): unknown mode \(unknown.joined(separator: ", ")); modes are "
                    + Mode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return Set(names.compactMap(Mode.init(rawValue:)))
    }
}

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

    @Option(
        help: ArgumentHelp(
            "Learn and score only windows labelled with these modes, comma-separated, e.g. still,walk,car.",
            discussion: "Windows of other modes are left out. Default: every mode the labels bring."))
    var modes: String?

    @Option(
        help: ArgumentHelp(
            "What the training weights balance.",
            discussion:
                "mode-then-device: every mode weighs alike, and within a mode every device that recorded it; device-and-mode: every (device, mode) pair weighs alike, so a mode one phone recorded counts for less; mode: every mode weighs alike, whichever phones recorded it."
        ))
    var balance = ModeTrainer.Balance.modeThenDevice

    @Flag(
        name: .customLong("no-gravity-free-model"),
        help: ArgumentHelp(
            "Do not train the second classifier for windows without gravity (|a|, vertical and horizontal missing).",
            discussion:
                "A model trained so leaves recordings of gravity-free acceleration alone (Sensor Logger's Accelerometer.csv) to the rules.")
    )
    var noGravityFreeModel = false

    @OptionGroup var smoothing: SmoothingOptions

    /// The modes `--modes` names, or nil for all.
    var modeSet: Set<Mode>? {
        modes.flatMap { try? ModeList.parse($0, option: "--modes") }
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
        trainer.gravityFreeModel = !noGravityFreeModel
        trainer.smoothing = smoothing.smoother
        return trainer
    }

    func validate() throws {
        guard l2 >= 0, steps > 0, hidden > 0, epochs > 0 else {
            throw ValidationError("--l2 must be ≥ 0, and --steps, --hidden and --epochs > 0")
        }
        if let modes { _ = try ModeList.parse(modes, option: "--modes") }
    }
}

struct SmoothingOptions: ParsableArguments {
    @Option(name: .customLong("switch-penalty"), help: "Cost of a mode switch in the smoothing pass, nats.")
    var switchPenalty = ModeSmoother().switchPenalty

    @Option(name: .customLong("min-segment-s"), help: "Shortest mode segment kept by smoothing, seconds.")
    var minimumSegmentSeconds = ModeSmoother().minimumSegmentSeconds

    @Option(
        name: .customLong("min-stop-s"),
        help: "Shortest run of still windows that smoothing keeps still (a stop at a station or a light), seconds.")
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

/// What the nested cross-validation of `evaluate` chooses among, on inner folds only.
struct SearchOptions: ParsableArguments {
    @Option(
        name: .customLong("inner-folds"),
        help: ArgumentHelp(
            "Inner folds of the nested cross-validation that chooses each outer fold's options; 0 scores the options as given.",
            discussion:
                "Chosen per outer fold, on its training groups only: --search-kinds × --search-balances × --search-switch-penalties. With 0, --model-kind, --balance and --switch-penalty are used as given."
        ))
    var innerFolds = 3

    @Option(
        name: .customLong("search-kinds"),
        help: "Classifier kinds the nested cross-validation of `evaluate` chooses among, comma-separated.")
    var searchKinds = "mlp,softmax_regression"

    @Option(
        name: .customLong("search-balances"),
        help: "Training balances the nested cross-validation of `evaluate` chooses among, comma-separated.")
    var searchBalances = "mode-then-device,mode"

    @Option(
        name: .customLong("search-switch-penalties"),
        help: "Smoothing switch penalties the nested cross-validation of `evaluate` chooses among, nats, comma-separated.")
    var searchSwitchPenalties = "3,6,12"

    /// The nested cross-validation's candidates: every listed kind × balance, each with every
    /// listed switch penalty, the other options as given.
    func search(around trainer: ModeTrainer) -> OptionSearch? {
        guard innerFolds > 0 else { return nil }
        var trainers: [ModeTrainer] = []
        for kind in list(searchKinds).compactMap(ModeTrainer.Kind.init(rawValue:)) {
            for balance in list(searchBalances).compactMap(ModeTrainer.Balance.init(rawValue:)) {
                var candidate = trainer
                candidate.kind = kind
                candidate.balance = balance
                trainers.append(candidate)
            }
        }
        return OptionSearch(
            trainers: trainers, switchPenalties: list(searchSwitchPenalties).compactMap(Double.init), innerFolds: innerFolds)
    }

    func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        guard innerFolds == 0 || innerFolds >= 2 else { throw ValidationError("--inner-folds must be 0 (no nesting) or at least 2") }
        let badKinds = list(searchKinds).filter { ModeTrainer.Kind(rawValue: $0) == nil }
        let badBalances = list(searchBalances).filter { ModeTrainer.Balance(rawValue: $0) == nil }
        let penalties = list(searchSwitchPenalties)
        guard badKinds.isEmpty, !list(searchKinds).isEmpty else {
            throw ValidationError(
                "--search-kinds: expected some of \(ModeTrainer.Kind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(searchKinds)'"
            )
        }
        guard badBalances.isEmpty, !list(searchBalances).isEmpty else {
            throw ValidationError(
                "--search-balances: expected some of \(ModeTrainer.Balance.allCases.map(\.rawValue).joined(separator: ", ")), got '\(searchBalances)'"
            )
        }
        guard !penalties.isEmpty, penalties.allSatisfy({ Double($0).map { $0 >= 0 } ?? false }) else {
            throw ValidationError(
                "--search-switch-penalties: expected non-negative numbers, comma-separated, got '\(searchSwitchPenalties)'")
        }
    }
}
