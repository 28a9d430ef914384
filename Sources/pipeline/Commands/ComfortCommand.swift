import ArgumentParser
import Comfort
import Foundation
import HeatMaps
import PipelineRunner

struct ComfortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comfort",
        abstract: "Measure rides: ISO 2631-1 and EN 12299 comfort, station stops and strong pushes; per check-in, train and route.",
        discussion: """
            With PATHs (recordings: files or folders), each recording is read into the store and measured as rides of \
            its own, no check-in needed: each recording, or each part of it between pauses longer than \
            --ride-gap-seconds, is one ride from its first to its last sample. Without PATHs, the store's check-ins are \
            measured: a ride runs from leaving the check-in's origin station geofence to entering its destination \
            station geofence (kind station; ids or names as in the check-in), found in the device's fixes, and its \
            comfort comes from the device's IMU files that cover it; --rides-from-recordings adds the store's \
            recordings that no check-in covers. Writes rides.csv (every ride, with status measured, no_imu, no_data or \
            unusable_imu and why), stops.csv (each stop: device,trace,start,end,duration_s), events.csv (each braking, \
            pull-away, curve and jerk), train_comfort.csv and route_comfort.csv, and replaces the store's rides.
            """
    )

    @Argument(
        help:
            "Recordings (files or folders, searched recursively) to measure as rides without a check-in. Default: none (the store's check-ins)."
    )
    var paths: [String] = []

    @Option(help: "The SQLite store (created when PATHs are given; else see `pipeline ingest`). \(StorePath.note)")
    var store = StorePath.defaultValue

    @Option(help: "Folder for the published CSV files (rides, stops and events go to its restricted/). Default: the store's output folder.")
    var out: String?

    @Flag(help: "Also measure the store's recordings that no check-in covers, each as rides of its own. Default: off.")
    var ridesFromRecordings = false

    @Option(help: ArgumentHelp("A pause longer than this splits a recording into separate rides, seconds.", valueName: "s"))
    var rideGapSeconds = PipelineConfiguration.Comfort().rideGapSeconds

    @Option(help: ArgumentHelp("Longest ride looked for after a check-in, minutes.", valueName: "min"))
    var maxRideMinutes = PipelineConfiguration.Comfort().maxRideSeconds / 60

    @Option(
        help: ArgumentHelp(
            "A braking, pull-away or curve counts from this acceleration (1 Hz low-passed), m/s² (at least 0.3).", valueName: "m/s2"))
    var accelerationThreshold = PipelineConfiguration.Comfort().accelerationThresholdMetersPerSecond2

    @Option(
        help: ArgumentHelp(
            "A jerk counts from this rate of change of the 1 Hz low-passed horizontal acceleration, m/s³ (at least 0.3).", valueName: "m/s3"
        ))
    var jerkThreshold = PipelineConfiguration.Comfort().jerkThresholdMetersPerSecond3

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        guard maxRideMinutes > 0, rideGapSeconds > 0 else {
            throw ValidationError("--max-ride-minutes and --ride-gap-seconds must be positive")
        }
        guard accelerationThreshold >= 0.3, jerkThreshold >= 0.3 else {
            throw ValidationError("--acceleration-threshold and --jerk-threshold must be at least 0.3 (events are excursions above 0.3)")
        }
    }

    @OptionGroup(title: "Privacy") var privacy: PrivacyOptions

    func run() throws {
        let (storePath, folder) = (StorePath.resolved(store), out ?? StorePath.outputFolder(store))
        let progress = ProgressReporter()
        if !paths.isEmpty {
            var options = IngestOptions(paths: paths, storePath: storePath)
            options.reportsFolder = folder
            options.namePattern = input.namePattern
            options.columns = try input.mappings()
            let ingested = try runStage(json: json, progress: progress) { try IngestRun(options: options, progress: progress).run() }
            if !json { progress.log(IngestCommand.text(ingested)) }
            for warning in ingested.warnings { progress.log("warning: " + warning) }
        } else {
            try requireStore(store, after: "`pipeline ingest`", json: json)
        }
        var run = ComfortRun(storePath: storePath, reportsFolder: folder)
        run.maxRideSeconds = maxRideMinutes * 60
        run.rideGapSeconds = rideGapSeconds
        run.minimumPersons = privacy.resolved
        run.metrics.accelerationThresholdMetersPerSecond2 = accelerationThreshold
        run.metrics.jerkThresholdMetersPerSecond3 = jerkThreshold
        run.recordings = paths.isEmpty ? (ridesFromRecordings ? .all : .none) : .under(paths)
        let (summary, _) = try runStage(json: json, progress: progress) { try run.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(ComfortRun.text(summary))
        }
        for line in summary.notMeasured { progress.log("warning: not measured: " + line) } // last, where they are seen
        for line in summary.warnings { progress.log("warning: " + line) }
    }
}
