import Classify
import Foundation
import MobilityCore

/// What `evaluate` prints: the smoothed model's scores at the top level (accuracy, macro_f1,
/// per_class, confusion, n_windows, each score with its 95 % bootstrap interval over people),
/// the same without smoothing, the rules baseline on the same windows, per-recording scores,
/// what decided the windows (the model, or the rules for windows it cannot read), and with
/// cross-validation the folds and the options each fold chose.
public struct EvaluationSummary: Encodable {
    public var evaluated: String
    public var accuracy: Double
    public var macroF1: Double
    @NullEncodable public var accuracyInterval: GroupBootstrap.Interval?
    @NullEncodable public var macroF1Interval: GroupBootstrap.Interval?
    public var perClass: [String: EvaluationReport.ClassScores]
    public var predictedOnly: [String: Int]
    public var confusion: EvaluationReport.Confusion
    public var nWindows: Int
    public var unsmoothed: EvaluationReport
    public var baseline: EvaluationReport
    public var baselineUnsmoothed: EvaluationReport
    /// People (devices) the intervals resample.
    public var people: Int
    /// Windows per decider: "model", "model (gravity-free)", "rules".
    public var decidedBy: [String: Int]
    /// The smoothed scores of each decider on the windows it decided, beside the rules' on the
    /// same windows: the model's score is never the rules' in disguise (a GPS-only window the
    /// model cannot read is the rules', and counted there).
    public var perDecider: [String: DeciderScore]

    public struct DeciderScore: Encodable {
        public var windows: Int
        public var accuracy: Double
        public var macroF1: Double
        @NullEncodable public var macroF1Interval: GroupBootstrap.Interval?
        public var baselineMacroF1: Double
    }
    public var recordings: [RecordingScore]
    /// Share of recordings whose most common predicted mode is their most common true mode.
    public var recordingMajorityAccuracy: Double
    public var baselineRecordingMajorityAccuracy: Double
    /// Each data set's scores apart, when the windows came from two or more (each path given
    /// is a data set): the smoothed model against the smoothed rules.
    @NullEncodable public var perDataset: [DatasetScore]?
    @NullEncodable public var groupBy: String?
    @NullEncodable public var nested: Bool?
    @NullEncodable public var folds: [FoldSummary]?
    /// The GPS leg model's scores and trackintel's on the labelled legs, when the inputs have any.
    @NullEncodable public var gpsLegs: LegEvaluationSummary?
    public var unknownModes: [String]
    /// The files, devices, persons, windows and legs scored.
    @NullEncodable public var scoredData: ScoredData?
    /// With a saved model: what of the scored data trained it, and the score on the rest.
    @NullEncodable public var overlap: DataOverlap?
    public var quarantined: Int
    public var seconds: Double

    public struct FoldSummary: Encodable {
        public var testGroups: [String]
        public var windows: Int
        public var macroF1: Double
        public var unseenModes: [String]
        public var options: String
    }

    /// Scores of `outcomes`; the intervals resample their devices.
    public init(
        evaluated: String, outcomes: [WindowOutcome], unknownModes: Set<String>,
        quarantined: Int, seconds: Double, bootstrap: GroupBootstrap = GroupBootstrap()
    ) {
        let report = { (path: KeyPath<WindowOutcome, Mode>) in
            EvaluationReport(ConfusionMatrix(outcomes, path), intervals: bootstrap.intervals(outcomes, path))
        }
        let main = report(\.smoothed)
        self.evaluated = evaluated
        accuracy = main.accuracy
        macroF1 = main.macroF1
        accuracyInterval = main.accuracyInterval
        macroF1Interval = main.macroF1Interval
        perClass = main.perClass
        predictedOnly = main.predictedOnly
        confusion = main.confusion
        nWindows = main.nWindows
        unsmoothed = report(\.raw)
        baseline = report(\.baseline)
        baselineUnsmoothed = report(\.baselineRaw)
        people = Set(outcomes.map { $0.person ?? $0.device }).count
        decidedBy = Dictionary(grouping: outcomes, by: \.source.rawValue).mapValues(\.count)
        perDecider = Dictionary(grouping: outcomes, by: \.source.rawValue).mapValues { part in
            let matrix = ConfusionMatrix(part, \.smoothed)
            return DeciderScore(
                windows: part.count, accuracy: matrix.accuracy, macroF1: matrix.macroF1,
                macroF1Interval: bootstrap.intervals(part, \.smoothed).macroF1, baselineMacroF1: ConfusionMatrix(part, \.baseline).macroF1)
        }
        if !outcomes.isEmpty && decidedBy.keys.allSatisfy({ $0 == "rules" }) {
            self.evaluated +=
                "; the model reads none of these windows (no IMU data it was trained on), so every one was decided by the GPS speed rules"
        }
        let datasets = DatasetScore.of(outcomes, \.smoothed, baseline: \.baseline, bootstrap: bootstrap)
        perDataset = datasets.isEmpty ? nil : datasets
        recordings = RecordingScore.of(outcomes, \.smoothed)
        let share = { (scores: [RecordingScore]) in scores.isEmpty ? 0 : Double(scores.filter(\.majorityRight).count) / Double(scores.count)
        }
        recordingMajorityAccuracy = share(recordings)
        baselineRecordingMajorityAccuracy = share(RecordingScore.of(outcomes, \.baseline))
        self.unknownModes = unknownModes.sorted()
        self.quarantined = quarantined
        self.seconds = seconds
    }

    public init(
        _ evaluation: GroupedCrossValidation.Evaluation, form: String = "", unknownModes: Set<String>, quarantined: Int, seconds: Double
    ) {
        let kind =
            evaluation.nested
            ? "nested grouped \(evaluation.folds.count)-fold cross-validation" : "grouped \(evaluation.folds.count)-fold cross-validation"
        self.init(
            evaluated: "\(kind) by \(evaluation.groupBy.rawValue)\(form)", outcomes: evaluation.outcomes, unknownModes: unknownModes,
            quarantined: quarantined, seconds: seconds)
        groupBy = evaluation.groupBy.rawValue
        nested = evaluation.nested
        folds = evaluation.folds.map {
            FoldSummary(
                testGroups: $0.testGroups, windows: $0.windows, macroF1: $0.macroF1,
                unseenModes: $0.unseenModes.map(\.rawValue), options: $0.options)
        }
    }

    public func json() throws -> String {
        try JSONText.string(self, keys: .snakeCase, layout: .pretty)
    }

    /// "model", or what really decided when the model read no window.
    var modelHeading: String {
        decidedBy.keys.allSatisfy { $0 == "rules" } ? "model's windows, every one decided by the GPS speed rules" : "model"
    }

    public var text: String {
        let decided = decidedBy.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var sections = ["evaluated: \(evaluated)"]
        if let scoredData { sections.append(scoredData.text) }
        if let overlap { sections.append(overlap.text) }
        sections += [
            "intervals: 95 % bootstrap over people (\(people) persons resampled, a device where none is named; "
                + (people < 2 ? "none with one person)" : "1000 replicates)"),
            "windows decided by: \(decided)"
        ]
        if perDecider.count > 1 {
            sections += perDecider.sorted { $0.key < $1.key }.map { decider, score in
                String(
                    format: "  decided by %@: %d windows, accuracy %.3f, macro-F1 %.3f%@ (rules on the same windows %.3f)", decider,
                    score.windows,
                    score.accuracy, score.macroF1, EvaluationReport.bracket(score.macroF1Interval), score.baselineMacroF1)
            }
        }
        sections += [
            "", "\(modelHeading), smoothed", EvaluationReport(self).text
        ]
        if let perDataset {
            sections += ["", "per data set (model smoothed; intervals over that data set's persons):"] + perDataset.map(\.line)
        }
        sections += [
            "", "\(modelHeading), unsmoothed", unsmoothed.text, "", "rules baseline, smoothed", baseline.text,
            "", "rules baseline, unsmoothed", baselineUnsmoothed.text, "",
            String(
                format: "recordings whose most common mode is right: model %.3f, rules %.3f (of %d)",
                recordingMajorityAccuracy, baselineRecordingMajorityAccuracy, recordings.count)
        ]
        for score in recordings where !score.majorityRight {
            sections.append(
                String(
                    format: "  wrong: %@ (%@): true %@, predicted %@, %.0f %% of %d windows right", score.trace, score.device,
                    score.trueMode.rawValue, score.predictedMode.rawValue, score.accuracy * 100, score.windows))
        }
        if let folds {
            sections += ["", "folds (grouped by \(groupBy ?? "")):"]
            for fold in folds {
                sections.append(
                    String(
                        format: "  macro-F1 %.3f  %6d windows  test: %@", fold.macroF1, fold.windows,
                        fold.testGroups.joined(separator: ", "))
                        + (fold.unseenModes.isEmpty
                            ? "" : "  (modes not in its training folds: \(fold.unseenModes.joined(separator: ", ")))")
                        + "\n    options: \(fold.options)")
            }
        }
        if let gpsLegs { sections += ["", gpsLegs.text] }
        // Again, last, where it is seen.
        if let overlap, !overlap.trainedFiles.isEmpty || !overlap.trainedPersons.isEmpty { sections += ["", overlap.text] }
        if !unknownModes.isEmpty {
            sections.append("label names not in the mode table (left out): " + unknownModes.joined(separator: ", "))
        }
        return sections.joined(separator: "\n")
    }
}

extension EvaluationReport {
    init(_ summary: EvaluationSummary) {
        self = summary.unsmoothed
        accuracy = summary.accuracy
        macroF1 = summary.macroF1
        accuracyInterval = summary.accuracyInterval
        macroF1Interval = summary.macroF1Interval
        perClass = summary.perClass
        predictedOnly = summary.predictedOnly
        confusion = summary.confusion
        nWindows = summary.nWindows
    }
}
