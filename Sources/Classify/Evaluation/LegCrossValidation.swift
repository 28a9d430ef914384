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
    /// Folds of the out-of-fold legs the calibration is chosen on (`fit`).
    public static let calibrationFolds = 5
    /// Traces whose legs choose and are scored, never train (`fit`).
    public var choosing: Set<String> = []

    /// A leg's mode from what the leg model says of it.
    public typealias LegDecision = @Sendable (LegReading) -> Mode

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
    ///
    /// Held out by data set, a data set of one person is held out by day instead (each of its
    /// days in turn, every other data set training): one person's data cannot be left out
    /// whole without leaving out every example of what only it records (MobilityNet's walks
    /// and rides, where Helsinki's legs are all vehicles).
    public func evaluate(_ table: LegTable) throws -> Evaluation {
        let labelled = LegTrainer.labelled(table)
        let outer = heldOut(labelled, by: groupBy)
        var personsOf: [String: Set<String>] = [:]
        for leg in labelled.legs { personsOf[datasets[leg.trace] ?? leg.trace, default: []].insert(persons[leg.trace] ?? leg.device) }
        let dayFolds = groupBy == .dataset ? Set(outer).count : folds
        let (assignment, groups) = GroupedCrossValidation(groupBy: groupBy, folds: dayFolds, seed: seed).assign(groups: outer)
        var evaluation = Evaluation()
        evaluation.groupBy = groupBy
        guard groups.count >= 2 else { return evaluation }
        for fold in groups.indices {
            let training = labelled.subset(assignment.indices.filter { assignment[$0] != fold })
            let test = labelled.subset(assignment.indices.filter { assignment[$0] == fold })
            guard LegTrainer.modes(training.filter { !choosing.contains($0.trace) }).count >= LegTrainer.minimumModes else { continue }
            let (model, kind, inner) = try fit(training, choosing: choosing)
            for (seconds, var outcomes) in Self.outcomes(
                of: model, test, groupBy: groupBy, datasets: datasets, persons: persons, decide: decide)
            {
                // One person's data set, held out by day, is resampled by day.
                for index in outcomes.indices where groupBy == .dataset {
                    let set = outcomes[index].dataset ?? outcomes[index].trace
                    if personsOf[set]?.count == 1 && personsOf.count > 1 { outcomes[index].group = outcomes[index].day }
                }
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
        var readings: [LegReading] = []
        if let model {
            readings = model.readings(labelled)
            if let decide { decided = readings.map(decide) }
        }
        var outcomes: [Double?: [WindowOutcome]] = [:]
        for (index, leg) in labelled.legs.enumerated() where leg.speedScale == nil { // replayed copies only train
            var outcome = WindowOutcome(
                trace: leg.trace, device: leg.device, truth: leg.mode!, smoothed: decided[index], raw: predicted[index],
                baseline: baseline[index], baselineRaw: baseline[index], source: model == nil ? .trackintel : .gpsLegModel,
                group: groupBy == .day ? group(of: leg, groupBy) : nil, person: persons[leg.trace], dataset: datasets[leg.trace])
            outcome.seconds = leg.start.seconds(until: leg.end)
            outcome.day = group(of: leg, .day)
            outcome.span = leg.start.secondsSince1970...max(leg.start.secondsSince1970, leg.end.secondsSince1970)
            if !readings.isEmpty { outcome.confidence = readings[index].probabilities.values.max() }
            outcomes[leg.thinnedToSeconds, default: []].append(outcome)
        }
        return outcomes
    }

    /// The leg model of `table`'s labelled legs: its weights learnt from every leg except those
    /// of `choosing` (traces that choose and score, never train: a data set whose licence
    /// forbids training the weights), its classifier chosen on inner folds (`choose`), and its
    /// calibration (`LegCalibration`) on out-of-fold legs. Those are, with two data sets or
    /// more among the training legs, each data set predicted by a model of the others;
    /// otherwise each person (or day, for one person) by a model of the rest; and the
    /// `choosing` legs by the model of every training leg.
    public func fit(_ table: LegTable, choosing: Set<String> = []) throws -> (
        model: GPSLegModel, kind: ModeTrainer.Kind, innerMacroF1: Double?
    ) {
        let labelled = LegTrainer.trained(LegTrainer.labelled(table))
        let training = labelled.filter { !choosing.contains($0.trace) }
        let chooser = labelled.filter { choosing.contains($0.trace) && $0.speedScale == nil }
        let (kind, inner) = try choose(training)
        var model = try LegTrainer(kind: kind).train(training)
        let sets = Set(training.legs.map { datasets[$0.trace] ?? "" })
        let (grouping, keys) = innerGroups(training)
        // At most `calibrationFolds` folds of whole groups: each group's legs predicted by a model without them.
        let (foldOf, _) = GroupedCrossValidation(groupBy: grouping, folds: Self.calibrationFolds, seed: seed &+ 2).assign(groups: keys)
        var groups: [String: [Int]] = [:]
        for (index, fold) in foldOf.enumerated() { groups[String(fold), default: []].append(index) }
        var examples: [LegCalibration.Example] = []
        func add(_ legs: LegTable, by fitted: GPSLegModel) {
            let p = fitted.probabilities(legs), k = fitted.classes.count
            // A truth the fold's model never learnt is an unseen mode, not a question of calibration.
            for (row, leg) in legs.legs.enumerated() where leg.speedScale == nil && fitted.classes.contains(leg.mode!) {
                // In the full model's class order (a fold may lack a class: probability 0).
                let probabilities = model.classes.map { mode in fitted.classes.firstIndex(of: mode).map { p[row * k + $0] } ?? 0 }
                examples.append(.init(probabilities: probabilities, truth: leg.mode!, seconds: leg.start.seconds(until: leg.end)))
            }
        }
        if groups.count >= 2 {
            for (_, members) in groups.sorted(by: { $0.key < $1.key }) {
                let held = Set(members)
                let fit = training.subset(training.legs.indices.filter { !held.contains($0) })
                guard LegTrainer.modes(fit).count >= LegTrainer.minimumModes, let fitted = try? LegTrainer(kind: kind).train(fit) else {
                    continue
                }
                add(training.subset(members), by: fitted)
            }
        }
        if chooser.count > 0 { add(chooser, by: model) }
        let (temperature, threshold) = LegCalibration.fit(examples, classes: model.classes)
        let names = DataIdentity.names(ofDatasets: datasets.values)
        let chosenSets = Set(
            examples.isEmpty ? [] : (training.legs + chooser.legs).map { datasets[$0.trace].flatMap { names[$0] } ?? $0.device })
        let chosenOn =
            "\(examples.count) out-of-fold legs (as recorded and thinned) of "
            + (sets.count >= 2 || !chooser.legs.isEmpty ? chosenSets.sorted().joined(separator: ", ") : "the training legs")
            + ", grouped by \(grouping.rawValue)"
            + (chooser.legs.isEmpty ? "" : "; \(Set(chooser.legs.map(\.trace)).count) traces only chose, never trained")
        let (lower, upper) = Self.bounds(training, model: model)
        model.calibration = LegCalibration(
            temperature: temperature, typeThreshold: threshold, chosenOn: chosenOn, lower: lower, upper: upper)
        return (model, kind, inner)
    }

    /// The group each leg of `table` is held out with under `groupBy`; by data set, a data set
    /// of one person is split by day (`evaluate`). Legs of one group are never in two folds.
    func heldOut(_ table: LegTable, by groupBy: GroupedCrossValidation.GroupBy) -> [String] {
        var personsOf: [String: Set<String>] = [:]
        for leg in table.legs { personsOf[datasets[leg.trace] ?? leg.trace, default: []].insert(persons[leg.trace] ?? leg.device) }
        return table.legs.map { leg in
            let group = Self.group(of: leg, groupBy, datasets: datasets, persons: persons)
            return groupBy == .dataset && personsOf[group]?.count == 1 && personsOf.count > 1
                ? group + " " + Self.group(of: leg, .day) : group
        }
    }

    /// How the inner folds of `training` group: by data set (one person's split by day) when it
    /// holds two data sets or more, else as `groupBy.inner`, else by day (one person).
    func innerGroups(_ training: LegTable) -> (GroupedCrossValidation.GroupBy, [String]) {
        if Set(training.legs.map { datasets[$0.trace] ?? "" }).count >= 2 { return (.dataset, heldOut(training, by: .dataset)) }
        let inner = heldOut(training, by: groupBy.inner)
        return Set(inner).count >= 2 ? (groupBy.inner, inner) : (.day, heldOut(training, by: .day))
    }

    /// Per feature, the 1st and 99th percentiles of `training`'s rows; NaN for the features the model ignores.
    static func bounds(_ training: LegTable, model: GPSLegModel) -> ([Double], [Double]) {
        var lower: [Double] = [], upper: [Double] = []
        for column in 0..<LegTable.columns {
            let present = model.standardizer.present.indices.contains(column) && model.standardizer.present[column]
            let values = (0..<training.count).map { training.values[$0 * LegTable.columns + column] }.filter { !$0.isNaN }
            guard present, let low = Quantile.of(values, 0.01), let high = Quantile.of(values, 0.99) else {
                lower.append(.nan)
                upper.append(.nan)
                continue
            }
            lower.append(low)
            upper.append(high)
        }
        return (lower, upper)
    }

    /// The classifier with the best pooled macro-F1 over inner folds of `training`'s people
    /// (all rates together); the first of `kinds` when there are too few people to split.
    public func choose(_ training: LegTable) throws -> (ModeTrainer.Kind, Double?) {
        let (grouping, keys) = innerGroups(training)
        let (assignment, groups) = GroupedCrossValidation(groupBy: grouping, folds: innerFolds, seed: seed &+ 1).assign(groups: keys)
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
