import Foundation
import MobilityCore

/// The scores of a classifier as researchers report them, for `evaluate --json` (snake_case
/// keys) and as readable tables.
public struct EvaluationReport: Codable, Sendable {
    public struct ClassScores: Codable, Sendable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        public var support: Int
    }

    public struct Confusion: Codable, Sendable {
        /// Row and column labels: rows are true modes, columns predicted modes.
        public var labels: [String]
        public var matrix: [[Int]]
    }

    public var accuracy: Double
    public var macroF1: Double
    public var perClass: [String: ClassScores]
    public var confusion: Confusion
    public var nWindows: Int

    public init(_ matrix: ConfusionMatrix<Mode>) {
        accuracy = matrix.accuracy
        macroF1 = matrix.macroF1
        perClass = Dictionary(uniqueKeysWithValues: matrix.labels.map { label in
            let scores = matrix.scores(for: label)
            return (label.rawValue, ClassScores(precision: scores.precision, recall: scores.recall, f1: scores.f1, support: scores.support))
        })
        confusion = Confusion(labels: matrix.labels.map(\.rawValue),
                              matrix: matrix.labels.map { truth in matrix.labels.map { matrix.count(truth: truth, predicted: $0) } })
        nWindows = matrix.total
    }

    /// Per-class scores and the confusion matrix as aligned text tables.
    public var text: String {
        var lines = [String(format: "accuracy %.3f   macro-F1 %.3f   windows %d", accuracy, macroF1, nWindows), ""]
        lines.append(pad("mode", 8) + pad("precision", 11) + pad("recall", 8) + pad("f1", 7) + "support")
        for label in confusion.labels {
            let s = perClass[label]!
            lines.append(pad(label, 8) + pad(String(format: "%.3f", s.precision), 11) + pad(String(format: "%.3f", s.recall), 8)
                         + pad(String(format: "%.3f", s.f1), 7) + String(s.support))
        }
        lines += ["", "confusion (rows: true mode, columns: predicted)"]
        let width = max(7, (confusion.matrix.flatMap { $0 }.max() ?? 0).description.count + 2)
        lines.append(pad("", 8) + confusion.labels.map { pad($0, width) }.joined())
        for (row, label) in confusion.labels.enumerated() {
            lines.append(pad(label, 8) + confusion.matrix[row].map { pad(String($0), width) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
