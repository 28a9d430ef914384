import Foundation
import MobilityCore

/// The scores of a classifier as researchers report them, for `evaluate --json` (snake_case
/// keys) and as readable tables. Per-class scores are given for the classes that occur as
/// truth; a class that was only ever predicted has no recall or F1 to report (it is listed
/// in `predicted_only` and shows in the confusion matrix's columns).
public struct EvaluationReport: Codable, Sendable {
    public struct ClassScores: Codable, Sendable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        public var support: Int
        /// The F1's bootstrap interval over people (`GroupBootstrap`), when there are two or more.
        @NullEncodable public var f1Interval: GroupBootstrap.Interval?
    }

    public struct Confusion: Codable, Sendable {
        /// Row and column labels: rows are true modes, columns predicted modes.
        public var labels: [String]
        public var matrix: [[Int]]
    }

    public var accuracy: Double
    public var macroF1: Double
    @NullEncodable public var accuracyInterval: GroupBootstrap.Interval?
    @NullEncodable public var macroF1Interval: GroupBootstrap.Interval?
    public var perClass: [String: ClassScores]
    /// Classes predicted for some window but true for none, with how many windows.
    public var predictedOnly: [String: Int]
    public var confusion: Confusion
    public var nWindows: Int

    public init(_ matrix: ConfusionMatrix<Mode>, intervals: GroupBootstrap.Intervals = .init()) {
        accuracy = matrix.accuracy
        macroF1 = matrix.macroF1
        accuracyInterval = intervals.accuracy
        macroF1Interval = intervals.macroF1
        var perClass: [String: ClassScores] = [:], predictedOnly: [String: Int] = [:]
        for label in matrix.labels {
            let scores = matrix.scores(for: label)
            if scores.support > 0 {
                perClass[label.rawValue] = ClassScores(
                    precision: scores.precision, recall: scores.recall, f1: scores.f1,
                    support: scores.support, f1Interval: intervals.f1[label])
            } else {
                predictedOnly[label.rawValue] = matrix.labels.reduce(0) { $0 + matrix.count(truth: $1, predicted: label) }
            }
        }
        self.perClass = perClass
        self.predictedOnly = predictedOnly
        confusion = Confusion(
            labels: matrix.labels.map(\.rawValue),
            matrix: matrix.labels.map { truth in matrix.labels.map { matrix.count(truth: truth, predicted: $0) } })
        nWindows = matrix.total
    }

    /// Per-class scores and the confusion matrix as aligned text tables.
    public var text: String { text(unit: "windows") }

    /// The same, counting `unit` ("windows", "legs").
    public func text(unit: String) -> String {
        var lines = [
            String(
                format: "accuracy %.3f%@   macro-F1 %.3f%@   %@ %d", accuracy, Self.bracket(accuracyInterval),
                macroF1, Self.bracket(macroF1Interval), unit, nWindows), ""
        ]
        lines.append(pad("mode", 8) + pad("precision", 11) + pad("recall", 8) + pad("f1", 7) + pad("f1 95% interval", 17) + "support")
        for label in confusion.labels {
            guard let s = perClass[label] else { continue }
            lines.append(
                pad(label, 8) + pad(String(format: "%.3f", s.precision), 11) + pad(String(format: "%.3f", s.recall), 8)
                    + pad(String(format: "%.3f", s.f1), 7) + pad(Self.bracket(s.f1Interval).trimmingCharacters(in: .whitespaces), 17)
                    + String(s.support))
        }
        for (label, count) in predictedOnly.sorted(by: { $0.key < $1.key }) {
            lines.append("\(label): predicted for \(count) \(unit), true for none (no recall or F1; not in macro-F1)")
        }
        lines += ["", "confusion (rows: true mode, columns: predicted)"]
        let width = max(7, (confusion.matrix.flatMap { $0 }.max() ?? 0).description.count + 2)
        lines.append(pad("", 8) + confusion.labels.map { pad($0, width) }.joined())
        for (row, label) in confusion.labels.enumerated() where perClass[label] != nil {
            lines.append(pad(label, 8) + confusion.matrix[row].map { pad(String($0), width) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    public static func bracket(_ interval: GroupBootstrap.Interval?) -> String {
        interval.map { String(format: " [%.3f, %.3f]", $0.lower, $0.upper) } ?? ""
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
