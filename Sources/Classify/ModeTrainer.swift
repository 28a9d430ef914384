import Features
import MobilityCore

/// Fits a `ModeModel` on the labelled windows of a feature table.
public struct ModeTrainer: Sendable {
    public var training = SoftmaxRegression.Training()
    public var smoothing = ModeSmoother()

    public init() {}

    public struct TrainingError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The windows a model can learn from: labelled with a known mode.
    public static func labelled(_ table: FeatureTable) -> FeatureTable { table.filter { $0.mode != nil } }

    public func train(_ table: FeatureTable, window: WindowParameters, provenance: ModeModel.Provenance) throws -> ModeModel {
        let labelled = Self.labelled(table)
        let classes = Array(Set(labelled.windows.compactMap(\.mode))).sorted()
        guard classes.count >= 2 else {
            throw TrainingError(description: "training needs windows of at least two known modes; found "
                                + (classes.isEmpty ? "none (are the inputs labelled? see --name-pattern, labels files, manifest.csv)" : classes.map(\.rawValue).joined()))
        }
        let columns = FeatureTable.columns
        let standardizer = Standardizer(fitting: labelled.values, rows: labelled.count, columns: columns)
        let x = standardizer.transform(labelled.values)
        let y = labelled.windows.map { classes.firstIndex(of: $0.mode!)! }
        let regression = SoftmaxRegression(x: x, y: y, features: columns, classes: classes.count, training: training)
        let usesIMU = labelled.windows.indices.contains { !labelled.values[$0 * columns].isNaN }
        return ModeModel(classes: classes, window: window, standardizer: standardizer, regression: regression,
                         smoothing: smoothing, usesIMU: usesIMU, provenance: provenance)
    }
}
