import Features
import Foundation
import MobilityCore

/// A trained mode classifier as saved to disk (JSON): its format version, the feature schema
/// and window parameters it was trained with, its classes, preprocessing, weights, smoothing,
/// and where it came from. Loading a file written for another schema is a clear error, never
/// a silent misclassification.
public struct ModeModel: Codable, Sendable {
    public static let format = "mobility-pipeline/mode-model"
    /// Version 2 added the neural network; version 3 the GPS leg model's calibration
    /// (`LegCalibration`). Version 1 and 2 files still load (a version 2 leg model uncalibrated,
    /// with a warning: `warnings`).
    public static let currentVersion = 3
    public static let readableVersions = 1...3

    public var format = ModeModel.format
    public var formatVersion = ModeModel.currentVersion
    /// Which classifier the file holds: `mlp` (`network`) or `softmax_regression` (`regression`).
    public var kind: ModeTrainer.Kind
    public var classes: [Mode]
    public var featureSchemaVersion = FeatureSchema.version
    public var features = FeatureSchema.names
    public var window: WindowParameters
    public var standardizer: Standardizer
    public var regression: SoftmaxRegression?
    public var network: MultilayerPerceptron?
    public var smoothing: ModeSmoother
    /// True when the training windows had IMU features; windows without them (GPS-only
    /// traces) are then classified by the rules instead.
    public var usesInertial: Bool
    /// The classifier for windows without gravity (`ModeTrainer.gravityFreeModel`), of the
    /// same kind, classes and standardizer; nil in files written before it existed, whose
    /// gravity-free windows are decided by the rules.
    public var gravityFree: Classifier?
    /// The classifier of whole GPS legs (`GPSLegModel`), when the training data had labelled
    /// legs of two or more modes of movement; nil otherwise (GPS-only legs are then decided by
    /// the speed rules, and say so).
    public var gpsLegs: GPSLegModel?

    /// Weights of one classifier: `regression` or `network`, as the model's `kind` says.
    public struct Classifier: Codable, Sendable {
        public var regression: SoftmaxRegression?
        public var network: MultilayerPerceptron?
    }
    public var provenance: Provenance

    /// Where a model came from, so a result can be traced to its training data.
    public struct Provenance: Codable, Hashable, Sendable {
        public var createdAt: String
        public var toolVersion: String
        public var command: String
        public var inputs: [String]
        public var recordings: Int
        public var devices: [String]
        public var windowsPerClass: [String: Int]
        /// The logistic regression's training parameters, when the model is one.
        public var training: SoftmaxRegression.Training?
        /// The network's training parameters, when the model is one.
        public var networkTraining: MultilayerPerceptron.Training?
        /// The cross-validation run before training on everything, when one was.
        public var evaluation: String?
        /// Recordings that only trained (`--supplement`): where they came from, which modes
        /// and how they were augmented; nil when every training window was from `inputs`.
        public var supplement: String?
        /// Every input that gave training windows: its content (SHA-256), device and person, so
        /// `evaluate` can flag data the model has seen, whatever its path now; nil in models
        /// trained before it was recorded (their `devices` is all that is known).
        public var trainingInputs: [TrainingInput]?
        /// The persons the training windows came from (a device without a named person is one).
        public var persons: [String]?

        /// One input a model was trained on.
        public struct TrainingInput: Codable, Hashable, Sendable {
            /// The path below the folder given to `train` (for people; matching is by content).
            public var path: String
            public var sha256: String
            public var device: String
            public var person: String
            public var windows: Int

            public init(path: String, sha256: String, device: String, person: String, windows: Int) {
                (self.path, self.sha256, self.device, self.person, self.windows) = (path, sha256, device, person, windows)
            }
        }

        public init(
            command: String, inputs: [String], recordings: Int, devices: [String], windowsPerClass: [String: Int],
            training: SoftmaxRegression.Training?, networkTraining: MultilayerPerceptron.Training? = nil,
            toolVersion: String, evaluation: String? = nil
        ) {
            createdAt = ISO8601.format(Timestamp(secondsSince1970: Date().timeIntervalSince1970.rounded()))
            self.toolVersion = toolVersion
            self.command = command
            self.inputs = inputs
            self.recordings = recordings
            self.devices = devices
            self.windowsPerClass = windowsPerClass
            self.training = training
            self.networkTraining = networkTraining
            self.evaluation = evaluation
        }
    }

    public static func load(path: String) throws -> ModeModel {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError(.modelUnreadable, path: path, reason: "cannot read the model file")
        }
        struct Header: Decodable { var format: String?; var formatVersion: Int? }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let header = try? decoder.decode(Header.self, from: data), header.format == ModeModel.format else {
            throw PipelineError(
                .modelUnreadable, path: path, reason: "not a mode model (expected JSON with \"format\": \"\(ModeModel.format)\")")
        }
        guard let version = header.formatVersion, readableVersions.contains(version) else {
            throw PipelineError(
                .modelUnreadable, path: path,
                reason: "model format version \(header.formatVersion ?? 0); this build reads versions "
                    + "\(readableVersions.lowerBound)–\(readableVersions.upperBound)")
        }
        let model: ModeModel
        do { model = try decoder.decode(ModeModel.self, from: data) } catch {
            throw PipelineError(.modelUnreadable, path: path, reason: "damaged model file: \(error)")
        }
        if let problem = model.schemaProblem { throw PipelineError(.modelUnreadable, path: path, reason: problem) }
        return model
    }

    /// What a user of this model should know before trusting its answers: a GPS leg model
    /// without calibration (trained before version 3) names a type whenever it is more likely
    /// than the others together, and reads every leg as if it were like its training legs.
    public var warnings: [String] {
        guard let gpsLegs, gpsLegs.calibration == nil else { return [] }
        return [
            "the model's GPS leg model has no calibration (model format version \(formatVersion)): its probabilities are used as they are, a type is named when it is more likely than the other types together, and legs unlike its training legs are not recognised; retrain it with this version's `pipeline train`"
        ]
    }

    /// Why this model cannot be fed the features this build computes, or nil.
    public var schemaProblem: String? {
        if featureSchemaVersion != FeatureSchema.version || features != FeatureSchema.names {
            let missing = Set(features).subtracting(FeatureSchema.names).sorted().prefix(3)
            return "model was trained on feature schema \(featureSchemaVersion) (\(features.count) features"
                + (missing.isEmpty ? "" : ", e.g. \(missing.joined(separator: ", ")) which this build does not compute")
                + "); this build computes schema \(FeatureSchema.version) (\(FeatureSchema.names.count) features). Retrain it with `pipeline train`."
        }
        let shapes = fits(Classifier(regression: regression, network: network)) && (gravityFree.map(fits) ?? true)
        if !shapes || standardizer.means.count != features.count {
            return "the model's weights do not match its kind (\(kind.rawValue)) or its own feature and class lists"
        }
        if let problem = window.problem { return "invalid window parameters: \(problem)" }
        if let problem = gpsLegs?.schemaProblem { return problem }
        return nil
    }

    /// True when `classifier` holds weights of the model's kind shaped for its features and classes.
    private func fits(_ classifier: Classifier) -> Bool {
        switch kind {
        case .softmaxRegression:
            return classifier.regression.map {
                $0.features == features.count && $0.classes == classes.count
                    && $0.weights.count == (features.count + 1) * classes.count
            } ?? false
        case .mlp:
            return classifier.network.map {
                $0.features == features.count && $0.classes == classes.count
                    && $0.weights1.count == features.count * $0.hidden && $0.bias1.count == $0.hidden
                    && $0.weights2.count == $0.hidden * classes.count && $0.bias2.count == classes.count
            } ?? false
        }
    }

    /// True when the model can classify a window with these features: any window for a GPS
    /// model; for an IMU model, a window with gravity, or a gravity-free one when it learnt them.
    public func reads(_ row: ArraySlice<Double>) -> Bool {
        guard usesInertial else { return true }
        if !row[row.startIndex + FeatureSchema.gravityPresenceColumn].isNaN { return true }
        return gravityFree != nil && !row[row.startIndex + FeatureSchema.accelerationPresenceColumn].isNaN
    }

    /// True when `row` has no gravity and goes to the gravity-free classifier.
    public func isGravityFree(_ row: ArraySlice<Double>) -> Bool {
        usesInertial && gravityFree != nil && row[row.startIndex + FeatureSchema.gravityPresenceColumn].isNaN
    }

    /// Class probabilities, rows × classes, for standardised features (rows × features).
    /// With `gravityFree`, by the gravity-free classifier.
    public func probabilities(_ standardized: [Double], rows: Int, gravityFree: Bool = false) -> [Double] {
        let (regression, network) =
            gravityFree ? (self.gravityFree!.regression, self.gravityFree!.network) : (self.regression, self.network)
        switch kind {
        case .softmaxRegression: return regression!.probabilities(standardized, rows: rows)
        case .mlp: return network!.probabilities(standardized, rows: rows)
        }
    }

    public func save(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try JSONText.data(self, keys: .snakeCase, layout: .pretty).writeThroughPartial(to: URL(fileURLWithPath: path))
    }
}
