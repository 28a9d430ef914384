import Features
import MobilityCore

/// Fits a `ModeModel` on the labelled windows of a feature table: it learns only from the
/// features every training device delivers (`FeatureAvailability`), with windows weighted so
/// every mode, and within it every device, counts alike (`SampleWeights`, `balance`).
public struct ModeTrainer: Sendable {
    /// Which classifier to fit. Default `.mlp`.
    public var kind = Kind.mlp
    /// The logistic regression's parameters, used when `kind` is `.softmaxRegression`.
    public var training = SoftmaxRegression.Training()
    /// The network's parameters, used when `kind` is `.mlp`.
    public var network = MultilayerPerceptron.Training()
    public var smoothing = ModeSmoother()
    /// Features the model does not use: the absolute level of acceleration (its mean and rms
    /// along |a| and the vertical) is gravity plus the phone's calibration offset, which differs
    /// between phones by more than the signal of a still phone, so a model that used it would
    /// learn the phone rather than the mode. Nor does it use ranges (max − min): the extremes of
    /// n samples spread with n (Gaussian noise spans about 3.3 σ in 12 samples, 5.6 σ in 250),
    /// so a range measures the phone's sample rate as much as its motion, and TMD logs at
    /// 2–12 Hz while the phones it classifies log at 50–100 Hz. `features.csv` still has them.
    public var ignoredFeatures = [
        "acc_mag_mean_mps2", "acc_mag_rms_mps2", "acc_vert_mean_mps2", "acc_vert_rms_mps2",
        "acc_mag_range_mps2", "acc_vert_range_mps2", "acc_horiz_range_mps2", "acc_dyn_range_mps2", "gyro_mag_range_radps"
    ]

    /// Also train a second classifier of the same kind on every window in the form a recording
    /// of gravity-free acceleration alone gives (Sensor Logger's `Accelerometer.csv`, Android's
    /// linear acceleration): |a|, the vertical and the horizontal missing, so |a − g| and |ω|
    /// must carry it. Windows without gravity go to it; windows with gravity keep the first,
    /// which a mixed training would cost (one network trained on both forms lost 0.15 car F1
    /// on TMD's full form, leave-one-user-out). Default true.
    public var gravityFreeModel = true

    public init() {}

    /// What the training weights balance (`SampleWeights`). Default `.modeThenDevice`.
    public var balance = Balance.modeThenDevice

    public enum Kind: String, Codable, CaseIterable, Sendable {
        /// One hidden layer of 32 ReLU units (`MultilayerPerceptron`).
        case mlp
        /// Multinomial logistic regression (`SoftmaxRegression`).
        case softmaxRegression = "softmax_regression"
    }

    /// Smoothed macro-F1 of the network on TMD, leave-one-user-out / grouped by recording,
    /// in each case's comment.
    public enum Balance: String, CaseIterable, Sendable {
        /// Every mode weighs alike, and within a mode every device that recorded it: no phone
        /// defines a mode others recorded too, and a mode only one phone recorded is still
        /// learnt. TMD: 0.465 / 0.719.
        case modeThenDevice = "mode-then-device"
        /// Every (device, mode) pair weighs alike, so a mode one phone recorded counts for less
        /// than one many did. TMD: 0.473 / 0.653, and bus, which one phone recorded, is never
        /// predicted.
        case deviceAndMode = "device-and-mode"
        /// Every mode weighs alike, whichever devices recorded it. TMD: 0.456 / 0.733, with
        /// still on unseen users the weakest (F1 0.73 against 0.77).
        case mode
    }

    func sampleWeights(_ windows: [WindowInfo]) -> [Double] {
        let modes = windows.map { $0.mode! }
        switch balance {
        case .modeThenDevice: return SampleWeights.balanced(classes: modes, within: windows.map(\.device))
        case .deviceAndMode: return SampleWeights.balanced(groups: windows.map { DeviceMode(device: $0.device, mode: $0.mode!) })
        case .mode: return SampleWeights.balanced(groups: modes)
        }
    }

    struct DeviceMode: Hashable { var device: String; var mode: Mode }

    /// The windows a model can learn from: labelled with a known mode.
    public static func labelled(_ table: FeatureTable) -> FeatureTable { table.filter { $0.mode != nil } }

    public func train(_ table: FeatureTable, window: WindowParameters, provenance: ModeModel.Provenance) throws -> ModeModel {
        let labelled = Self.labelled(table)
        let classes = Array(Set(labelled.windows.compactMap(\.mode))).sorted()
        guard classes.count >= 2 else {
            throw PipelineError(
                .cannotTrain,
                "training needs windows of at least two known modes; found "
                    + (classes.isEmpty
                        ? "none (are the inputs labelled? see --name-pattern, labels files, manifest.csv)"
                        : classes.map(\.rawValue).joined()))
        }
        let columns = FeatureTable.columns
        var standardizer = Standardizer(fitting: labelled.values, rows: labelled.count, columns: columns)
        for name in ignoredFeatures { if let index = FeatureSchema.index(of: name) { standardizer.present[index] = false } }
        let devices = labelled.windows.map(\.device)
        let available = FeatureAvailability.usableColumns(values: labelled.values, devices: devices, kinds: FeatureSchema.isInertial)
        for column in 0..<columns where !available[column] { standardizer.present[column] = false }
        let y = labelled.windows.map { classes.firstIndex(of: $0.mode!)! }
        let weights = sampleWeights(labelled.windows)
        let (regression, network) = fit(standardizer.transform(labelled.values), y: y, weights: weights, classes: classes.count)
        let usesInertial = labelled.windows.indices.contains {
            !labelled.values[$0 * columns + FeatureSchema.accelerationPresenceColumn].isNaN
        }
        var model = ModeModel(
            kind: kind, classes: classes, window: window, standardizer: standardizer, regression: regression, network: network,
            smoothing: smoothing, usesInertial: usesInertial, provenance: provenance)
        if gravityFreeModel && usesInertial {
            let (regression, network) = fit(
                standardizer.transform(Self.gravityFreeForm(labelled.values)), y: y, weights: weights, classes: classes.count)
            model.gravityFree = ModeModel.Classifier(regression: regression, network: network)
        }
        return model
    }

    private func fit(_ x: [Double], y: [Int], weights: [Double], classes: Int) -> (SoftmaxRegression?, MultilayerPerceptron?) {
        let columns = FeatureTable.columns
        switch kind {
        case .softmaxRegression:
            return (SoftmaxRegression(x: x, y: y, sampleWeights: weights, features: columns, classes: classes, training: training), nil)
        case .mlp:
            return (nil, MultilayerPerceptron(x: x, y: y, sampleWeights: weights, features: columns, classes: classes, training: network))
        }
    }

    /// `values` (rows of `FeatureTable.columns`) with the columns that need gravity missing:
    /// every window as a recording of gravity-free acceleration alone gives it.
    static func gravityFreeForm(_ values: [Double]) -> [Double] {
        let columns = FeatureTable.columns
        var result = values
        for row in 0..<(values.count / columns) {
            for column in FeatureSchema.gravityColumns { result[row * columns + column] = .nan }
        }
        return result
    }
}
