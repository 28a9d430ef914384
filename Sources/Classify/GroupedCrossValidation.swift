import Features
import MobilityCore

/// k-fold cross-validation in which every window of a group (a device, i.e. a person, or a
/// trace) falls in the same fold, so a model is never scored on the person or recording it
/// was trained on: splitting windows at random would let overlapping neighbours of a test
/// window sit in the training set and report scores that mean nothing.
///
/// Groups are dealt to folds largest first, each to the fold with the fewest windows so far
/// (ties broken by a seeded shuffle), which keeps folds balanced. With as many folds as
/// groups this is leave-one-group-out.
public struct GroupedCrossValidation: Sendable {
    public enum GroupBy: String, Sendable, CaseIterable {
        case device, trace
    }

    public var groupBy: GroupBy
    /// Number of folds, capped at the number of groups. Default 5.
    public var folds: Int
    public var seed: UInt64

    public init(groupBy: GroupBy = .device, folds: Int = 5, seed: UInt64 = 42) {
        self.groupBy = groupBy
        self.folds = folds
        self.seed = seed
    }

    public func group(of window: WindowInfo) -> String { groupBy == .device ? window.device : window.trace }

    /// The fold of every window, in table order, and the groups of each fold.
    public func assign(_ windows: [WindowInfo]) -> (folds: [Int], groups: [[String]]) {
        var sizes: [String: Int] = [:]
        for window in windows { sizes[group(of: window), default: 0] += 1 }
        var generator = SeededGenerator(seed: seed)
        let shuffled = sizes.keys.sorted().shuffled(using: &generator)
        let order = shuffled.enumerated().sorted { (sizes[$0.element]!, -$0.offset) > (sizes[$1.element]!, -$1.offset) }.map(\.element)
        let count = max(1, min(folds, sizes.count))
        var load = [Int](repeating: 0, count: count), groups = [[String]](repeating: [], count: count)
        var foldOf: [String: Int] = [:]
        for name in order {
            let fold = load.indices.min { load[$0] < load[$1] }!
            foldOf[name] = fold
            load[fold] += sizes[name]!
            groups[fold].append(name)
        }
        return (windows.map { foldOf[group(of: $0)]! }, groups.map { $0.sorted() })
    }

    public struct Evaluation: Sendable {
        public var smoothed = ConfusionMatrix<Mode>()
        public var unsmoothed = ConfusionMatrix<Mode>()
        public var baseline = ConfusionMatrix<Mode>()
        public var baselineUnsmoothed = ConfusionMatrix<Mode>()
        public var folds: [Fold] = []
        public var groupBy: GroupBy = .device

        public struct Fold: Sendable {
            public var testGroups: [String]
            public var windows: Int
            public var macroF1: Double
            /// Modes of the test fold that its training folds never showed.
            public var unseenModes: [Mode]
        }
    }

    /// Trains on all folds but one and scores on that one, for each fold in turn; the scores
    /// are over all test windows together. The rules baseline is scored on the same windows.
    public func evaluate(_ table: FeatureTable, trainer: ModeTrainer, window: WindowParameters) throws -> Evaluation {
        let labelled = ModeTrainer.labelled(table)
        let (assignment, groups) = assign(labelled.windows)
        var evaluation = Evaluation()
        evaluation.groupBy = groupBy
        for fold in groups.indices {
            let training = labelled.subset(assignment.indices.filter { assignment[$0] != fold })
            let test = labelled.subset(assignment.indices.filter { assignment[$0] == fold })
            let provenance = ModeModel.Provenance(command: "cross-validation", inputs: [], recordings: 0, devices: [],
                                                  windowsPerClass: [:], training: trainer.training, toolVersion: "")
            let model = try trainer.train(training, window: window, provenance: provenance)
            let truth = test.windows.map { $0.mode! }
            let predicted = ModePredictor(model: model).predict(test)
            let rules = ModePredictor(model: nil).predict(test)
            var foldMatrix = ConfusionMatrix<Mode>()
            for (index, actual) in truth.enumerated() {
                evaluation.smoothed.add(truth: actual, predicted: predicted.modes[index])
                evaluation.unsmoothed.add(truth: actual, predicted: predicted.raw[index])
                evaluation.baseline.add(truth: actual, predicted: rules.modes[index])
                evaluation.baselineUnsmoothed.add(truth: actual, predicted: rules.raw[index])
                foldMatrix.add(truth: actual, predicted: predicted.modes[index])
            }
            let unseen = Set(truth).subtracting(model.classes).sorted()
            evaluation.folds.append(.init(testGroups: groups[fold], windows: test.count, macroF1: foldMatrix.macroF1, unseenModes: unseen))
        }
        return evaluation
    }
}
