import Features
import MobilityCore

/// k-fold cross-validation in which every window of a group (a person, a device, a trace, or
/// a day) falls in the same fold, so a model is never scored on the person or recording it
/// was trained on: splitting windows at random would let overlapping neighbours of a test
/// window sit in the training set and report scores that mean nothing.
///
/// Groups are dealt to folds largest first, each to the fold with the fewest windows so far
/// (ties broken by a seeded shuffle), which keeps folds balanced. With as many folds as
/// groups this is leave-one-group-out.
public struct GroupedCrossValidation: Sendable {
    /// `day` is for data of one person (MobilityNet): every window or leg of a date, of any
    /// device, in one fold, so the legs two phones recorded of one trip are never split between
    /// training and test. The date is local mean solar time where the position is known (UTC
    /// plus longitude / 15 hours, within half an hour or so of a civil date's midnight without
    /// a time-zone database), else UTC.
    ///
    /// `dataset` holds out every window of one data set (each path given to `evaluate`, see
    /// `datasets`): trained on all the other data sets, scored on the one left out, which is
    /// the closest a researcher gets to other people, phones and countries at once. Its
    /// options are chosen on inner folds by device (person), never by data set.
    ///
    /// `person` holds out every window of a person (`persons`: a manifest's or a name
    /// pattern's person, or a table's per-row person), so one person's two phones never land
    /// in different folds; a trace whose person is not named is its device's. `device` holds
    /// out a device, which is a person only when nobody carried two.
    public enum GroupBy: String, Sendable, CaseIterable {
        case person, device, trace, day, dataset

        /// How the inner folds of a nested cross-validation group: as the outer ones, except
        /// that data sets are too few and too unlike to choose options on, so people do.
        public var inner: GroupBy { self == .dataset ? .person : self }
    }

    public var groupBy: GroupBy
    /// Number of folds, capped at the number of groups. Default 5.
    public var folds: Int
    public var seed: UInt64
    /// The data set of each trace, for `.dataset` (a trace missing here is its own data set).
    public var datasets: [String: String] = [:]
    /// The person of each trace whose person is named, for `.person` and for the intervals,
    /// which resample persons (a trace missing here is its device's).
    public var persons: [String: String] = [:]

    public init(
        groupBy: GroupBy = .person, folds: Int = 5, seed: UInt64 = 42, datasets: [String: String] = [:],
        persons: [String: String] = [:]
    ) {
        self.groupBy = groupBy
        self.folds = folds
        self.seed = seed
        self.datasets = datasets
        self.persons = persons
    }

    public func group(of window: WindowInfo) -> String {
        switch groupBy {
        case .person: return persons[window.trace] ?? window.device
        case .device: return window.device
        case .trace: return window.trace
        case .day: return Self.day(of: window.start, longitudeDegrees: nil)
        case .dataset: return datasets[window.trace] ?? window.trace
        }
    }

    /// The date of `time` (`YYYY-MM-DD`) in local mean solar time at `longitudeDegrees`, or in
    /// UTC without one.
    public static func day(of time: Timestamp, longitudeDegrees: Double?) -> String {
        let shifted = time.secondsSince1970 + (longitudeDegrees.map { $0 / 15 * 3600 } ?? 0)
        return String(ISO8601.format(Timestamp(secondsSince1970: (shifted / 86_400).rounded(.down) * 86_400)).prefix(10))
    }

    /// The fold of every window, in table order, and the groups of each fold.
    public func assign(_ windows: [WindowInfo]) -> (folds: [Int], groups: [[String]]) {
        assign(groups: windows.map(group(of:)))
    }

    /// The fold of every row whose group is `keys[row]`, and the groups of each fold.
    public func assign(groups keys: [String]) -> (folds: [Int], groups: [[String]]) {
        var sizes: [String: Int] = [:]
        for key in keys { sizes[key, default: 0] += 1 }
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
        return (keys.map { foldOf[$0]! }, groups.map { $0.sorted() })
    }

    public struct Evaluation: Sendable {
        /// Every test window once, scored by the model trained without its group.
        public var outcomes: [WindowOutcome] = []
        public var folds: [Fold] = []
        public var groupBy: GroupBy = .person
        /// True when each fold's options were chosen on its inner folds (`OptionSearch`).
        public var nested = false

        public struct Fold: Sendable {
            public var testGroups: [String]
            public var windows: Int
            public var macroF1: Double
            /// Modes of the test fold that its training folds never showed.
            public var unseenModes: [Mode]
            /// The options this fold's model was trained with, and how they were chosen.
            public var options: String
        }
    }

    /// Trains on all folds but one and scores on that one, for each fold in turn; the scores
    /// are over all test windows together. The rules baseline is scored on the same windows.
    /// With `search`, each fold's classifier, balance and switch penalty are chosen on its own
    /// training groups (nested cross-validation); else `trainer` is used as it is.
    /// With `testTable`, the test windows come from it (the same recordings in another form,
    /// e.g. without their gravity streams), the training windows from `table`. `supplement`'s
    /// windows join every training set, outer and inner, and are never scored.
    public func evaluate(
        _ table: FeatureTable, trainer: ModeTrainer, window: WindowParameters,
        search: OptionSearch? = nil, testTable: FeatureTable? = nil, supplement: FeatureTable = FeatureTable()
    ) throws -> Evaluation {
        let labelled = ModeTrainer.labelled(table)
        let (assignment, groups) = assign(labelled.windows)
        let testable = testTable.map(ModeTrainer.labelled) ?? labelled
        var evaluation = Evaluation()
        evaluation.groupBy = groupBy
        evaluation.nested = search != nil
        for fold in groups.indices {
            let training = labelled.subset(assignment.indices.filter { assignment[$0] != fold })
            let test = testable.filter { groups[fold].contains(group(of: $0)) }
            let choice =
                search?.choose(training, groupBy: groupBy.inner, seed: seed, window: window, supplement: supplement, persons: persons)
                ?? OptionSearch.Choice(trainer: trainer, innerMacroF1: nil)
            var fit = training
            fit.append(supplement)
            let model = try choice.trainer.train(fit, window: window, provenance: .crossValidation)
            var outcomes = WindowOutcome.of(
                test, prediction: ModePredictor(model: model).predict(test),
                rules: ModePredictor(model: nil).predict(test))
            // The intervals resample days of one person's data, else persons.
            for index in outcomes.indices {
                if groupBy == .day { outcomes[index].group = group(of: test.windows[index]) }
                outcomes[index].person = persons[outcomes[index].trace]
            }
            for index in outcomes.indices { outcomes[index].dataset = datasets[outcomes[index].trace] }
            evaluation.outcomes += outcomes
            let unseen = Set(outcomes.map(\.truth)).subtracting(model.classes).sorted()
            evaluation.folds.append(
                .init(
                    testGroups: groups[fold], windows: test.count,
                    macroF1: ConfusionMatrix(outcomes, \.smoothed).macroF1, unseenModes: unseen,
                    options: search == nil ? "as given" : choice.description))
        }
        return evaluation
    }
}
