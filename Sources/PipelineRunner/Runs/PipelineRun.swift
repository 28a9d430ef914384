import Classify
import Comfort
import Features
import Foundation
import Fusion
import Ingest
import MobilityCore
import Publication
import Reports
import Store
import Transit
import Trips

/// `pipeline run`: ingest → classify → trips → heat maps → report, over one store in the
/// output folder.
///
/// - Incremental: ingest skips unchanged inputs, classification only reads files whose
///   windows are missing or stale; trips, heat maps and the report are rebuilt from the
///   store. When neither the inputs nor the configuration changed since the last complete
///   run and every output exists, nothing is rewritten and the summary says so.
/// - Resumable: each step commits in its own transaction (a file, a file's windows, all trip
///   results, all heat maps), output files are replaced atomically, and the "complete" mark is
///   written last, so a run killed anywhere is finished by the next one.
/// - Exclusive: a `RunLock` on the store refuses a second concurrent run.
public struct PipelineRun {
    public var inputs: [String]
    public var outputFolder: String
    public var configuration = PipelineConfiguration()
    public var ingest = IngestOptions(paths: [], storePath: "")
    public var force = false
    /// A run over one part of a data set (`--partial`): every stage runs and the store keeps
    /// what merging the parts needs (each device's unfiltered heat-map cells besides), but
    /// nothing is published: no CSV, GeoJSON, PNG or report is written, since the part's
    /// cross-device results (k-anonymous cells, OD, locations) are not the data set's.
    public var partial = false
    /// The devices a partial run owns (check-ins of others are left to their part).
    public var ownedDevices = DeviceRange()

    public init(inputs: [String], outputFolder: String) {
        self.inputs = inputs
        self.outputFolder = outputFolder
        ingest = IngestOptions(paths: inputs, storePath: StoreLocation.path(in: outputFolder))
        ingest.reportsFolder = outputFolder
    }

    /// Files every complete run leaves in the output folder.
    /// The stages a run times (`Summary.stageSeconds`), in order.
    public static let stages = ["ingest", "classify", "trips", "heatmap", "comfort", "report", "geopackage"]
    /// Where the store keeps what the last complete run's OD tables published, so a run that
    /// finds nothing changed says the same (`Summary.odGrid`, `odMatrix`).
    static let publishedODKey = "published_od_tables"

    public static let outputNames =
        ["quarantine.csv", "modes.csv"] + TripTables.fileNames + [ODGridOutput.fileName] + TripGeoJSON.fileNames
        + ["heatmap.csv", "heatmap.geojson", "heatmap.png"] + ComfortTables.fileNames + ["report.html", GeoPackageOutput.fileName]

    public var storePath: String { ingest.storePath }

    /// Where a partial run writes its devices' own rows (staypoints, trips, rides, windows …,
    /// as `pipeline run` writes them, ids local to the part) for the merge to renumber and
    /// join: a folder of its own, never a published one. Its OD, modal split and comfort
    /// summaries cover the part only and are not the data set's; no heat map is written.
    public static let partTablesName = "part-tables"
    var filesFolder: String { partial ? (outputFolder as NSString).appendingPathComponent(Self.partTablesName) : outputFolder }
    /// Where a partial run writes its partial groups of what crosses devices (`PartialTable`).
    var partialsFolder: String? { partial ? (filesFolder as NSString).appendingPathComponent(PartialTable.folderName) : nil }
    /// Where the files that identify people go (`OutputLayout`): `restricted/`, or a part's
    /// work folder.
    var restrictedFolder: String { partial ? filesFolder : OutputLayout.restricted(in: outputFolder) }

    public struct Summary: Sendable, Encodable {
        public var files = 0, ingested = 0, unchanged = 0, quarantined = 0, skipped = 0
        /// Paths skipped because they are not regular files, with what they are.
        public var skippedFiles: [IngestSummary.SkippedFile] = []
        public var fixes = 0, imuSamples = 0, checkins = 0
        public var classifiedFiles = 0, windows = 0
        public var staypoints = 0, dwells = 0, trips = 0, triplegs = 0
        /// How the trips' ends were placed (`TripEnd.Kind`: staypoint, dwell, gap stay, first or
        /// last fix), and the stays across recording gaps.
        public var tripEnds = TripEnd.Tally()
        /// Legs per source of their mode: "model" (classified IMU windows), "gps_leg_model",
        /// "gps_rules", "imu+gps_leg_model", "transit" (`LegFusion`), "none".
        public var legsByModeSource: [String: Int] = [:]
        public var cells = 0, suppressedCells = 0
        /// The origin–destination grid's published and suppressed pairs (`od_grid.csv`); nil in a partial run.
        @NullEncodable public var odGrid: ODGridOutput.Summary?
        /// The zone OD's published rows and what it left out (`od_zones.csv`); nil without a zone
        /// layer (`--zones`) and in a partial run.
        @NullEncodable public var odZones: ZoneODOutput.Summary?
        /// `mode_shares.csv`: rows published with their intervals, the correction's source, and
        /// what was left out; nil in a partial run.
        @NullEncodable public var modeShares: ModeSharesOutput.Summary?
        /// `co2e.csv` (`CO2eOutput`): the factors, the CO2e counted and the trips without one.
        @NullEncodable public var co2e: CO2eOutput.Summary?
        /// The persons' expansion weights (`person_weights.csv`); nil without `--population`.
        @NullEncodable public var weights: PersonWeightsOutput.Summary?
        /// The geofence OD table's published pairs and those under k persons, suppressed (`od_matrix.csv`).
        @NullEncodable public var odMatrix: ODMatrixCounts?
        /// The modal split's published rows and those left out under k persons (`modal_split.csv`).
        @NullEncodable public var modalSplit: ModalSplitCounts?
        /// Per transit feed (`transit.feeds`, `--transit`), what it gave the legs; empty without one.
        public var transit: [TransitFeedUse] = []
        /// `punctuality.csv`'s rides, rows published and left out (`LinePunctuality`); null without a feed.
        @NullEncodable public var punctuality: LinePunctuality.Counts?
        /// Person-days and their tracking coverage, with the nightly alarm (`below_floor`); null
        /// when the trip stage did not run.
        @NullEncodable public var coverage: PersonDays.Summary?
        /// Devices by where their local time's zone came from (`manifest`, `configuration`,
        /// `utc_offset`, `fixes`, `none`), and the zones used.
        public var zoneSources: [String: Int] = [:]
        public var zones: [String] = []
        /// Check-ins turned into rides, and those whose comfort was measured.
        public var rides = 0, measuredRides = 0
        public var upToDate = false
        /// Seconds per stage, every stage named on every run (0 for one that did not run).
        public var stageSeconds: [String: Double] = Dictionary(uniqueKeysWithValues: PipelineRun.stages.map { ($0, 0) })
        public var exitStatus = 0
        public var outputFolder = ""
        /// A partial run: the store only, nothing published.
        public var partial = false
        /// What the user should know that stopped nothing, printed last: a `--columns` that
        /// matched no file, a run that read files and made no window …
        public var warnings: [String] = []
        /// What each stage made of every input (`FileOutcome`), in path order.
        public var fileOutcomes: [FileOutcome] = []
        /// What this run did, apart from what the store held before it (same keys every run).
        public var thisRun = ThisRun()
        /// What the store holds after the run (same keys every run).
        public var store = StoreTotals()
        /// Stored inputs whose files are no longer found (kept; `--prune-missing` removes them).
        public var missingInputs: [String] = []
        /// Quarantined or set-aside inputs from earlier runs, still so (they do not make exit 2).
        public var carriedOverQuarantines: [String] = []
        /// The windows released (`ReleaseRun`; `period` null when none is configured).
        public var releases = ReleaseRun.Summary()

        enum CodingKeys: String, CodingKey {
            case thisRun = "this_run", store, missingInputs = "missing_inputs", carriedOverQuarantines = "carried_over_quarantines"
            case files, ingested, unchanged, quarantined, skipped, skippedFiles = "skipped_files", fixes, imuSamples = "imu_samples",
                checkins
            case classifiedFiles = "classified_files", windows, staypoints, dwells, trips, triplegs, cells, legsByModeSource =
                "legs_by_mode_source", tripEnds = "trip_ends"
            case suppressedCells = "suppressed_cells", odGrid = "od_grid", odZones = "od_zones", modeShares = "mode_shares", co2e, weights,
                odMatrix =
                "od_matrix", modalSplit =
                "modal_split", transit, punctuality, coverage,
                zoneSources = "zone_sources", zones, rides,
                measuredRides = "measured_rides", upToDate = "up_to_date", stageSeconds = "stage_seconds"
            case exitStatus = "exit_status", outputFolder = "output_folder", warnings, fileOutcomes = "file_outcomes", partial, releases
        }
    }

    /// What one run did. `quarantined` counts inputs this run quarantined or set aside that
    /// were not so before it: they alone make exit code 2.
    public struct ThisRun: Sendable, Encodable {
        public var inputsFound = 0, read = 0, unchanged = 0, moved = 0, duplicates = 0, quarantined = 0, skipped = 0
        public var pruned = 0, classifiedFiles = 0, windows = 0
        enum CodingKeys: String, CodingKey {
            case inputsFound = "inputs_found", read, unchanged, moved, duplicates, quarantined, skipped, pruned
            case classifiedFiles = "classified_files", windows
        }
    }

    /// The store's totals after a run.
    public struct StoreTotals: Sendable, Encodable {
        public var inputs = 0, quarantined = 0, fixes = 0, imuSamples = 0, checkins = 0, windows = 0, devices = 0, persons = 0
        /// Devices by where their names came from (`manifest`, `name_pattern`, `folder`, `file_name`).
        public var deviceSources: [String: Int] = [:]
        /// Devices with a person named (manifest or name pattern); the others count as a person each.
        public var devicesWithPerson = 0
        enum CodingKeys: String, CodingKey {
            case inputs, quarantined, fixes, imuSamples = "imu_samples", checkins, windows, devices, persons
            case deviceSources = "device_sources", devicesWithPerson = "devices_with_person"
        }
    }

    /// The output folder's own temporary folder, where zips are unpacked once per run (see
    /// `ZipExtraction`), beside the store in `restricted/` (`StoreLocation`); emptied when a
    /// run starts and removed when it ends.
    public var temporaryFolder: String { StoreLocation.temporaryFolder(in: outputFolder) }

    public func run(progress: ProgressReporter) throws -> Summary {
        try InputPath.requireExisting(inputs) // a mistyped or unmounted path: exit 1, and no store is created
        try TripsRun.requireNamedBoundaries(configuration.calendar.boundaries, configured: configuration.calendar.configured != nil)
        // Read first: a planning file or a transit feed that cannot be used stops the run before any store is made.
        let planning = try partial ? PlanningInputs.loadForPart(configuration.planning) : PlanningInputs.load(configuration.planning)
        let transit = try loadTransit(progress: progress)
        return try StoreSession.run(storePath: storePath, temporaryFolder: temporaryFolder, progress: progress) {
            try run(store: $0, progress: progress, planning: planning, transit: transit)
        }
    }

    /// Every stage on a command's open store (`forget` rebuilds in its own session).
    public func run(store: PipelineStore, progress: ProgressReporter) throws -> Summary {
        try run(
            store: store, progress: progress,
            planning: try partial ? PlanningInputs.loadForPart(configuration.planning) : PlanningInputs.load(configuration.planning),
            transit: try loadTransit(progress: progress))
    }

    /// The feeds of `transit.feeds` read and indexed, with the trip stage's description of them; nil without any.
    func loadTransit(progress: ProgressReporter) throws -> (network: TransitNetwork, description: String)? {
        configuration.transit.feeds.isEmpty ? nil : try TransitRun.index(feeds: configuration.transit.feeds, progress: progress)
    }

    func run(
        store: PipelineStore, progress: ProgressReporter, planning: PlanningInputs.Loaded,
        transit: (network: TransitNetwork, description: String)?
    ) throws -> Summary {
        var summary = Summary(outputFolder: outputFolder, partial: partial)
        if partial,
            let file = Self.outputNames.first(where: {
                FileManager.default.fileExists(atPath: (outputFolder as NSString).appendingPathComponent($0))
            })
        {
            // A partial run refuses a folder holding a complete run's reports: they would sit
            // beside a store they no longer describe.
            throw PipelineError(
                .outputFolderInUse,
                "\(outputFolder) holds a complete run's reports (\(file)); a partial run (--partial) writes only the store: give it a folder of its own"
            )
        }
        if !partial, PipelineOutputs.holdsStore(outputFolder) {
            // An earlier version wrote the per-person tables beside the published ones.
            let removed = try OutputLayout.removeTopLevelCopies(in: outputFolder)
            if !removed.isEmpty {
                progress.log(
                    "removed \(removed.joined(separator: ", ")) from \(outputFolder): files that identify people are written to "
                        + "\(OutputLayout.restricted(in: outputFolder)) now, apart from what publishes")
            }
        }
        let (zones, confusion, population) = (planning.zones, planning.confusion, planning.population)
        var clock = Date()
        func lap(_ stage: String) { summary.stageSeconds[stage] = Date().timeIntervalSince(clock); clock = Date() }

        var options = ingest
        options.cleaning = configuration.cleaning
        options.force = force
        if partial { options.reportsFolder = nil } // no quarantine.csv: the store keeps the quarantine
        // What a completed command has reported (exit 2) already: a run killed after it
        // quarantined a file never said so, so the run that completes after it does.
        let quarantinedBefore = try store.reportedQuarantines()
        progress.log("ingest: \(inputs.joined(separator: " "))")
        let classify = ClassifyStage(setting: configuration.classification, cleaning: configuration.cleaning, force: force)
        var ingest = IngestRun(options: options, progress: progress)
        let kept = KeptRideSamples(
            folder: (temporaryFolder as NSString).appendingPathComponent("ride-samples"),
            maxRideSeconds: configuration.comfort.maxRideSeconds, wholeRecordings: configuration.comfort.ridesFromRecordings
        ) { try store.checkInTimes(device: $0) }
        defer { kept.discard() }
        // Each IMU recording is parsed once: its tally, its windows and what comfort may measure.
        ingest.onRecording = { path, contentSHA256, recording in
            // A recording without IMU samples (an export of locations alone) has no windows to classify.
            guard recording.streams.values.contains(where: { !$0.isEmpty }) else { return }
            classify.classifyRead(path: path, contentSHA256: contentSHA256, recording: recording)
            kept.keep(path: path, contentSHA256: contentSHA256, recording: recording)
        }
        let ingested = try ingest.run(store: store)
        LargeBlocks.returnFreed()
        (summary.files, summary.ingested, summary.unchanged, summary.skipped) = (
            ingested.files, ingested.ingested, ingested.unchanged, ingested.skipped
        )
        summary.skippedFiles = ingested.skippedFiles
        summary.warnings = ingested.warnings
        summary.missingInputs = ingested.missingInputs
        summary.thisRun = ThisRun(
            inputsFound: ingested.inputsFound, read: ingested.ingested, unchanged: ingested.unchanged,
            moved: ingested.moved.count, duplicates: ingested.duplicates, skipped: ingested.skipped,
            pruned: ingested.prunedInputs.count)
        lap("ingest")

        let totals = try store.tableCounts()
        summary.fixes = totals["fixes"] ?? 0
        summary.checkins = totals["checkins"] ?? 0
        summary.imuSamples = try store.imuSampleTotal()
        try settleQuarantines(&summary, store: store, before: quarantinedBefore)
        try fillStoreTotals(&summary, store, counts: totals)
        if summary.store.devices > 0, summary.store.devicesWithPerson < summary.store.devices,
            summary.store.deviceSources.keys.allSatisfy({ ["folder", "file_name"].contains($0) })
        {
            summary.warnings.append(
                "device names came from folder or file names only (\(summary.store.devices) devices), and "
                    + "\(summary.store.devices - summary.store.devicesWithPerson) have no person named: each counts as a person towards the heat map's k; "
                    + "name persons in manifest.csv (path,device,person) or with --name-pattern '(?<person>…)'")
        }
        let fingerprint = try self.fingerprint(store, zones: zones)
        if !force, try store.derivedState("complete_run") == fingerprint, partial || outputsExist() {
            summary.upToDate = true
            summary.releases.period = configuration.release.window?.rawValue
            try fillCounts(&summary, store, counts: totals)
            try fillPersonDays(&summary, store)
            try sayOutcomes(&summary, store)
            if !partial, let text = try store.derivedState(Self.publishedODKey),
                let published = try? JSONDecoder().decode(PublishedOD.self, from: Data(text.utf8))
            {
                (summary.odGrid, summary.odMatrix, summary.modalSplit) = (published.odGrid, published.odMatrix, published.modalSplit)
                (summary.transit, summary.punctuality) = (published.transit ?? [], published.punctuality)
                (summary.odZones, summary.modeShares, summary.weights) = (published.odZones, published.modeShares, published.weights)
                summary.co2e = published.co2e
                // A nightly re-run that finds nothing changed still says what the last one warned of.
                if let warning = published.weights.flatMap(PersonWeightsOutput.implausibleWarning) { summary.warnings.append(warning) }
            }
            progress.log("nothing changed since the last run: outputs in \(outputFolder) are up to date")
            try store.markQuarantinesReported()
            return summary
        }

        if partial { try FileManager.default.createDirectory(atPath: filesFolder, withIntermediateDirectories: true) }
        if !partial { try OutputLayout.prepareRestricted(in: outputFolder) }
        let classified = try classify.run(store: store, restrictedFolder: restrictedFolder, progress: progress)
        LargeBlocks.returnFreed()
        let model = classified.setup.model
        summary.thisRun.classifiedFiles = classified.files
        summary.thisRun.windows = classified.windows
        if let warning = classified.setup.warning { summary.warnings.append(warning) }
        summary.classifiedFiles = summary.thisRun.classifiedFiles
        summary.windows = try store.rowCount("mode_windows") // the store's, as in a run that changed nothing
        summary.store.windows = summary.windows
        lap("classify")

        var trips = TripsRun(storePath: storePath, reportsFolder: filesFolder)
        trips.restrictedFolder = restrictedFolder
        trips.legModel = model?.gpsLegs
        trips.imuClasses = model.map { $0.usesInertial ? $0.classes : [] } ?? []
        (trips.transit, trips.transitDescription) = (transit?.network, transit?.description)
        trips.parameters = configuration.trips
        (trips.minimumPersons, trips.onTime) = (configuration.privacy.k, configuration.transit.onTime)
        (trips.bands, trips.corrections) = (configuration.planning.bands, planning.corrections)
        (trips.emissionFactors, trips.legCountries) = (configuration.planning.emissionFactors, planning.countries)
        (trips.configuredCalendar, trips.zoneBoundaries, trips.personDayParameters, trips.partialsFolder) = (
            configuration.calendar.configured, configuration.calendar.boundaries, configuration.personDays, partialsFolder
        )
        let tripSummary = try trips.run(store: store, progress: progress)
        LargeBlocks.returnFreed()
        (summary.odMatrix, summary.modalSplit, summary.transit) = (tripSummary.odMatrix, tripSummary.modalSplit, tripSummary.transit)
        summary.punctuality = tripSummary.punctuality
        summary.warnings += [
            tripSummary.transitWarning, tripSummary.jumpWarning, tripSummary.undecidedWarning, tripSummary.co2eCountries?.warning
        ].compactMap { $0 }
        summary.warnings +=
            tripSummary.zoneWarnings
            + [tripSummary.coverage?.warning, tripSummary.coverage?.noValidDay.map { "person-days: " + $0 }].compactMap { $0 }
        (summary.coverage, summary.zoneSources, summary.zones) = (tripSummary.coverage, tripSummary.zoneSources, tripSummary.zones)
        progress.log(GPSLegDecision.line(decidedBy: tripSummary.legsByModeSource, model: model))
        lap("trips")

        var heatMap = HeatMapRun(storePath: storePath, reportsFolder: outputFolder)
        heatMap.parameters = configuration.heatmap
        heatMap.calendar = calendar
        (heatMap.keepDeviceCells, heatMap.writesFiles, heatMap.partialsFolder) = (partial, !partial, partialsFolder)
        let heatSummary = try heatMap.run(store: store, progress: progress)
        (summary.cells, summary.suppressedCells) = (heatSummary.cells, heatSummary.suppressedCells)
        progress.log(
            partial
                ? "heat maps: every device's cells kept in the store for merging (\(heatSummary.cells + heatSummary.suppressedCells) cells in this part), none published"
                : "heat maps: \(heatSummary.cells) cells published, \(heatSummary.suppressedCells) suppressed (k = \(heatSummary.minimumPersons))"
        )
        lap("heatmap")

        var comfort = ComfortRun(storePath: storePath, reportsFolder: filesFolder)
        comfort.restrictedFolder = restrictedFolder
        comfort.minimumPersons = configuration.privacy.k
        comfort.ownedDevices = ownedDevices
        comfort.partialsFolder = partialsFolder
        comfort.maxRideSeconds = configuration.comfort.maxRideSeconds
        comfort.metrics.jerkThresholdMetersPerSecond3 = configuration.comfort.jerkThresholdMetersPerSecond3
        comfort.metrics.accelerationThresholdMetersPerSecond2 = configuration.comfort.accelerationThresholdMetersPerSecond2
        comfort.recordings = configuration.comfort.ridesFromRecordings ? .all : .none
        comfort.rideGapSeconds = configuration.comfort.rideGapSeconds
        comfort.keptSamples = kept
        let (comfortSummary, _) = try comfort.run(store: store, progress: progress)
        (summary.rides, summary.measuredRides) = (comfortSummary.rides, comfortSummary.byStatus["measured"] ?? 0)
        if comfortSummary.rides > 0 { progress.log("comfort: " + ComfortRun.text(comfortSummary)) }
        summary.warnings += comfortSummary.notMeasured.prefix(20).map { "comfort not measured for " + $0 }
        summary.warnings += comfortSummary.warnings.map { "comfort: " + $0 }
        lap("comfort")
        try sayOutcomes(&summary, store)

        // With what classify and comfort set aside.
        try settleQuarantines(&summary, store: store, before: quarantinedBefore)
        if partial {
            progress.log("partial run: nothing published; \(storePath) and \(filesFolder) hold this part's results for merging")
            lap("report")
        } else {
            summary.releases = try ReleaseRun(
                store: store, outputFolder: outputFolder, release: configuration.release,
                heatMap: configuration.heatmap, calendar: calendar, bands: configuration.planning.bands
            ).run(progress: progress)
            let modelPath = configuration.classification.rulesOnly ? nil : configuration.classification.model
            let stage = PublishStage(
                store: store, outputFolder: outputFolder, tablesFolder: restrictedFolder, modelPath: modelPath, calendar: calendar,
                heatMap: configuration.heatmap, zones: zones, bands: configuration.planning.bands,
                confusion: confusion, population: population, emissionFactors: configuration.planning.emissionFactors,
                countries: planning.countries)
            let (_, published) = try stage.run {}
            published.notes.forEach(progress.log)
            summary.warnings += published.warnings
            (summary.odGrid, summary.odZones, summary.modeShares) = (published.odGrid, published.odZones, published.modeShares)
            summary.co2e = published.co2e
            summary.weights = published.weights
            let od = PublishedOD(
                odGrid: published.odGrid, odZones: published.odZones, modeShares: published.modeShares, co2e: published.co2e,
                weights: published.weights,
                odMatrix: summary.odMatrix, modalSplit: summary.modalSplit, transit: summary.transit.isEmpty ? nil : summary.transit,
                punctuality: summary.punctuality)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys] // the same bytes on every run (the golden record compares the store)
            try store.setDerivedState(Self.publishedODKey, String(decoding: try encoder.encode(od), as: UTF8.self))
            // `report`: the wall seconds of everything published; the GeoPackage, drawn beside the
            // report, is inside them and also given alone.
            lap("report")
            summary.stageSeconds["geopackage"] = published.stageSeconds["geopackage"]
        }
        try store.setDerivedState(
            "complete_run_configuration",
            String(decoding: try JSONText.data(configuration, keys: .asDeclared, layout: .compact), as: UTF8.self))
        try store.setDerivedState("complete_run", fingerprint)
        (summary.staypoints, summary.dwells, summary.triplegs, summary.trips) =
            (tripSummary.staypoints, tripSummary.dwells, tripSummary.triplegs, tripSummary.trips)
        summary.legsByModeSource = tripSummary.legsByModeSource
        summary.tripEnds = tripSummary.tripEnds
        try store.markQuarantinesReported()
        return summary
    }

    /// Fills the per-file outcomes and warns, at the end of the log, of every file a stage made
    /// nothing of, and of a run that read IMU data but made no window at all.
    private func sayOutcomes(_ summary: inout Summary, _ store: PipelineStore) throws {
        summary.fileOutcomes = try store.fileOutcomes()
        let empty = summary.fileOutcomes.filter(\.madeNothing)
        for outcome in empty.prefix(20) {
            summary.warnings.append("\(outcome.path): " + (outcome.notes.first ?? "no windows"))
        }
        if empty.count > 20 {
            summary.warnings.append("… and \(empty.count - 20) more files with no windows (see file_outcomes in --json, or the report)")
        }
        let worthSaying = summary.skippedFiles.filter { $0.reason != IngestSummary.notATraceExtension }
        for skipped in worthSaying.prefix(20) { summary.warnings.append("skipped \(skipped.path): \(skipped.reason)") }
        if summary.fileOutcomes.isEmpty, summary.files > 0 {
            summary.warnings.append("none of the \(summary.files) inputs was read as a trace: nothing to report")
        }
        let imuFiles = summary.fileOutcomes.filter { $0.windows != nil }
        if !imuFiles.isEmpty, imuFiles.allSatisfy({ $0.windows == 0 }) {
            summary.warnings.append(
                "\(imuFiles.count) files with IMU data were read, and none gave a window: no modes, no comfort from them")
        }
    }

    /// Coverage and zones as the last trip stage stored them (a run that found nothing new says
    /// what the store holds, so the nightly alarm sounds every night until the phones record).
    private func fillPersonDays(_ summary: inout Summary, _ store: PipelineStore) throws {
        if let text = try store.derivedState(PipelineStore.personDaysSummaryKey),
            let stored = try? JSONDecoder().decode(PersonDays.Summary.self, from: Data(text.utf8))
        {
            summary.coverage = stored
        } else { // a store of an earlier version
            let days = try store.personDayShares()
            summary.coverage = PersonDays.summary(
                shares: days.map(\.share), valid: days.filter(\.valid).count, parameters: configuration.personDays)
        }
        if let warning = summary.coverage?.warning { summary.warnings.append(warning) }
        let calendars = try store.localCalendars(dataset: calendar)
        (summary.zoneSources, summary.zones, _) = DeviceZone.tally(calendars.devices, manifest: [:])
    }

    /// What belongs to no device (release windows, the heat-map filter's dates): the configured calendar, else UTC.
    var calendar: CalendarKeys { configuration.calendar.dataset }

    /// What the outputs depend on: every input's content, the configuration (the zone layer by
    /// its content, not its path), the model file.
    private func fingerprint(_ store: PipelineStore, zones: ZoneLayer?) throws -> String {
        let hash = SHA256Hasher()
        for line in try store.inputIdentities() { hash.update(data: Data((line + "\n").utf8)) }
        var configuration = configuration
        if let zones { configuration.planning.zones = "sha256:" + (try ContentHash.sha256(path: zones.path)) }
        // The planning files and the feeds by their content, so a moved or renamed copy changes nothing.
        if !configuration.transit.feeds.isEmpty {
            let feeds = SHA256Hasher()
            feeds.update(data: Data(try TransitRun.contentHash(feeds: configuration.transit.feeds).utf8))
            configuration.transit.feeds = ["sha256:" + feeds.hexDigest()]
        }
        for file in [\PlanningParameters.confusion, \.population, \.personAttributes, \.corrections, \.countries] {
            if let path = configuration.planning[keyPath: file] {
                configuration.planning[keyPath: file] = "sha256:" + (try ContentHash.sha256(path: path))
            }
        }
        hash.update(data: try JSONText.data(configuration, keys: .asDeclared, layout: .compact))
        if !configuration.classification.rulesOnly, FileManager.default.fileExists(atPath: configuration.classification.model) {
            hash.update(data: Data(try ContentHash.sha256(path: configuration.classification.model).utf8))
        }
        hash.update(data: Data(ReportPage.generator.utf8))
        // A complete run after a partial one runs every stage; a part owns its devices.
        if partial { hash.update(data: Data("partial \(ownedDevices)".utf8)) }
        return hash.hexDigest()
    }

    private func outputsExist() -> Bool {
        Self.outputNames.allSatisfy { FileManager.default.fileExists(atPath: OutputLayout.path($0, in: outputFolder)) }
            && FileManager.default.fileExists(atPath: OutputLayout.path(GeoPackageOutput.fileName, in: restrictedFolder))
    }

    /// Counts quarantined inputs (store totals) and this run's new ones; exit 2 only for new ones,
    /// the others listed as carried over.
    @discardableResult
    private func settleQuarantines(_ summary: inout Summary, store: PipelineStore, before: Set<String>) throws -> [QuarantineEntry] {
        let entries = try store.quarantinedFiles()
        summary.quarantined = Set(entries.map(\.path)).count // files, whatever the stages
        let new = Set(entries.filter { !before.contains(PipelineStore.quarantineKey($0)) }.map(\.path))
        summary.thisRun.quarantined = new.count
        summary.carriedOverQuarantines = Set(entries.map(\.path)).subtracting(new).sorted()
        summary.exitStatus = new.isEmpty ? 0 : 2
        summary.store.quarantined = summary.quarantined
        return entries
    }

    /// The store's totals after ingest, from the table counts the run already made (`windows`
    /// is set again after classification).
    private func fillStoreTotals(_ summary: inout Summary, _ store: PipelineStore, counts: [String: Int]) throws {
        let identities = try store.deviceIdentities()
        summary.store = StoreTotals(
            inputs: counts["input_files"] ?? 0, quarantined: summary.quarantined, fixes: counts["fixes"] ?? 0,
            imuSamples: summary.imuSamples, checkins: counts["checkins"] ?? 0,
            windows: counts["mode_windows"] ?? 0, devices: identities.count,
            persons: Set(identities.map(\.person)).count)
        for identity in identities { summary.store.deviceSources[identity.deviceSource, default: 0] += 1 }
        summary.store.devicesWithPerson = identities.filter { $0.personSource != "device" }.count
    }

    private func fillCounts(_ summary: inout Summary, _ store: PipelineStore, counts: [String: Int]) throws {
        summary.staypoints = counts["staypoints"] ?? 0
        summary.dwells = counts["dwells"] ?? 0
        summary.trips = counts["trips"] ?? 0
        summary.triplegs = counts["triplegs"] ?? 0
        for decision in try store.legDecisions() { summary.legsByModeSource[decision.decidedBy, default: 0] += decision.count }
        let ends = try store.tripEndKinds()
        summary.tripEnds = TripEnd.Tally(origins: ends.origins, destinations: ends.destinations, gapStays: ends.gapStays)
        summary.windows = counts["mode_windows"] ?? 0
        let heat = try store.heatMapSummaries().first { $0.map == "all" }
        summary.cells = heat?.cells ?? 0
        summary.suppressedCells = heat?.suppressedCells ?? 0
        summary.rides = counts["rides"] ?? 0
        summary.measuredRides = try store.measuredRideCount()
    }
}

/// What a complete run's OD tables published, kept for the runs that find nothing changed.
struct PublishedOD: Codable {
    var odGrid: ODGridOutput.Summary?
    var odZones: ZoneODOutput.Summary?
    var modeShares: ModeSharesOutput.Summary?
    var co2e: CO2eOutput.Summary?
    var weights: PersonWeightsOutput.Summary?
    var odMatrix: ODMatrixCounts?
    var modalSplit: ModalSplitCounts?
    var transit: [TransitFeedUse]?
    var punctuality: LinePunctuality.Counts?
}
