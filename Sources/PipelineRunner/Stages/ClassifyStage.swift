import Classify
import Features
import Foundation
import Fusion
import Ingest
import MobilityCore
import Reports
import Store

/// The classify stage of `pipeline run`: the windows of every file with IMU data whose windows
/// are missing or stale (another model or version, `--force`), decided the one way
/// (`RecordingClassifier`), stored per file; then `modes.csv` is written from the store.
///
/// A file is parsed once per run: ingest hands each IMU recording it reads to `classifyRead`
/// (`IngestRun.onRecording`), which classifies it there, on the thread that read it, while the
/// recording is in memory. `run` then stores those windows and reads only the files ingest did
/// not (unchanged files whose windows are stale). Both ways give the same windows: the
/// recording ingest built is the one `RecordingLoader` builds from the file.
final class ClassifyStage: @unchecked Sendable {
    let setting: PipelineConfiguration.Classification
    let cleaning: CleaningParameters
    /// Every file is classified again (no stored mark matches "").
    let force: Bool
    private let lock = NSLock()
    /// How ingest's recordings are classified: nil until the first, then `.some(nil)` when the
    /// settings cannot say before the store's IMU files are counted (`Setup.decide`).
    private var early: Setup??
    /// What `classifyRead` decided, by path, with the content it decided it for.
    private var classified: [String: (sha256: String, modes: Result<FileModes, Error>)] = [:]

    init(setting: PipelineConfiguration.Classification, cleaning: CleaningParameters, force: Bool) {
        (self.setting, self.cleaning, self.force) = (setting, cleaning, force)
    }

    /// How windows are decided: the model (nil: the rules), its key in the store, the window.
    struct Setup: Sendable {
        var model: ModeModel?
        /// Stored with each file's windows: another key classifies the file again.
        var key: String
        var predictor: ModePredictor
        var window: WindowParameters
        /// Why the rules classify where a model was expected.
        var warning: String?

        /// The setup `setting` gives when the store holds `imuFiles` files with IMU data; nil
        /// when `imuFiles` is not known yet (before ingest) and the setup depends on it (no
        /// model file where the settings name one, and the rules not asked for).
        static func decide(_ setting: PipelineConfiguration.Classification, imuFiles: Int?) throws -> Setup? {
            var model: ModeModel?, key = "rules", warning: String?
            let modelFound = FileManager.default.fileExists(atPath: setting.model)
            if !setting.rulesOnly && !modelFound && imuFiles == nil { return nil }
            if !setting.rulesOnly && ((imuFiles ?? 0) > 0 || modelFound) {
                // GPS-only data needs no model (its legs get the model's GPS leg model, or the GPS
                // rules, in the trip stage).
                if modelFound {
                    model = try ModeModel.load(path: setting.model)
                    key = try ContentHash.sha256(path: setting.model)
                    warning = model?.warnings.first
                } else if setting.model == DefaultModel.relativePath {
                    // The default, found nowhere (a binary copied away from its install): the rules
                    // classify, and the run says so; a model the user named is never replaced.
                    warning = ClassifyStage.modelFallback
                } else {
                    throw ClassifyStage.modelMissing(path: setting.model, imuFiles: imuFiles ?? 0)
                }
            }
            key += " " + ToolVersion.string // a new version re-classifies: what it computes may differ
            key +=
                setting.smoothing
                ? String(
                    format: "+smoothing %g/%g/%g+vehicle stops", setting.switchPenaltyNats, setting.minimumSegmentSeconds,
                    setting.minimumStopSeconds) : ""
            var predictor = ModePredictor(model: model, smooth: setting.smoothing)
            predictor.smoother = setting.smoother
            return Setup(model: model, key: key, predictor: predictor, window: model?.window ?? WindowParameters(), warning: warning)
        }
    }

    /// One file's classified windows, and what to say about them.
    struct FileModes: Sendable {
        var rows: [PipelineStore.ModeWindowRow]
        var note: String?
    }

    /// Classifies a recording ingest has just read (`IngestRun.onRecording`), when the settings
    /// say how before ingest ends; otherwise, or when the model cannot be loaded (the stage says
    /// why), the stage reads the file itself.
    func classifyRead(path: String, contentSHA256: String, recording: Recording) {
        let setup: Setup? = lock.withLock {
            if early == nil { early = .some((try? Setup.decide(setting, imuFiles: nil)) ?? nil) }
            return early!
        }
        guard let setup else { return }
        let modes = Result { try self.modes(of: path, loader: loader, setup: setup) { $0.run(recording) } }
        lock.withLock { classified[path] = (contentSHA256, modes) }
    }

    /// The stage: classifies the pending files (those `classifyRead` decided are only stored),
    /// as many at a time as `Jobs` allows (memory for that many recordings), and writes
    /// `modes.csv` from the store into `restrictedFolder`.
    func run(store: PipelineStore, restrictedFolder: String, progress: ProgressReporter) throws -> (
        files: Int, windows: Int, setup: Setup
    ) {
        let imuFiles = try store.filesToClassify(model: "").count
        let decided = lock.withLock { early ?? nil }
        guard let setup = try decided ?? Setup.decide(setting, imuFiles: imuFiles) else {
            preconditionFailure("the setup is decided once the IMU files are counted")
        }
        if let warning = setup.warning { progress.log("classify: warning: " + warning) }
        let pending = try store.filesToClassify(model: force ? "" : setup.key)
        progress.log("classify: \(pending.count) files with IMU data to classify (\(setup.model == nil ? "rules" : setting.model))")
        var windows = 0
        let fromIngest = lock.withLock { pending.filter { classified[$0.path]?.sha256 == $0.sha256 }.count }
        let width = Jobs.width, loader = self.loader
        for chunkStart in stride(from: 0, to: pending.count, by: width) {
            let chunk = Array(pending[chunkStart..<min(pending.count, chunkStart + width)])
            progress.update(done: chunkStart, total: pending.count, item: chunk[0].path)
            let outcomes = ConcurrentSlots<Result<FileModes, Error>>(count: chunk.count)
            Jobs.perform(chunk.count) { [self] index in
                let file = chunk[index]
                if let read = take(file) {
                    outcomes.store(read, at: index)
                } else {
                    outcomes.store(Result { try classify(file, loader: loader, setup: setup) }, at: index)
                }
            }
            for (file, outcome) in zip(chunk, outcomes.values) {
                var modes: FileModes
                do {
                    modes = try outcome.get()
                } catch {
                    // No poison pill: one file that breaks this stage is set aside with its reason, the
                    // others are classified, and the next run does not try it again until it changes.
                    let code = (error as? InputError)?.code.rawValue ?? "stage_failed"
                    let reason = (error as? InputError)?.message ?? "\(error)"
                    try store.recordClassifyFailure(file, code: code, reason: reason, model: setup.key)
                    progress.log("classify: set aside \(file.path): \(reason)")
                    continue
                }
                // The store's identity wins.
                for i in modes.rows.indices { modes.rows[i].device = file.device; modes.rows[i].trace = file.path }
                try store.replaceModeWindows(modes.rows, classifying: file, model: setup.key, note: modes.note)
                windows += modes.rows.count
                let said = "classify: \(file.path): \(modes.rows.count) windows" + (modes.note.map { "; " + $0 } ?? "")
                if modes.rows.isEmpty || modes.note != nil { progress.log(said) } else { progress.detail(said) }
            }
        }
        progress.update(done: pending.count, total: pending.count, item: "")
        lock.withLock { classified = [:] }
        if !pending.isEmpty {
            progress.log(
                "classify: \(fromIngest) of the \(pending.count) files classified as ingest read them, "
                    + "\(pending.count - fromIngest) read again (unchanged files whose windows were stale)")
        }
        try ModesCSV.write(
            storeRows: try store.modeWindows(), shownPaths: try store.shownPaths(),
            to: (restrictedFolder as NSString).appendingPathComponent("modes.csv"))
        return (pending.count, windows, setup)
    }

    /// What `classifyRead` decided for `file`, if it read this content.
    private func take(_ file: PipelineStore.ClassifiableFile) -> Result<FileModes, Error>? {
        lock.withLock {
            guard let read = classified.removeValue(forKey: file.path), read.sha256 == file.sha256 else { return nil }
            return read.modes
        }
    }

    private var loader: RecordingLoader {
        var loader = RecordingLoader()
        loader.cleaning = cleaning
        return loader
    }

    /// Reads one file (with the column mapping it was ingested with) and classifies its windows;
    /// throws when the file cannot be read now.
    private func classify(_ file: PipelineStore.ClassifiableFile, loader: RecordingLoader, setup: Setup) throws -> FileModes {
        var loader = loader
        loader.mappings = try ColumnMappings(stored: file.columnMapping) // as the file was ingested
        return try modes(of: file.path, loader: loader, setup: setup) {
            try $0.run([file.path], progress: ProgressReporter(quiet: true))
        }
    }

    /// The windows of the trace at `path`, which `read` features, decided with `setup`.
    private func modes(
        of path: String, loader: RecordingLoader, setup: Setup, read: (FeatureRun) throws -> FeatureRun.Output
    ) throws -> FileModes {
        var run = FeatureRun(loader: loader, window: setup.window)
        let classifier = RecordingClassifier(
            predictor: setup.predictor, findsVehicleStops: setting.smoothing, minimumStopSeconds: setting.minimumStopSeconds)
        run.onRecording = { recording, part in classifier.observe(recording, part: part) }
        let output = try read(run)
        // The file was read at ingest; failing now (gone, changed, unreadable) sets it aside.
        if let problem = output.report.quarantined.first { throw problem }
        var prediction = classifier.predict(output.table)
        classifier.applyStops(windows: output.table.windows, to: &prediction)
        return FileModes(
            rows: ModesCSV.storeRows(output.table.windows, prediction: prediction),
            note: output.notes[path].map { $0.joined(separator: "; ") })
    }

    /// No model where the user named one, for the run's IMU files.
    static func modelMissing(path: String, imuFiles: Int) -> PipelineError {
        PipelineError(
            .modelMissing,
            "no mode model at \(path) for the \(imuFiles) files with IMU data: give --model FILE "
                + "(the shipped model is models/mode-model.json in the repository, or share/mobility-pipeline/ under the install prefix), or set classification.rules_only: true in the configuration"
        )
    }

    /// What a run says when the default model is found nowhere and the rules classify instead.
    static let modelFallback =
        "no mode model found (\(DefaultModel.relativePath) here, models/ above the executable, or "
        + "\(DefaultModel.installedPath) under its install prefix): IMU windows were classified by the rules (still, walk, "
        + "bike, car, from speed and steps); give --model FILE, or install with scripts/install.sh"
}
