import Features
import MobilityCore

/// Nested cross-validation of the GPS leg model, grouped by person (or by day, for one
/// person's data: `groupBy`): each outer fold's
/// classifier (network or logistic regression) is chosen on inner folds of its training people
/// only, trained on their legs as recorded and thinned, and scored on the held-out people's
/// legs at every rate. trackintel's rule (`TrackintelBaseline`) is scored on the same legs.
public struct LegCrossValidation: Sendable {
    /// Outer folds, capped at the number of people. Default 5.
    public var folds = 5
    /// Inner folds per outer fold, capped at its training people. Default 3.
    public var innerFolds = 3
    public var kinds: [ModeTrainer.Kind] = [.mlp, .softmaxRegression]
    public var seed: UInt64 = 42
    /// What a fold holds out, outer and inner. Default person.
    public var groupBy = GroupedCrossValidation.GroupBy.person
    /// The data set of each trace, for `.dataset` (`GroupedCrossValidation.datasets`).
    public var datasets: [String: String] = [:]
    /// The person of each trace whose person is named (`GroupedCrossValidation.persons`).
    public var persons: [String: String] = [:]
    /// How a leg only GPS covers gets its mode from the leg model's probabilities, as `run`
    /// decides it (`LegModeRule.decideGPSAlone`); nil scores the most probable mode.
    public var decide: LegDecision?

    /// A leg's mode from the leg model's probability of each of its modes.
    public typealias LegDecision = @Sendable ([Mode: Double]) -> Mode

    public init(
        folds: Int = 5, innerFolds: Int = 3, seed: UInt64 = 42, groupBy: GroupedCrossValidation.GroupBy = .person,
        datasets: [String: String] = [:], persons: [String: String] = [:], decide: LegDecision? = nil
    ) {
        self.folds = folds
        self.innerFolds = innerFolds
        self.seed = seed
        self.groupBy = groupBy
        self.datasets = datasets
        self.persons = persons
        self.decide = decide
    }

    public struct Evaluation: Sendable {
        /// Per thinning interval (nil: as recorded), every held-out leg once: `raw` is the leg
        /// model's most probable mode, `smoothed` the mode `decide` makes of it (`outcomes`),
        /// `baseline` and `baselineRaw` trackintel's.
        public var outcomes: [Double?: [WindowOutcome]] = [:]
        public var folds: [Fold] = []
        public var groupBy = GroupedCrossValidation.GroupBy.person

        public struct Fold: Sendable {
            public var testGroups: [String]
            public var legs: Int
            /// The classifier the inner folds chose, and their macro-F1 for it.
            public var kind: ModeTrainer.Kind
            public var innerMacroF1: Double?
            public var unseenModes: [Mode]
        }
    }

    /// `table` holds the legs of every person as recorded and thinned (`thinnedToSeconds`).
    public func evaluate(_ table: LegTable) throws -> Evaluation {
        let labelled = LegTrainer.labelled(table)
        let (assignment, groups) = Self.assign(labelled, folds: folds, seed: seed, groupBy: groupBy, datasets: datasets, persons: persons)
        var evaluation = Evaluation()
        evaluation.groupBy = groupBy
        guard groups.count >= 2 else { return evaluation }
        for fold in groups.indices {
            let training = labelled.subset(assignment.indices.filter { assignment[$0] != fold })
            let test = labelled.subset(assignment.indices.filter { assignment[$0] == fold })
            let (kind, inner) = try choose(training)
            let model = try LegTrainer(kind: kind).train(training)
            for (seconds, outcomes) in Self.outcomes(
                of: model, test, groupBy: groupBy, datasets: datasets, persons: persons, decide: decide)
            {
                evaluation.outcomes[seconds, default: []] += outcomes
            }
            evaluation.folds.append(
                .init(
                    testGroups: groups[fold], legs: test.legs.filter { $0.thinnedToSeconds == nil && $0.speedScale == nil }.count,
                    kind: kind, innerMacroF1: inner,
                    unseenModes: Set(test.legs.map { $0.mode! }).subtracting(model.classes).sorted()))
        }
        return evaluation
    }

    /// Per thinning interval (nil: as recorded), the outcome of every labelled leg of `table`:
    /// `raw` is `model`'s most probable mode, `smoothed` the mode `decide` makes of its
    /// probabilities (the mode `run` gives a leg only GPS covers; `raw` without `decide`), both
    /// trackintel's when there is no model; `baseline` and `baselineRaw` trackintel's. Each
    /// outcome carries what the intervals resample: its day when grouped by day
    /// (`WindowOutcome.group`), else its person.
    public static func outcomes(
        of model: GPSLegModel?, _ table: LegTable, groupBy: GroupedCrossValidation.GroupBy = .person,
        datasets: [String: String] = [:], persons: [String: String] = [:],
        decide: LegDecision? = nil
    ) -> [Double?: [WindowOutcome]] {
        let labelled = LegTrainer.labelled(table)
        let baseline = TrackintelBaseline.predict(labelled), predicted = model?.predict(labelled) ?? baseline
        var decided = predicted
        if let model, let decide {
            let p = model.probabilities(labelled), k = model.classes.count
            decided = (0..<labelled.count).map { row in
                decide(Dictionary(uniqueKeysWithValues: model.classes.enumerated().map { ($1, p[row * k + $0]) }))
            }
        }
        var outcomes: [Double?: [WindowOutcome]] = [:]
        for (index, leg) in labelled.legs.enumerated() where leg.speedScale == nil { // replayed copies only train
            var outcome = WindowOutcome(
                trace: leg.trace, device: leg.device, truth: leg.mode!, smoothed: decided[index], raw: predicted[index],
                baseline: baseline[index], baselineRaw: baseline[index], source: model == nil ? .trackintel : .gpsLegModel,
                group: groupBy == .day ? group(of: leg, groupBy) : nil, person: persons[leg.trace], dataset: datasets[leg.trace])
            outcome.seconds = leg.start.seconds(until: leg.end)
            outcomes[leg.thinnedToSeconds, default: []].append(outcome)
        }
        return outcomes
    }

    /// The classifier with the best pooled macro-F1 over inner folds of `training`'s people
    /// (all rates together); the first of `kinds` when there are too few people to split.
    public func choose(_ training: LegTable) throws -> (ModeTrainer.Kind, Double?) {
        let (assignment, groups) = Self.assign(training, folds: innerFolds, seed: seed &+ 1, groupBy: groupBy.inner, persons: persons)
        guard groups.count >= 2, kinds.count > 1 else { return (kinds[0], nil) }
        var best: (ModeTrainer.Kind, Double)?
        for kind in kinds {
            var matrix = ConfusionMatrix<Mode>()
            for fold in groups.indices {
                let fit = training.subset(assignment.indices.filter { assignment[$0] != fold })
                let test = training.subset(assignment.indices.filter { assignment[$0] == fold && training.legs[$0].speedScale == nil })
                guard let model = try? LegTrainer(kind: kind).train(fit) else { continue }
                for (truth, predicted) in zip(test.legs.map { $0.mode! }, model.predict(test)) {
                    matrix.add(truth: truth, predicted: predicted)
                }
            }
            if best == nil || matrix.macroF1 > best!.1 { best = (kind, matrix.macroF1) }
        }
        return best.map { ($0.0, $0.1) } ?? (kinds[0], nil)
    }

    /// Each leg's fold, groups dealt to folds as `GroupedCrossValidation` deals them (every
    /// leg of a person, or of a day, at every rate, in one fold).
    static func assign(
        _ table: LegTable, folds: Int, seed: UInt64, groupBy: GroupedCrossValidation.GroupBy,
        datasets: [String: String] = [:], persons: [String: String] = [:]
    ) -> (folds: [Int], groups: [[String]]) {
        GroupedCrossValidation(groupBy: groupBy, folds: folds, seed: seed)
            .assign(groups: table.legs.map { group(of: $0, groupBy, datasets: datasets, persons: persons) })
    }

    /// The group a leg is held out with: its person, its device, its trace, its local date or its data set.
    public static func group(
        of leg: LegInfo, _ groupBy: GroupedCrossValidation.GroupBy, datasets: [String: String] = [:],
        persons: [String: String] = [:]
    ) -> String {
        switch groupBy {
        case .person: return persons[leg.trace] ?? leg.device
        case .device: return leg.device
        case .trace: return leg.trace
        case .day: return GroupedCrossValidation.day(of: leg.start, longitudeDegrees: leg.longitudeDegrees)
        case .dataset: return datasets[leg.trace] ?? leg.trace
        }
    }
}
