import ArgumentParser
import Foundation
import HeatMaps
import MobilityCore
import PipelineRunner

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every stage: ingest, classify, trips, heat maps, train comfort and the HTML report, incrementally.",
        discussion: """
            At the top of OUT, only what may be published (each row of k persons or more): \
            report.html, pipeline.gpkg, od_matrix.csv, od_grid.csv, modal_split.csv, punctuality.csv (with --transit), train_comfort.csv, route_comfort.csv, \
            heatmap.csv, heatmap.geojson, heatmap.png and heatmap-<mode>.png. In OUT/restricted, what identifies people: \
            the store (pipeline.sqlite, every fix; a store at OUT/pipeline.sqlite, where earlier versions kept it, is moved there), \
            quarantine.csv, modes.csv, staypoints/dwells/locations/triplegs/trips/device_stats.csv, staypoints/triplegs/\
            dwells.geojson, rides.csv, stops.csv, events.csv, the operator's report.html and pipeline.gpkg. \
            Only new or changed inputs are read and classified; the later stages are rebuilt from the store. When \
            nothing changed since the last complete run, nothing is rewritten. A run killed at any point is completed \
            by the next one. A second run on the same store at the same time stops with exit code 75. \
            Stage parameters come from --config (YAML; see `pipeline config --print` for every key and its default).
            """
    )

    @Argument(help: "Trace files or folders (searched recursively).")
    var paths: [String]

    @Option(help: "Folder for every output; the store and what identifies people go to its restricted/.")
    var out = "reports"

    @Option(help: "A YAML file with stage parameters (keys as in `pipeline config --print`). Default: built-in defaults.")
    var config: String?

    @Option(
        help: ArgumentHelp(
            "The mode model for traces with IMU data (overrides classification.model in the configuration).",
            discussion:
                "Default: models/mode-model.json in the working folder, else the shipped model beside the executable (models/ above it, or share/mobility-pipeline/ under the install prefix)."
        ))
    var model: String?

    @Flag(
        help: ArgumentHelp(
            "Also measure IMU recordings that no check-in covers as rides of their own (comfort, stops, events).",
            discussion: "Default: off (comfort.rides_from_recordings in the configuration)."))
    var ridesFromRecordings = false

    @Option(
        name: .customLong("switch-penalty"),
        help: "Cost of a mode switch in smoothing, nats (overrides classification.switch_penalty_nats; default 6).")
    var switchPenalty: Double?

    @Option(
        name: .customLong("min-segment-s"),
        help: "Shortest mode segment smoothing keeps, seconds (overrides classification.minimum_segment_seconds; default 30).")
    var minimumSegmentSeconds: Double?

    @Option(
        name: .customLong("min-stop-s"),
        help: "Shortest run of still windows smoothing keeps still, seconds (overrides classification.minimum_stop_seconds; default 15).")
    var minimumStopSeconds: Double?

    @Flag(help: "Re-read and re-classify every input even when unchanged.")
    var force = false

    @Flag(help: "Hash every input to decide that it is unchanged, instead of trusting an unchanged size, modification time and inode.")
    var verify = false

    @Flag(
        help: ArgumentHelp(
            "Remove the stored data of inputs whose files are no longer found.",
            discussion:
                "Default: off: such inputs are kept (nightly jobs archive what they have read), listed in missing_inputs and warned about.")
    )
    var pruneMissing = false

    @Flag(
        help: ArgumentHelp(
            "Run every stage over one part of a data set and publish nothing: the store only.",
            discussion:
                "For a distributed run (spark/README.md): the part's store keeps what merging needs (each device's unfiltered heat-map cells besides the usual tables; see `pipeline export`), its devices' own rows go to OUT/part-tables for the merge to renumber, and no heat map, OD, report or quarantine.csv is published in OUT, since a part's k-anonymous cells, OD and locations are not the data set's. Refuses a folder that holds a complete run's reports."
        ))
    var partial = false

    @Option(
        help: ArgumentHelp(
            "With --partial: the first device name this part owns (UTF-8 byte order); check-ins of devices before it are left to another part. Default: none (open).",
            valueName: "name"))
    var devicesFrom: String?

    @Option(
        help: ArgumentHelp(
            "With --partial: the first device name this part no longer owns (UTF-8 byte order). Default: none (open).", valueName: "name"))
    var devicesBefore: String?

    @OptionGroup(title: "Local time and person-days") var localTime: LocalTimeOptions
    @OptionGroup(title: "Planning tables") var planning: PlanningOptions

    @OptionGroup(title: "Privacy") var privacy: PrivacyOptions

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "A GTFS feed (.zip or folder with stops.txt), or a folder of feeds, whose stops and route shapes every leg is matched against (triplegs.csv's transit columns; bus and train from the feeds). Give it once per feed: a region's agencies serve every leg together.",
            discussion:
                "Default: transit.feeds in --config, else none (transit columns empty, never guessed). Given here, it replaces transit.feeds. A city's feeds are published by its transit agencies (docs/modes.md: \"IMU and GPS together, and transit\"). A feed that cannot be read stops the run before any stage (exit 64).",
            valueName: "feed"))
    var transit: [String] = []

    @OptionGroup(title: "Punctuality (each overrides its transit key in --config)") var punctuality: PunctualityOptions

    @OptionGroup var input: InputOptions
    @OptionGroup(title: "Cleaning (each overrides its cleaning key in --config)") var cleaning: CleaningOptions

    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        let pipeline = try self.pipeline()
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) { try pipeline.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(Self.text(summary))
        }
        for warning in summary.warnings { progress.log("warning: " + warning) } // last, where they are seen
        if summary.exitStatus != 0 { throw ExitCode(Int32(summary.exitStatus)) }
    }

    /// The run these options and `--config` describe (each option overrides its key).
    private func pipeline() throws -> PipelineRun {
        var configuration = try ConfigCommand.configuration(config)
        if let model { configuration.classification.model = model }
        if ridesFromRecordings { configuration.comfort.ridesFromRecordings = true }
        for value in [switchPenalty, minimumSegmentSeconds, minimumStopSeconds].compactMap({ $0 }) where !(value >= 0) {
            throw ValidationError("--switch-penalty, --min-segment-s and --min-stop-s must be ≥ 0 (got \(value))")
        }
        if let switchPenalty { configuration.classification.switchPenaltyNats = switchPenalty }
        if let minimumSegmentSeconds { configuration.classification.minimumSegmentSeconds = minimumSegmentSeconds }
        if let minimumStopSeconds { configuration.classification.minimumStopSeconds = minimumStopSeconds }
        localTime.apply(to: &configuration)
        planning.apply(to: &configuration)
        punctuality.apply(to: &configuration)
        try privacy.apply(to: &configuration)
        configuration.cleaning = cleaning.applied(to: configuration.cleaning)
        if let problem = configuration.cleaning.problem { throw ValidationError(problem) }
        configuration.classification.model = DefaultModel.resolve(configuration.classification.model)
        if !transit.isEmpty { configuration.transit.feeds = transit }
        // A usage error (exit 64), as a missing input is: the feed is named before any stage.
        do { try TransitRun.check(feeds: configuration.transit.feeds, from: transit.isEmpty ? "transit.feeds" : "--transit") } catch let
            error as PipelineError
        { throw ValidationError(error.message) }
        var pipeline = PipelineRun(inputs: paths, outputFolder: out)
        pipeline.configuration = configuration
        pipeline.force = force
        pipeline.partial = partial
        if devicesFrom != nil || devicesBefore != nil {
            guard partial else {
                throw ValidationError("--devices-from and --devices-before only apply to a part of a distributed run (--partial)")
            }
            pipeline.ownedDevices = DeviceRange(first: devicesFrom, before: devicesBefore)
        }
        pipeline.ingest.verify = verify
        pipeline.ingest.pruneMissing = pruneMissing
        pipeline.ingest.namePattern = input.namePattern
        pipeline.ingest.columns = try input.mappings()
        return pipeline
    }

    static func text(_ s: PipelineRun.Summary) -> String {
        var lines = [
            "\(s.files) inputs: \(s.ingested) read, \(s.unchanged) unchanged, \(s.thisRun.moved) moved, \(s.thisRun.duplicates) copies skipped, "
                + "\(s.thisRun.quarantined) newly quarantined (\(s.quarantined) in the store), \(s.skipped) skipped"
        ]
        lines.append(
            "\(s.store.devices) devices of \(s.store.persons) persons (device names from "
                + s.store.deviceSources.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; \(s.store.devicesWithPerson) with a person named)")
        lines.append(
            "\(s.fixes) fixes, \(s.imuSamples) IMU samples, \(s.checkins) check-ins; \(s.windows) windows"
                + (s.upToDate ? "" : " (\(s.classifiedFiles) files classified now)"))
        lines.append(
            "\(s.staypoints) staypoints, \(s.dwells) dwells, \(s.triplegs) triplegs, \(s.trips) trips; "
                + "heat map \(s.cells) cells shown, \(s.suppressedCells) suppressed; \(s.rides) rides, \(s.measuredRides) measured")
        lines.append(
            s.upToDate
                ? "nothing changed: outputs in \(s.outputFolder) are up to date"
                : "stages: "
                    + ["ingest", "classify", "trips", "heatmap", "comfort", "report", "geopackage"].compactMap { stage in
                        s.stageSeconds[stage].map { String(format: "%@ %.2f s", stage, $0) }
                    }.joined(separator: ", ")
                    + "; wrote \(s.outputFolder)/report.html")
        return lines.joined(separator: "\n")
    }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective configuration of `pipeline run` (defaults, or a YAML file laid over them).",
        discussion: "Units are in the key names (_meters, _seconds, _hours). Null means \"not set\" (no filter)."
    )

    @Flag(name: .customLong("print"), help: "Print the configuration as YAML.")
    var printConfiguration = false

    @Flag(help: "Print the configuration as one JSON object (keys as in the YAML), for programs.")
    var json = false

    @Option(help: "A YAML file to lay over the defaults (checked: unknown keys and wrong types are errors).")
    var config: String?

    func run() throws {
        let configuration = try ConfigCommand.configuration(config)
        guard printConfiguration || json else {
            print("configuration is valid; use --print or --json to see it")
            return
        }
        print(json ? try configuration.json() : try configuration.yaml(), terminator: json ? "\n" : "")
    }

    /// The defaults, or the file laid over them; a bad file is a usage error (exit 64).
    static func configuration(_ path: String?) throws -> PipelineConfiguration {
        guard let path else { return PipelineConfiguration() }
        let configuration: PipelineConfiguration
        do { configuration = try PipelineConfiguration.load(path: path) } catch let error as PipelineError
            where error.code == .invalidConfiguration
        {
            throw ValidationError(error.description)
        }
        for warning in configuration.warnings { FileHandle.standardError.write(Data(("warning: " + warning + "\n").utf8)) }
        return configuration
    }
}
