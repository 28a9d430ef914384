import Features
import MobilityCore

/// The choices a nested cross-validation makes on inner folds only: which classifier, which
/// training balance and which smoothing switch penalty. For each outer fold, every candidate
/// is scored by grouped cross-validation on that fold's training people alone (the inner
/// folds), and the best inner macro-F1 is trained on all of them and scored once on the held-out
/// people. The held-out people never influence a choice, so the outer score is what a choice
/// made this way would give on people nobody has seen (Varma & Simon 2006, BMC Bioinformatics
/// 7:91, on the optimism of choosing on the folds one reports).
public struct OptionSearch: Sendable {
    /// Candidate trainers (kind and balance); their smoothing is replaced by each penalty.
    public var trainers: [ModeTrainer]
    /// Candidate smoothing switch penalties, nats. Smoothing is re-run on the same inner
    /// predictions for each, so a penalty costs no training.
    public var switchPenalties: [Double]
    /// Inner folds, at most the outer training fold's groups. Default 3.
    public var innerFolds: Int

    public init(trainers: [ModeTrainer], switchPenalties: [Double], innerFolds: Int = 3) {
        self.trainers = trainers
        self.switchPenalties = switchPenalties
        self.innerFolds = innerFolds
    }

    public struct Choice: Sendable {
        public var trainer: ModeTrainer
        /// The inner macro-F1 of the chosen candidate; nil when there was nothing to choose
        /// on (one group, or one candidate) and the first candidate was taken.
        public var innerMacroF1: Double?

        public var description: String {
            "\(trainer.kind.rawValue), balance \(trainer.balance.rawValue), switch penalty "
                + String(format: "%g", trainer.smoothing.switchPenalty)
                + (innerMacroF1.map { String(format: " (inner macro-F1 %.3f)", $0) } ?? " (not searched)")
        }
    }

    var candidates: [ModeTrainer] {
        trainers.flatMap { trainer in
            (switchPenalties.isEmpty ? [trainer.smoothing.switchPenalty] : switchPenalties).map { penalty in
                var candidate = trainer
                candidate.smoothing.switchPenalty = penalty
                return candidate
            }
        }
    }

    /// The candidate with the best macro-F1 over grouped inner folds of `training`; ties go to
    /// the earlier candidate. `supplement`'s windows join every inner training set and are never scored.
    public func choose(
        _ training: FeatureTable, groupBy: GroupedCrossValidation.GroupBy, seed: UInt64,
        window: WindowParameters, supplement: FeatureTable = FeatureTable(), persons: [String: String] = [:]
    ) -> Choice {
        let candidates = self.candidates
        let inner = GroupedCrossValidation(groupBy: groupBy, folds: innerFolds, seed: seed, persons: persons)
        let (assignment, groups) = inner.assign(training.windows)
        guard candidates.count > 1, groups.count >= 2 else { return Choice(trainer: candidates[0], innerMacroF1: nil) }
        let penalties = switchPenalties.isEmpty ? [nil] : switchPenalties.map(Optional.some)
        var matrices = [ConfusionMatrix<Mode>](repeating: ConfusionMatrix(), count: candidates.count)
        for fold in groups.indices {
            var fit = training.subset(assignment.indices.filter { assignment[$0] != fold })
            let test = training.subset(assignment.indices.filter { assignment[$0] == fold })
            // A fold whose training people hold one mode only teaches nothing: it is left out for every candidate.
            guard Set(fit.windows.compactMap(\.mode)).count >= 2 else { continue }
            fit.append(supplement)
            for (t, candidate) in trainers.enumerated() {
                var trainer = candidate
                trainer.gravityFreeModel = false // inner folds score windows with gravity only: the second classifier would go unused
                guard let model = try? trainer.train(fit, window: window, provenance: .crossValidation) else { continue }
                let predictor = ModePredictor(model: model)
                let prediction = predictor.predict(test)
                for (p, penalty) in penalties.enumerated() {
                    var smoother = model.smoothing
                    if let penalty { smoother.switchPenalty = penalty }
                    let modes = predictor.resmooth(prediction, windows: test.windows, with: smoother)
                    for (index, window) in test.windows.enumerated() {
                        matrices[t * penalties.count + p].add(truth: window.mode!, predicted: modes[index])
                    }
                }
            }
        }
        guard
            let best = matrices.indices.filter({ matrices[$0].total > 0 }).max(by: {
                (matrices[$0].macroF1, -$0) < (matrices[$1].macroF1, -$1)
            })
        else { return Choice(trainer: candidates[0], innerMacroF1: nil) }
        return Choice(trainer: candidates[best], innerMacroF1: matrices[best].macroF1)
    }
}

extension ModeModel.Provenance {
    /// The provenance of a model trained inside a cross-validation, never saved.
    static let crossValidation = ModeModel.Provenance(
        command: "cross-validation", inputs: [], recordings: 0, devices: [],
        windowsPerClass: [:], training: nil, toolVersion: "")
}
