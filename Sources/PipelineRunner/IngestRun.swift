import Foundation
import Ingest
import MobilityCore
import Reports
import Store

/// One `ingest`: discovers inputs, skips the unchanged ones, reads each new or changed input
/// into the store in its own transaction, quarantines what cannot be read, and writes
/// `quarantine.csv`. A run killed at any point leaves every file either fully stored or not
/// at all; the next run picks up where it stopped.
public struct IngestRun {
    public let options: IngestOptions
    public let progress: Progress

    public init(options: IngestOptions, progress: Progress) {
        self.options = options
        self.progress = progress
    }

    public func run() throws -> IngestSummary {
        let lock = try RunLock(storePath: options.storePath)  // one writer per store at a time
        defer { withExtendedLifetime(lock) {} }
        let started = Date()
        let store = try PipelineStore(path: options.storePath)
        var summary = IngestSummary(store: options.storePath)
        let inputs = try InputDiscovery.discover(options.paths)
        var devices = try DeviceResolver(namePattern: options.namePattern)
        let runID = try store.beginRun(command: "ingest " + options.paths.joined(separator: " "))
        var counts = RunCounts()
        let detector = FormatDetector(explicitMapping: options.columns)
        do {
            for (index, input) in inputs.enumerated() {
                progress.update(done: index, total: inputs.count, item: input.path)
                counts.seen += 1
                switch try ingestOne(input, store: store, runID: runID, detector: detector, devices: &devices, summary: &summary) {
                case .ingested: counts.ingested += 1
                case .unchanged: counts.unchanged += 1
                case .quarantined: counts.quarantined += 1
                case .skipped: counts.skipped += 1
                }
            }
        } catch {
            try? store.finishRun(id: runID, counts: counts, failed: true)  // the run log says it failed
            throw error
        }
        progress.update(done: inputs.count, total: inputs.count, item: "")
        try store.finishRun(id: runID, counts: counts)
        if let folder = options.reportsFolder {
            try QuarantineReport.write(try store.quarantinedFiles(), to: (folder as NSString).appendingPathComponent("quarantine.csv"))
        }
        if options.columns != nil, summary.filesReadWithColumns == 0 {
            summary.warnings.append("--columns matched no file: every CSV was a known format or not a trace; nothing was read with it")
        }
        summary.files = counts.seen
        summary.ingested = counts.ingested
        summary.unchanged = counts.unchanged
        summary.skipped = counts.skipped
        summary.quarantined = counts.quarantined
        summary.storeTotals = try store.tableCounts()
        summary.seconds = Date().timeIntervalSince(started)
        summary.exitStatus = counts.quarantined > 0 ? 2 : 0
        return summary
    }

    enum Outcome { case ingested, unchanged, quarantined, skipped }

    /// The detector for one input: the run's, or, when the run has no `--columns` and the file
    /// was ingested with one, a detector with that stored mapping (a mapping belongs to its file,
    /// so a re-run without `--columns` reads it as before).
    static func detector(_ detector: FormatDetector, previous: StoredFileState?) -> FormatDetector {
        guard detector.explicitMapping == nil, let text = previous?.columnMapping,
              let stored = try? ColumnMappingSpec(text: text) else { return detector }
        return FormatDetector(explicitMapping: stored)
    }

    /// The user's mapping text when `format` was read with one.
    static func userMapping(_ format: InputFormat) -> String? {
        if case .imuTable(let mapping) = format { return mapping.spec }
        return nil
    }

    private func ingestOne(
        _ input: DiscoveredInput, store: PipelineStore, runID: Int64, detector: FormatDetector,
        devices: inout DeviceResolver, summary: inout IngestSummary
    ) throws -> Outcome {
        switch input.problem {
        case .notRegular(let kind)?:
            progress.log("skipped \(input.path): \(kind), not a regular file")
            summary.skippedFiles.append(.init(path: input.path, reason: kind + ", not a regular file"))
            return .skipped
        case .unreadable(let reason)?:
            return try quarantine(InputError(.unreadable, reason, path: input.path), hash: "", size: 0, format: nil,
                                  store: store, runID: runID, summary: &summary)
        case nil: break
        }
        let previous = try store.storedState(path: input.path)
        // An input whose size, modification time and inode are what they were when it was last
        // hashed is the same input: its stored hash stands, and its bytes are not read again
        // (--verify and --force hash anyway).
        let signature = FileSignature.of(path: input.path)
        let trusted = !options.force && !options.verify && signature != nil && previous?.fileSignature == signature
            && !(previous?.contentSHA256.isEmpty ?? true)
        let hash: String, size: Int64
        do {
            hash = trusted ? previous!.contentSHA256 : try ContentHash.sha256(path: input.path)
            size = InputFileSize.bytes(input.path)
        } catch let error as InputError {
            // Stored with an empty hash, so the next run tries again and finds it readable or not.
            return try quarantine(error, hash: "", size: InputFileSize.bytes(input.path), format: nil,
                                  store: store, runID: runID, summary: &summary)
        }
        if trusted { summary.unhashed += 1 }
        var format: InputFormat?
        do {
            format = try Self.detector(detector, previous: previous).detect(path: input.path)
            guard let detected = format else {
                if let reason = FormatDetector.whyNotATrace(path: input.path) {
                    // A data extension that is not a trace: said, with what to do if it is one after all.
                    progress.log("skipped \(input.path): \(reason)")
                    summary.skippedFiles.append(.init(path: input.path, reason: reason))
                } else {
                    // A README or licence beside the data: listed, not warned about.
                    summary.skippedFiles.append(.init(path: input.path, reason: IngestSummary.notATraceExtension))
                    progress.detail("skipped \(input.path): \(IngestSummary.notATraceExtension)")
                }
                return .skipped
            }
            let mapping = Self.userMapping(detected)
            if mapping != nil { summary.filesReadWithColumns += 1 }
            if case .manifest = detected {
                var dropped = DropCounts()
                try devices.manifest.load(path: input.path, dropped: &dropped)
            }
            if !options.force, let previous, previous.contentSHA256 == hash, previous.columnMapping == mapping {
                if previous.fileSignature != signature { try store.updateFileSignature(path: input.path, signature: signature) }
                progress.detail("unchanged \(input.path)" + (trusted ? " (size, modification time and inode)" : ""))
                return .unchanged
            }
            let ingestor = Ingestor(cleaning: options.cleaning, devices: devices)
            let result = try store.storeIngested(path: input.path, contentSHA256: hash, sizeBytes: size, runID: runID,
                                                 fileSignature: signature) { sink in
                try ingestor.ingest(input, format: detected, into: sink)
            }
            summary.add(result)
            progress.detail("ingested \(input.path): \(IngestRun.describe(result))")
            return .ingested
        } catch let error as InputError {
            return try quarantine(error, hash: hash, size: size, format: format, store: store, runID: runID, summary: &summary,
                                  signature: signature)
        }
    }

    /// `signature` is stored only with a hash: an input quarantined unhashed is tried again.
    private func quarantine(_ error: InputError, hash: String, size: Int64, format: InputFormat?, store: PipelineStore,
                            runID: Int64, summary: inout IngestSummary, signature: String? = nil) throws -> Outcome {
        try store.storeQuarantined(path: error.path, contentSHA256: hash, sizeBytes: size, runID: runID,
                                   format: format?.kind.rawValue, problem: QuarantineProblem(error), fileSignature: hash.isEmpty ? nil : signature)
        summary.quarantine.append(.init(path: error.path, line: error.line, column: error.column, code: error.code.rawValue, reason: error.message))
        progress.log("quarantined \(error)")
        return .quarantined
    }

    static func describe(_ result: IngestResult) -> String {
        var parts = [result.format.rawValue]
        if result.format.isDeviceRecording { parts.append("device \(result.device)") }
        if result.fixesKept > 0 { parts.append("\(result.fixesKept) fixes") }
        if result.waypointsKept > 0 { parts.append("\(result.waypointsKept) waypoints") }
        if result.imuSamples > 0 { parts.append("\(result.imuSamples) IMU samples") }
        if !result.labels.isEmpty { parts.append("\(result.labels.count) labels") }
        if !result.geofences.isEmpty { parts.append("\(result.geofences.count) geofences") }
        if !result.checkIns.isEmpty { parts.append("\(result.checkIns.count) check-ins") }
        if result.dropped.total > 0 { parts.append("\(result.dropped.total) dropped") }
        return parts.joined(separator: ", ")
    }
}

enum InputFileSize {
    /// Bytes of a file, or of all files in a folder.
    static func bytes(_ path: String) -> Int64 {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard isDirectory.boolValue else {
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { $0 + bytes((path as NSString).appendingPathComponent($1)) }
    }
}
