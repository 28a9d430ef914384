import Features
import Foundation
import MobilityCore

/// A trained mode classifier as saved to disk (JSON): its format version, the feature schema
/// and window parameters it was trained with, its classes, preprocessing, weights, smoothing,
/// and where it came from. Loading a file written for another schema is a clear error, never
/// a silent misclassification.
public struct ModeModel: Codable, Sendable {
    public static let format = "mobility-pipeline/mode-model"
    public static let currentVersion = 1

    public var format = ModeModel.format
    public var formatVersion = ModeModel.currentVersion
    public var kind = "softmax_regression"
    public var classes: [Mode]
    public var featureSchemaVersion = FeatureSchema.version
    public var features = FeatureSchema.names
    public var window: WindowParameters
    public var standardizer: Standardizer
    public var regression: SoftmaxRegression
    public var smoothing: ModeSmoother
    /// True when the training windows had IMU features; windows without them (GPS-only
    /// traces) are then classified by the rules instead.
    public var usesInertial: Bool
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
        public var training: SoftmaxRegression.Training
        /// The cross-validation run before training on everything, when one was.
        public var evaluation: String?

        public init(command: String, inputs: [String], recordings: Int, devices: [String], windowsPerClass: [String: Int],
                    training: SoftmaxRegression.Training, toolVersion: String, evaluation: String? = nil) {
            createdAt = ISO8601.format(Timestamp(secondsSince1970: Date().timeIntervalSince1970.rounded()))
            self.toolVersion = toolVersion
            self.command = command
            self.inputs = inputs
            self.recordings = recordings
            self.devices = devices
            self.windowsPerClass = windowsPerClass
            self.training = training
            self.evaluation = evaluation
        }
    }

    public struct LoadError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public static func load(path: String) throws -> ModeModel {
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(path: path, reason: "cannot read the model file") }
        struct Header: Decodable { var format: String?; var formatVersion: Int? }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let header = try? decoder.decode(Header.self, from: data), header.format == ModeModel.format else {
            throw LoadError(path: path, reason: "not a mode model (expected JSON with \"format\": \"\(ModeModel.format)\")")
        }
        guard header.formatVersion == currentVersion else {
            throw LoadError(path: path, reason: "model format version \(header.formatVersion ?? 0); this build reads version \(currentVersion)")
        }
        let model: ModeModel
        do { model = try decoder.decode(ModeModel.self, from: data) } catch {
            throw LoadError(path: path, reason: "damaged model file: \(error)")
        }
        if let problem = model.schemaProblem { throw LoadError(path: path, reason: problem) }
        return model
    }

    /// Why this model cannot be fed the features this build computes, or nil.
    public var schemaProblem: String? {
        if featureSchemaVersion != FeatureSchema.version || features != FeatureSchema.names {
            let missing = Set(features).subtracting(FeatureSchema.names).sorted().prefix(3)
            return "model was trained on feature schema \(featureSchemaVersion) (\(features.count) features"
                + (missing.isEmpty ? "" : ", e.g. \(missing.joined(separator: ", ")) which this build does not compute")
                + "); this build computes schema \(FeatureSchema.version) (\(FeatureSchema.names.count) features). Retrain it with `pipeline train`."
        }
        if regression.features != features.count || regression.classes != classes.count
            || standardizer.means.count != features.count || regression.weights.count != (features.count + 1) * classes.count {
            return "the model's weights do not match its own feature and class lists"
        }
        if let problem = window.problem { return "invalid window parameters: \(problem)" }
        return nil
    }

    public func save(path: String) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
