import Foundation
import MobilityCore

/// What one `ingest` run did, as printed with `--json` (keys in snake_case).
public struct IngestSummary: Encodable {
    public struct QuarantinedFile: Encodable {
        public var path: String
        // null, not left out, when the file has no line (every entry has every key).
        @NullEncodable public var line: Int?
        @NullEncodable public var column: Int?
        public var code: String
        public var reason: String
        public init(path: String, line: Int?, column: Int?, code: String, reason: String) {
            (self.path, self.line, self.column, self.code, self.reason) = (path, line, column, code, reason)
        }
    }

    /// Inputs found (files and Sensor Logger folders).
    public var files = 0
    /// Inputs found that are not skipped as outputs, links to nothing and the like: 0 for an
    /// empty or unmounted folder, which the run warns about.
    public var inputsFound = 0
    public struct MovedInput: Encodable, Sendable {
        public var from: String
        public var to: String
        public init(from: String, to: String) { (self.from, self.to) = (from, to) }
    }

    /// Inputs whose content was read before under another path that no longer exists: the
    /// store's path changed, nothing was read again.
    public var moved: [MovedInput] = []
    /// Inputs skipped because another path with the same content was read.
    public var duplicates = 0
    /// Stored inputs whose files are gone (kept), and those removed with `--prune-missing`.
    public var missingInputs: [String] = []
    public var prunedInputs: [String] = []
    public var ingested = 0
    public var unchanged = 0
    /// Inputs known unchanged by size, modification time and inode, without hashing.
    public var unhashed = 0
    public var quarantined = 0
    public struct SkippedFile: Encodable, Sendable {
        public var path: String
        public var reason: String
        public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }
    }

    /// Files whose extension is not a trace format (README, licence …), and paths that are
    /// not regular files (FIFOs, sockets, devices, links to nothing, link loops).
    public var skipped = 0
    /// Every skipped path with why: not a regular file (and what it is), a data file (CSV,
    /// text, JSON) that is not a trace (and what to give if it is one), another extension.
    public var skippedFiles: [SkippedFile] = []
    /// The reason given for a file whose extension is not a trace format's.
    public static let notATraceExtension = InputCatalog.notATraceExtension
    public var fixes = 0
    public var waypoints = 0
    public var imuSamples = 0
    public var labels = 0
    public var geofences = 0
    public var checkins = 0
    /// Dropped records by reason, over the files ingested in this run.
    public var dropped: [String: Int] = [:]
    /// Label names not in the mode table (stored with an empty mode), with their counts.
    public var unknownModes: [String: Int] = [:]
    /// Rows of unused sensors (magnetometer, light …) by name.
    public var otherSensorRows: [String: Int] = [:]
    public var quarantine: [QuarantinedFile] = []
    /// Things the user should know that stopped nothing (a `--columns` that matched no file …).
    public var warnings: [String] = []
    /// Files read with the user's `--columns` mapping in this run.
    public var filesReadWithColumns = 0
    /// The run's `--columns` mappings (`ColumnMappingSpec.text`) applied to some file.
    public internal(set) var mappingsUsed: [String] = [] // sorted, each once: a Set's order changes from process to process

    public mutating func used(mapping text: String) {
        guard !mappingsUsed.contains(text) else { return }
        mappingsUsed.append(text)
        mappingsUsed.sort()
    }

    public var store: String
    public var seconds = 0.0
    /// Row counts of the store's tables after the run.
    public var storeTotals: [String: Int] = [:]
    /// 0 all inputs read, 2 some inputs quarantined, 1 fatal error.
    public var exitStatus = 0

    public init(store: String) {
        self.store = store
    }

    public mutating func add(_ result: IngestResult) {
        fixes += result.fixesKept
        waypoints += result.waypointsKept
        imuSamples += result.imuSamples
        labels += result.labels.count
        geofences += result.geofences.count
        checkins += result.checkIns.count
        for (reason, count) in result.dropped.counts { dropped[reason.rawValue, default: 0] += count }
        for (name, count) in result.otherSensors { otherSensorRows[name, default: 0] += count }
        for label in result.labels where label.mode == nil { unknownModes[label.rawName, default: 0] += 1 }
    }

    public func json() throws -> String {
        try JSONText.string(self, keys: .snakeCase, layout: .pretty)
    }
}
