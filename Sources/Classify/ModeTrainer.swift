import Features
import MobilityCore

/// Fits a `ModeModel` on the labelled windows of a feature table.
public struct ModeTrainer: Sendable {
    public var training = SoftmaxRegression.Training()
    public var smoothing = ModeSmoother()
    /// Features the model does not use: the absolute level of acceleration (its mean and rms
    /// along |a| and the vertical) is gravity plus the phone's calibration offset, which differs
    /// between phones by more than the signal of a still phone, so a model that used it would
    /// learn the phone rather than the mode. `features.csv` still has them.
    public var ignoredFeatures = ["acc_mag_mean_mps2", "acc_mag_rms_mps2", "acc_vert_mean_mps2", "acc_vert_rms_mps2"]

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
        var standardizer = Standardizer(fitting: labelled.values, rows: labelled.count, columns: columns)
        for name in ignoredFeatures { if let index = FeatureSchema.index(of: name) { standardizer.present[index] = false } }
        let x = standardizer.transform(labelled.values)
        let y = labelled.windows.map { classes.firstIndex(of: $0.mode!)! }
        let regression = SoftmaxRegression(x: x, y: y, features: columns, classes: classes.count, training: training)
        let usesInertial = labelled.windows.indices.contains { !labelled.values[$0 * columns].isNaN }
        return ModeModel(classes: classes, window: window, standardizer: standardizer, regression: regression,
                         smoothing: smoothing, usesInertial: usesInertial, provenance: provenance)
    }
}
