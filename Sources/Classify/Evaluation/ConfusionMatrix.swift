/// Counts of (true class, predicted class) pairs and the scores researchers report from them:
/// accuracy, per-class precision, recall, F1 and support, and macro-F1 (the unweighted mean
/// of per-class F1, so rare modes count as much as common ones).
public struct ConfusionMatrix<Label: Hashable & Comparable>: Sendable where Label: Sendable {
    public struct ClassScores: Hashable, Sendable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        /// Windows whose true class this is.
        public var support: Int
    }

    /// Every class seen as truth or prediction, sorted.
    public private(set) var labels: [Label] = []
    private var counts: [Label: [Label: Int]] = [:]

    public init() {}

    public init<S: Sequence>(truth: S, predicted: [Label]) where S.Element == Label {
        let truths = Array(truth)
        precondition(truths.count == predicted.count, "truth and predictions differ in length")
        for (actual, guess) in zip(truths, predicted) { add(truth: actual, predicted: guess) }
    }

    public mutating func add(truth: Label, predicted: Label, count: Int = 1) {
        counts[truth, default: [:]][predicted, default: 0] += count
        for label in [truth, predicted] where !labels.contains(label) {
            labels.append(label)
            labels.sort()
        }
    }

    /// How many windows of class `truth` were predicted as `predicted`.
    public func count(truth: Label, predicted: Label) -> Int { counts[truth]?[predicted] ?? 0 }

    public var total: Int { counts.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

    public var accuracy: Double {
        guard total > 0 else { return 0 }
        return Double(labels.reduce(0) { $0 + count(truth: $1, predicted: $1) }) / Double(total)
    }

    public func scores(for label: Label) -> ClassScores {
        let truePositives = Double(count(truth: label, predicted: label))
        let predicted = Double(labels.reduce(0) { $0 + count(truth: $1, predicted: label) })
        let support = labels.reduce(0) { $0 + count(truth: label, predicted: $1) }
        let precision = predicted > 0 ? truePositives / predicted : 0
        let recall = support > 0 ? truePositives / Double(support) : 0
        let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        return ClassScores(precision: precision, recall: recall, f1: f1, support: support)
    }

    /// Mean F1 over the classes that occur as truth.
    public var macroF1: Double {
        let present = labels.filter { scores(for: $0).support > 0 }
        guard !present.isEmpty else { return 0 }
        return present.reduce(0) { $0 + scores(for: $1).f1 } / Double(present.count)
    }
}
