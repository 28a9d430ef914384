import Features
import MobilityCore

/// Fits a `ModeModel` on the labelled windows of a feature table: it learns only from the
/// features every training device delivers (`FeatureAvailability`), with windows weighted so
/// every device's recordings of every mode count alike (`SampleWeights`).
public struct ModeTrainer: Sendable {
    public var training = SoftmaxRegression.Training()
    public var smoothing = ModeSmoother()
    /// Features the model does not use: the absolute level of acceleration (its mean and rms
    /// along |a| and the vertical) is gravity plus the phone's calibration offset, which differs
    /// between phones by more than the signal of a still phone, so a model that used it would
    /// learn the phone rather than the mode. `features.csv` still has them.
    public var ignoredFeatures = ["acc_mag_mean_mps2", "acc_mag_rms_mps2", "acc_vert_mean_mps2", "acc_vert_rms_mps2"]

    public init() {}

    /// What the training weights balance (`SampleWeights`). Default `.deviceAndMode`.
    public var balance = Balance.deviceAndMode

    public enum Balance: String, CaseIterable, Sendable {
        /// Every device's windows of every mode weigh alike.
        case deviceAndMode = "device-and-mode"
        /// Every mode weighs alike, whichever devices recorded it.
        case mode
    }

    /// The group `SampleWeights` balances.
    struct DeviceMode: Hashable { var device: String?; var mode: Mode }

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
        let devices = labelled.windows.map(\.device)
        let available = FeatureAvailability.usableColumns(values: labelled.values, devices: devices, kinds: FeatureSchema.isInertial)
        for column in 0..<columns where !available[column] { standardizer.present[column] = false }
        let x = standardizer.transform(labelled.values)
        let y = labelled.windows.map { classes.firstIndex(of: $0.mode!)! }
        let weights = SampleWeights.balanced(groups: labelled.windows.map { DeviceMode(device: balance == .mode ? nil : $0.device, mode: $0.mode!) })
        let regression = SoftmaxRegression(x: x, y: y, sampleWeights: weights, features: columns, classes: classes.count, training: training)
        let usesInertial = labelled.windows.indices.contains { !labelled.values[$0 * columns].isNaN }
        return ModeModel(classes: classes, window: window, standardizer: standardizer, regression: regression,
                         smoothing: smoothing, usesInertial: usesInertial, provenance: provenance)
    }
}
