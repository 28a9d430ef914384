import MobilityCore

/// The scores of one data set of an evaluation over several: a pooled score hides a data set
/// that fails, and a reviewer asks how the classifier does on each population (phone, rate,
/// country) apart. Intervals resample that data set's persons (or days) only: a device where
/// no person is named.
public struct DatasetScore: Codable, Hashable, Sendable {
    /// The data set: the path given to `evaluate` that holds its recordings.
    public var dataset: String
    public var windows: Int
    /// Persons scored (the groups the intervals resample; a device where no person is named).
    public var devices: Int
    public var accuracy: Double
    public var macroF1: Double
    @NullEncodable public var macroF1Interval: GroupBootstrap.Interval?
    /// F1 per mode that occurs as truth in this data set.
    public var f1: [String: Double]
    /// The rules baseline's macro-F1 on the same windows.
    public var baselineMacroF1: Double

    /// One score per data set of `outcomes` (`WindowOutcome.dataset`), in name order; empty
    /// when they come from one data set or none is named.
    public static func of(
        _ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>,
        baseline: KeyPath<WindowOutcome, Mode>, bootstrap: GroupBootstrap = GroupBootstrap()
    ) -> [DatasetScore] {
        let named = Dictionary(grouping: outcomes.filter { $0.dataset != nil }, by: { $0.dataset! })
        guard named.count >= 2 else { return [] }
        return named.keys.sorted().map { name in
            let part = named[name]!
            let matrix = ConfusionMatrix(part, predicted)
            var f1: [String: Double] = [:]
            for label in matrix.labels where matrix.scores(for: label).support > 0 { f1[label.rawValue] = matrix.scores(for: label).f1 }
            return DatasetScore(
                dataset: name, windows: part.count, devices: Set(part.map { $0.person ?? $0.device }).count, accuracy: matrix.accuracy,
                macroF1: matrix.macroF1, macroF1Interval: bootstrap.intervals(part, predicted).macroF1, f1: f1,
                baselineMacroF1: ConfusionMatrix(part, baseline).macroF1)
        }
    }

    /// One line: data set, windows, devices, accuracy, macro-F1 with its interval, the
    /// baseline's macro-F1 and F1 per mode.
    public var line: String { line(unit: "windows", baseline: "rules") }

    /// The same, counting `unit` ("legs") and naming the baseline ("trackintel").
    public func line(unit: String, baseline: String) -> String {
        String(
            format: "  %@: %d %@, %d %@, accuracy %.3f, macro-F1 %.3f%@ (%@ %.3f); F1 ", dataset, windows, unit, devices,
            devices == 1 ? "device" : "devices", accuracy, macroF1, EvaluationReport.bracket(macroF1Interval), baseline, baselineMacroF1)
            + f1.sorted { $0.key < $1.key }.map { String(format: "%@ %.2f", $0.key, $0.value) }.joined(separator: ", ")
    }
}
