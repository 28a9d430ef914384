import Classify
import Foundation
import MobilityCore

/// What `evaluate` prints: the smoothed model's scores at the top level (accuracy, macro_f1,
/// per_class, confusion, n_windows), the same without smoothing, and the rules baseline on the
/// same windows; with cross-validation, the folds.
public struct EvaluationSummary: Encodable {
    public var evaluated: String
    public var accuracy: Double
    public var macroF1: Double
    public var perClass: [String: EvaluationReport.ClassScores]
    public var confusion: EvaluationReport.Confusion
    public var nWindows: Int
    public var unsmoothed: EvaluationReport
    public var baseline: EvaluationReport
    public var baselineUnsmoothed: EvaluationReport
    public var groupBy: String?
    public var folds: [FoldSummary]?
    public var unknownModes: [String]
    public var quarantined: Int
    public var seconds: Double

    public struct FoldSummary: Encodable {
        public var testGroups: [String]
        public var windows: Int
        public var macroF1: Double
        public var unseenModes: [String]
    }

    public init(evaluated: String, smoothed: ConfusionMatrix<Mode>, unsmoothed: ConfusionMatrix<Mode>,
                baseline: ConfusionMatrix<Mode>, baselineUnsmoothed: ConfusionMatrix<Mode>,
                unknownModes: Set<String>, quarantined: Int, seconds: Double) {
        let main = EvaluationReport(smoothed)
        self.evaluated = evaluated
        accuracy = main.accuracy
        macroF1 = main.macroF1
        perClass = main.perClass
        confusion = main.confusion
        nWindows = main.nWindows
        self.unsmoothed = EvaluationReport(unsmoothed)
        self.baseline = EvaluationReport(baseline)
        self.baselineUnsmoothed = EvaluationReport(baselineUnsmoothed)
        self.unknownModes = unknownModes.sorted()
        self.quarantined = quarantined
        self.seconds = seconds
    }

    public init(_ evaluation: GroupedCrossValidation.Evaluation, folds count: Int, unknownModes: Set<String>, quarantined: Int, seconds: Double) {
        self.init(evaluated: "grouped \(count)-fold cross-validation by \(evaluation.groupBy.rawValue)",
                  smoothed: evaluation.smoothed, unsmoothed: evaluation.unsmoothed, baseline: evaluation.baseline,
                  baselineUnsmoothed: evaluation.baselineUnsmoothed, unknownModes: unknownModes, quarantined: quarantined, seconds: seconds)
        groupBy = evaluation.groupBy.rawValue
        folds = evaluation.folds.map { FoldSummary(testGroups: $0.testGroups, windows: $0.windows, macroF1: $0.macroF1,
                                                   unseenModes: $0.unseenModes.map(\.rawValue)) }
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public var text: String {
        var sections = ["evaluated: \(evaluated)", "", "model, smoothed", EvaluationReport(self).text,
                        "", "model, unsmoothed", unsmoothed.text, "", "rules baseline, smoothed", baseline.text,
                        "", "rules baseline, unsmoothed", baselineUnsmoothed.text]
        if let folds {
            sections += ["", "folds (grouped by \(groupBy ?? "")):"]
            for fold in folds {
                sections.append(String(format: "  macro-F1 %.3f  %6d windows  test: %@", fold.macroF1, fold.windows, fold.testGroups.joined(separator: ", "))
                                + (fold.unseenModes.isEmpty ? "" : "  (modes not in its training folds: \(fold.unseenModes.joined(separator: ", ")))"))
            }
        }
        if !unknownModes.isEmpty { sections.append("label names not in the mode table (left out): " + unknownModes.joined(separator: ", ")) }
        return sections.joined(separator: "\n")
    }
}

extension EvaluationReport {
    init(_ summary: EvaluationSummary) {
        self = summary.unsmoothed
        accuracy = summary.accuracy
        macroF1 = summary.macroF1
        perClass = summary.perClass
        confusion = summary.confusion
        nWindows = summary.nWindows
    }
}
