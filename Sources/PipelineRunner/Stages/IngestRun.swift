import Features
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
    public let progress: ProgressReporter
    /// When set, each IMU recording read is also handed over whole, on the thread that read it,
    /// with its content's SHA-256, before that thread reads another: `pipeline run` classifies
    /// it there, so the file is parsed once (memory for one recording per job, as classification
    /// alone needs).
    public var onRecording: (@Sendable (_ path: String, _ contentSHA256: String, _ recording: Recording) -> Void)?
    /// The files whose ISO 8601 times carry no offset from UTC and were read as UTC, with the line.
    private let timesWithoutOffset = Lines()

    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines.sorted() } }
    }

    public init(options: IngestOptions, progress: ProgressReporter) {
        self.options = options
        self.progress = progress
    }

    public func run() throws -> IngestSummary {
        try InputPath.requireExisting(options.paths) // before the lock or store is created
        return try StoreSession.run(storePath: options.storePath) { store in
            let reported = try store.reportedQuarantines()
            var summary = try run(store: store)
            // A file an earlier command quarantined and was killed before it said so: said now, exit 2.
            let unreported = Set(try store.quarantinedFiles().filter { !reported.contains(PipelineStore.quarantineKey($0)) }.map(\.path))
            if !unreported.isEmpty, summary.exitStatus == 0 {
                summary.exitStatus = 2
                summary.warnings.append(
                    "\(unreported.count) files were quarantined by an earlier command that did not complete ("
                        + unreported.sorted().prefix(3).joined(separator: ", ") + (unreported.count > 3 ? ", …" : "")
                        + "): see quarantine.csv")
            }
            try store.markQuarantinesReported()
            return summary
        }
    }

    /// The stage on a command's open store (`pipeline run` hands every stage its one session's store).
    public func run(store: PipelineStore) throws -> IngestSummary {
        let started = Date()
        var summary = IngestSummary(store: options.storePath)
        let inputs = try InputDiscovery.discover(options.paths, excluding: options.outputFolders)
        summary.inputsFound = inputs.filter { $0.problem == nil }.count
        var catalog = try InputCatalog(namePattern: options.namePattern, mappings: options.columns)
        catalog.survey(inputs)
        // Fixes are stored cleaned: other cleaning parameters than the store's files were read
        // with make every file read again (and give a quarantined file another chance).
        let cleaning = String(decoding: try JSONEncoder.sorted.encode(options.cleaning), as: UTF8.self)
        let storedCleaning = try store.derivedState("ingest_cleaning")
        let rereadAll = options.force || (storedCleaning != nil && storedCleaning != cleaning)
        if rereadAll, !options.force {
            progress.log("the cleaning parameters differ from those the store's inputs were read with: every input is read again")
            summary.warnings.append(
                "the cleaning parameters changed since the inputs were read (\(storedCleaning!) → \(cleaning)): every input was read again")
        }
        let runID = try store.beginRun(command: "ingest " + options.paths.joined(separator: " "))
        var counts = RunCounts()
        func count(_ outcome: Outcome) {
            switch outcome {
            case .ingested: counts.ingested += 1
            case .unchanged: counts.unchanged += 1
            case .quarantined: counts.quarantined += 1
            case .skipped: counts.skipped += 1
            }
        }
        let width = Jobs.width
        do {
            var index = 0
            while index < inputs.count {
                // Files are prepared (hashed, detected) in order. IMU recordings, whose samples are
                // summarised as they stream, are read as many at a time as there are cores; a file
                // whose fixes stream into the store is read inside its transaction as before. Every
                // file read is stored in discovery order (one that fails before it is read, say
                // unreadable or of no known format, is recorded as soon as that is known).
                var batch: [Pending] = [], streamed: Pending?
                while index < inputs.count, batch.count < width, streamed == nil {
                    progress.update(done: index, total: inputs.count, item: inputs[index].path)
                    counts.seen += 1
                    let step = try prepare(
                        inputs[index], store: store, runID: runID, catalog: &catalog, rereadAll: rereadAll, summary: &summary)
                    index += 1
                    switch step {
                    case .done(let outcome): count(outcome)
                    case .ready(let pending) where pending.readsAhead: batch.append(pending)
                    case .ready(let pending): streamed = pending
                    }
                }
                let reads = batch.count > 1 || onRecording != nil ? Self.readAhead(batch, onRecording) : batch.map { _ in nil }
                for (pending, read) in zip(batch, reads) {
                    count(try storeOne(pending, readAhead: read, store: store, runID: runID, summary: &summary))
                }
                if let streamed { count(try storeOne(streamed, readAhead: nil, store: store, runID: runID, summary: &summary)) }
            }
        } catch {
            try? store.finishRun(id: runID, counts: counts, failed: true) // the run log says it failed
            throw error
        }
        progress.update(done: inputs.count, total: inputs.count, item: "")
        try settleIdentities(store: store, found: Set(inputs.map(\.path)), summary: &summary)
        try store.setDerivedState("ingest_cleaning", cleaning)
        try store.finishRun(id: runID, counts: counts)
        if let folder = options.reportsFolder {
            try OutputLayout.prepareRestricted(in: folder)
            try QuarantineReport.write(try store.quarantinedFiles(), to: OutputLayout.path("quarantine.csv", in: folder))
        }
        for spec in options.columns.scoped + [options.columns.unscoped].compactMap({ $0 }) where !summary.mappingsUsed.contains(spec.text) {
            summary.warnings.append(
                "--columns '\(spec.text)' was applied to no file: "
                    + (spec.files.map {
                        "no input is named like \($0) (a glob of the name, or with a / of the path below the folder given)"
                    }
                        ?? "every table was a known format, not a trace, or did not fit it (too few fields, or text where it reads numbers)")
                    + "; nothing was read with it")
        }
        let listed = timesWithoutOffset.all
        if !listed.isEmpty {
            summary.warnings.append(
                "\(listed.count) files write their times without an offset from UTC (\(listed.prefix(3).joined(separator: ", "))"
                    + (listed.count > 3 ? ", …" : "") + "), and none was given, so they were read as UTC; if they are local times, "
                    + "give the offset: a utc_offset column in manifest.csv, or --columns 'files=GLOB; utc_offset=+01:00'")
        }
        let below = inputs.compactMap { input in catalog.resolver.manifest.rowAbove(input.path).map { (input.path, $0) } }
        if let (path, row) = below.first {
            summary.warnings.append(
                "\(below.count) files lie in folders below a manifest row's glob but match no row, so their device comes from "
                    + "their folder or name, not the row's: \(path) under \(row.manifest) line \(row.line) (\(row.pattern))"
                    + (below.count > 1 ? ", …" : "") + "; a recording's labels and tracks would be two devices. "
                    + "Write the row with ** to match every folder below (user/**), or give the files rows of their own")
        }
        for row in catalog.resolver.manifest.unmatchedRows(inputs.map(\.path)) {
            summary.warnings.append(
                "\(row.manifest) line \(row.line): \(row.path) matches no input file (moved, renamed or misspelt? the path is "
                    + "relative to the manifest's folder); its device and person were given to nothing")
        }
        summary.files = counts.seen
        summary.ingested = counts.ingested
        summary.unchanged = counts.unchanged
        summary.skipped = counts.skipped
        summary.quarantined = counts.quarantined
        summary.storeTotals = try store.tableCounts()
        summary.seconds = Date().timeIntervalSince(started)
        summary.exitStatus = counts.quarantined > 0 ? 2 : 0
        if summary.inputsFound == 0 {
            summary.warnings.append(
                "no input file was found in \(options.paths.joined(separator: ", ")) (an empty or unmounted folder?): nothing was read")
        }
        return summary
    }

    /// After the inputs are read: drops rows of forgotten devices and persons that shared
    /// tables brought back, and lists (or, with `pruneMissing`, removes) the stored inputs whose
    /// files are gone.
    private func settleIdentities(store: PipelineStore, found: Set<String>, summary: inout IngestSummary) throws {
        let purged = try store.purgeForgotten()
        if purged.checkins + purged.labels > 0 {
            progress.log("dropped \(purged.checkins) check-ins and \(purged.labels) labels of forgotten devices")
        }
        let missing = try store.storedInputs().map(\.path).filter { !found.contains($0) && FileKind(path: $0).isMissing }
        guard !missing.isEmpty else { return }
        if options.pruneMissing {
            try store.removeInputs(paths: missing)
            summary.prunedInputs = missing
            progress.log("pruned \(missing.count) inputs no longer found, with every row made from them")
        } else {
            summary.missingInputs = missing
            summary.warnings.append(
                "\(missing.count) input\(missing.count == 1 ? "" : "s") read before \(missing.count == 1 ? "is" : "are") no longer found "
                    + "(first: \(missing[0])); their data is kept and still in every output: --prune-missing removes it")
        }
    }

    enum Outcome { case ingested, unchanged, quarantined, skipped }

    /// A file to read: hashed, detected, new or changed since the store last saw it.
    struct Pending: Sendable {
        var input: DiscoveredInput, format: InputFormat, hash: String, size: Int64, signature: String?
        var ingestor: Ingestor
        /// IMU recordings keep only per-stream summaries in the store, so reading one ahead, off
        /// the store's transaction, holds little memory (a Sensor Logger export's few fixes).
        var readsAhead: Bool { [.imuCSV, .androidEventLog, .sensorLogger, .phyphox].contains(format.kind) }
    }

    enum Step { case done(Outcome), ready(Pending) }

    /// What one read ahead gave: the result and the fixes and waypoints it streamed, or why it failed.
    typealias ReadAhead = Result<(IngestResult, BufferedRecords), Error>

    /// Reads `batch` on as many threads as it has files, handing each recording read to `observer`.
    static func readAhead(
        _ batch: [Pending], _ observer: (@Sendable (String, String, Recording) -> Void)? = nil
    ) -> [ReadAhead?] {
        let reads = ConcurrentSlots<ReadAhead>(count: batch.count)
        Jobs.perform(batch.count) { index in
            let pending = batch[index], records = BufferedRecords(recording: observer.map { _ in RecordingSink() })
            // One file alone in its batch has the other cores: its rows are parsed on one of them.
            var ingestor = pending.ingestor
            ingestor.imuReadsAhead = Jobs.widthHere > 1
            let read = Result { (try ingestor.ingest(pending.input, format: pending.format, into: records), records) }
            if let observer, let sink = records.recording, case .success(let (result, _)) = read {
                observer(pending.input.path, pending.hash, RecordingLoader.recording(of: pending.input, result: result, read: sink))
                records.dropRecording()
            }
            reads.store(read, at: index)
        }
        return reads.values
    }

    private func prepare(
        _ input: DiscoveredInput, store: PipelineStore, runID: Int64, catalog: inout InputCatalog, rereadAll: Bool,
        summary: inout IngestSummary
    ) throws -> Step {
        if let problem = input.problem { // never opened
            return .done(
                try settle(
                    InputCatalog.verdict(problem, path: input.path), input: input, hash: "", size: 0,
                    store: store, runID: runID, summary: &summary))
        }
        let previous = try store.storedState(path: input.path)
        // An input whose size, modification time and inode are what they were when it was last
        // hashed is the same input: its stored hash stands, and its bytes are not read again
        // (--verify and --force hash anyway).
        let signature = FileSignature.of(path: input.path)
        var previousHash = previous?.fileSignature == signature ? previous?.contentSHA256 : nil
        if previous == nil, !options.force, !options.verify, let signature {
            // A file moved within one file system keeps its size, modification time and inode:
            // the stored hash of the vanished path stands for it (--verify hashes anyway).
            previousHash = try store.storedInputs(signature: signature).first { FileKind(path: $0.path).isMissing }?.contentSHA256
        }
        let trusted = !options.force && !options.verify && signature != nil && !(previousHash?.isEmpty ?? true)
        let hash: String, size: Int64
        do {
            hash = trusted ? previousHash! : try ContentHash.sha256(path: input.path)
            size = InputFileSize.bytes(input.path)
        } catch let error as InputError {
            // Stored with an empty hash, so the next run tries again and finds it readable or not.
            return .done(
                try quarantine(
                    error, input: input.path, hash: "", size: InputFileSize.bytes(input.path), format: nil,
                    store: store, runID: runID, summary: &summary, relativePath: input.relativePath))
        }
        if trusted { summary.unhashed += 1 }
        // A mapping belongs to its file: a re-run without one for it reads it as it was read.
        let (verdict, identity) = catalog.examine(input, stored: previous?.columnMapping)
        switch (catalog.mapping(for: input, stored: previous?.columnMapping), verdict) {
        case (.given(let spec)?, _): summary.used(mapping: spec.text)
        case (.fallback(let spec)?, .read(let format)) where format.userMapping != nil: summary.used(mapping: spec.text)
        default: break
        }
        let stored = previous.map {
            SameInput.Stored(
                path: input.path, contentSHA256: $0.contentSHA256, status: $0.status, columnMapping: $0.columnMapping, device: $0.device,
                person: $0.person)
        }
        guard case .read(let detected) = verdict else {
            if case .quarantine = verdict, SameInput.quarantinedBefore(hash, previous: stored, rereadAll: rereadAll) {
                return .done(.unchanged)
            }
            return .done(
                try settle(
                    verdict, input: input, hash: hash, size: size, signature: signature, store: store, runID: runID,
                    summary: &summary))
        }
        do {
            let mapping = detected.userMapping
            if mapping != nil { summary.filesReadWithColumns += 1 }
            let recording = detected.kind.isDeviceRecording
            if recording, try store.isForgotten(device: identity.device, person: identity.person) {
                let reason =
                    "device \(identity.device) (person \(identity.person)) was forgotten (pipeline forget); its inputs are not read"
                progress.log("skipped \(input.path): \(reason)")
                summary.skippedFiles.append(.init(path: input.path, reason: reason))
                return .done(.skipped)
            }
            let found = SameInput.Found(
                contentSHA256: hash, columnMapping: mapping, isRecording: recording, device: identity.device, person: identity.person)
            let sameContent = {
                try store.storedInputs(sha256: hash).filter { $0.path != input.path }.map {
                    (
                        stored: SameInput.Stored(
                            path: $0.path, contentSHA256: $0.contentSHA256, status: $0.status, device: $0.device, person: $0.person),
                        gone: FileKind(path: $0.path).isMissing
                    )
                }
            }
            switch try SameInput.decide(found, previous: stored, sameContent: sameContent, rereadAll: rereadAll, force: options.force) {
            case .unchanged:
                if previous?.fileSignature != signature { try store.updateFileSignature(path: input.path, signature: signature) }
                if previous?.relativePath != input.relativePath { try store.setRelativePath(input.relativePath, path: input.path) }
                progress.detail("unchanged \(input.path)" + (trusted ? " (size, modification time and inode)" : ""))
                return .done(.unchanged)
            case .moved(let earlier): // moved or renamed (or its folder re-mounted): the same input, not a new one
                try store.moveInput(from: earlier, to: input.path, relativePath: input.relativePath, signature: signature)
                summary.moved.append(.init(from: earlier, to: input.path))
                progress.detail("moved \(earlier) -> \(input.path): the same content, not read again")
                return .done(.unchanged)
            case .copy(let earlier):
                let reason = "the same content (SHA-256) as \(earlier), which is read instead; a copy is never counted twice"
                progress.log("skipped \(input.path): \(reason)")
                summary.skippedFiles.append(.init(path: input.path, reason: reason))
                summary.duplicates += 1
                return .done(.skipped)
            case .read: break
            }
            return .ready(
                Pending(
                    input: input, format: detected, hash: hash, size: size, signature: signature,
                    ingestor: Ingestor(cleaning: options.cleaning, devices: catalog.resolver)))
        } catch let error as InputError {
            return .done(
                try quarantine(
                    error, input: input.path, hash: hash, size: size, format: detected, store: store, runID: runID, summary: &summary,
                    signature: signature, relativePath: input.relativePath))
        }
    }

    /// Skips or quarantines an input the catalog will not have read.
    private func settle(
        _ verdict: InputCatalog.Verdict, input: DiscoveredInput, hash: String, size: Int64, signature: String? = nil,
        store: PipelineStore, runID: Int64, summary: inout IngestSummary
    ) throws -> Outcome {
        switch verdict {
        case .read: preconditionFailure("an input to read is not settled")
        case .skip(let reason, let worthSaying):
            summary.skippedFiles.append(.init(path: input.path, reason: reason))
            if worthSaying { progress.log("skipped \(input.path): \(reason)") } else { progress.detail("skipped \(input.path): \(reason)") }
            return .skipped
        case .quarantine(let error, let format):
            return try quarantine(
                error, input: input.path, hash: hash, size: size, format: format, store: store, runID: runID, summary: &summary,
                signature: signature, relativePath: input.relativePath)
        }
    }

    /// Reads `pending` into the store in its own transaction (or stores what was read ahead),
    /// or quarantines it.
    private func storeOne(
        _ pending: Pending, readAhead: ReadAhead?, store: PipelineStore, runID: Int64,
        summary: inout IngestSummary
    ) throws -> Outcome {
        do {
            let result = try store.storeIngested(
                path: pending.input.path, contentSHA256: pending.hash, sizeBytes: pending.size,
                runID: runID, fileSignature: pending.signature,
                relativePath: pending.input.relativePath
            ) { sink in
                guard let readAhead else { return try pending.ingestor.ingest(pending.input, format: pending.format, into: sink) }
                let (result, records) = try readAhead.get()
                try records.replay(into: sink)
                return result
            }
            summary.add(result)
            if let line = result.timeWithoutOffsetLine { timesWithoutOffset.append("\(pending.input.path) line \(line)") }
            progress.detail("ingested \(pending.input.path): \(result.summaryLine)")
            return .ingested
        } catch let error as InputError {
            return try quarantine(
                error, input: pending.input.path, hash: pending.hash, size: pending.size, format: pending.format, store: store,
                runID: runID,
                summary: &summary, signature: pending.signature, relativePath: pending.input.relativePath)
        }
    }

    /// `signature` is stored only with a hash: an input quarantined unhashed is tried again.
    /// Stores `input` as quarantined for `error`. An error in a file inside an export (a folder
    /// or zip) is the export's: stored under the input's path, the inner file named in the reason.
    private func quarantine(
        _ error: InputError, input: String, hash: String, size: Int64, format: InputFormat?, store: PipelineStore,
        runID: Int64, summary: inout IngestSummary, signature: String? = nil, relativePath: String? = nil
    ) throws -> Outcome {
        var problem = QuarantineProblem(error)
        if error.path != input, error.path.hasPrefix(input + "/") {
            problem.reason = String(error.path.dropFirst(input.count + 1)) + (error.line.map { ":\($0)" } ?? "") + ": " + problem.reason
        }
        try store.storeQuarantined(
            path: input, contentSHA256: hash, sizeBytes: size, runID: runID,
            format: format?.kind.rawValue, problem: problem, fileSignature: hash.isEmpty ? nil : signature,
            relativePath: relativePath)
        summary.quarantine.append(
            .init(path: error.path, line: error.line, column: error.column, code: error.code.rawValue, reason: error.message))
        progress.log("quarantined \(error)")
        return .quarantined
    }
}

extension JSONEncoder {
    /// Keys sorted, so equal values encode to equal text (for comparing stored settings).
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
