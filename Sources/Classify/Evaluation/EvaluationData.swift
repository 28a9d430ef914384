import Foundation
import MobilityCore

/// The data an evaluation scored: its inputs with their content, device and person, and its
/// windows and legs, so a score always says what it was measured on.
public struct ScoredData: Encodable, Sendable {
    public var files: Int
    public var devices: Int
    public var persons: Int
    public var windows: Int
    public var legs: Int
    public var inputs: [ModeModel.Provenance.TrainingInput]
    /// Recordings read that gave no labelled window or leg, each with why (never silently
    /// fewer files than were given).
    public var unscored: [Unscored] = []

    public struct Unscored: Encodable, Sendable, Equatable {
        public var trace: String, reason: String
        public init(trace: String, reason: String) { (self.trace, self.reason) = (trace, reason) }
    }

    /// `inputs`: each scored trace's identity, by trace (`DataIdentity.inputs`).
    public init(_ inputs: [String: ModeModel.Provenance.TrainingInput], windows: Int, legs: Int) {
        let inputs = inputs.values.sorted { $0.path < $1.path }
        self.inputs = inputs
        files = inputs.count
        devices = Set(inputs.map(\.device)).count
        persons = Set(inputs.map(\.person)).count
        self.windows = windows
        self.legs = legs
    }

    public var text: String {
        "scored data: \(files) files, \(devices) devices, \(persons) persons, \(windows) labelled windows, \(legs) labelled legs"
            + (unscored.isEmpty
                ? ""
                : "\n\(unscored.count) more recordings read gave nothing to score:"
                    + unscored.map { "\n  \($0.trace): \($0.reason)" }.joined())
    }

    /// The recordings of `read` (traces, in reading order) that are not in `scored`, with why:
    /// `notes` (why a recording gave no window) or what its windows lacked.
    public static func unscored(read: [String], scored: Set<String>, windowsPerTrace: [String: Int], notes: [String: [String]])
        -> [Unscored]
    {
        var seen = Set<String>()
        return read.filter { !scored.contains($0) && seen.insert($0).inserted }.map { trace in
            let why =
                notes[trace].map { $0.joined(separator: "; ") }
                ?? ((windowsPerTrace[trace] ?? 0) > 0
                    ? "no label covers its \(windowsPerTrace[trace]!) windows (see the label files, manifest.csv's mode)"
                    : "it gave no window and no labelled GPS leg")
            return Unscored(trace: trace, reason: why)
        }
    }
}

/// What of the scored data a saved model was trained on (by content and by person; by device
/// name for a model that records no more), and the score on the rest: a model scored on its own
/// training people says little about people it never saw.
public struct DataOverlap: Encodable, Sendable {
    /// Whether the model records its training inputs (content and persons), or only device names.
    public var recordedByContent: Bool
    /// Scored files whose content trained the model (shown paths).
    public var trainedFiles: [String]
    /// Scored persons whose data trained the model (by person, or by device name for old models).
    public var trainedPersons: [String]
    /// Windows of data the model never saw (neither the file nor its person), and their scores.
    public var unseenWindows: Int
    @NullEncodable public var unseenAccuracy: Double?
    @NullEncodable public var unseenMacroF1: Double?

    /// `outcomes` of the scored windows, with each trace's identity (`scored`, by trace).
    public init(model: ModeModel, scored: [String: ModeModel.Provenance.TrainingInput], outcomes: [WindowOutcome]) {
        let provenance = model.provenance
        let byContent = provenance.trainingInputs != nil
        recordedByContent = byContent
        let trainedContent = Set((provenance.trainingInputs ?? []).map(\.sha256))
        let trainedPeople = Set(provenance.persons ?? provenance.devices)
        let person = { (input: ModeModel.Provenance.TrainingInput) in byContent ? input.person : input.device }
        let seen = scored.filter { trainedContent.contains($0.value.sha256) || trainedPeople.contains(person($0.value)) }
        trainedFiles = seen.values.filter { trainedContent.contains($0.sha256) }.map(\.path).sorted()
        trainedPersons = Set(seen.values.map(person).filter(trainedPeople.contains)).sorted()
        let unseen = outcomes.filter { seen[$0.trace] == nil }
        unseenWindows = unseen.count
        if !unseen.isEmpty {
            let report = EvaluationReport(ConfusionMatrix(unseen, \.smoothed))
            (unseenAccuracy, unseenMacroF1) = (report.accuracy, report.macroF1)
        }
    }

    public var text: String {
        let by = recordedByContent ? "matched by content and person" : "matched by device name only: the model records no training files"
        guard !trainedFiles.isEmpty || !trainedPersons.isEmpty else { return "none of the scored data trained the model (\(by))" }
        let files = trainedFiles.isEmpty ? "" : "\(trainedFiles.count) files of "
        var lines = [
            "WARNING: the model was trained on some of the scored data (\(by)): "
                + "\(files)persons \(trainedPersons.joined(separator: ", ")); these scores include them"
        ]
        if let unseenMacroF1, let unseenAccuracy {
            lines.append(
                String(
                    format: "on the data the model never saw (%d windows): accuracy %.3f, macro-F1 %.3f", unseenWindows, unseenAccuracy,
                    unseenMacroF1))
        } else {
            lines.append("no scored window is of data the model never saw: these scores say nothing about unseen people")
        }
        return lines.joined(separator: "\n")
    }
}
