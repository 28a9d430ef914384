import ArgumentParser
import Comfort
import Foundation
import PipelineRunner

struct ComfortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comfort",
        abstract: "Measure each train check-in's ride: ISO 2631-1 and EN 12299 comfort, ratings and delays, per train and per route.",
        discussion: """
            A ride runs from leaving the check-in's origin station geofence to entering its destination station \
            geofence (kind station; ids or names as in the check-in), found in the device's fixes; its comfort comes \
            from the device's IMU files that cover it. Writes rides.csv (every check-in, with status measured, no_imu, \
            no_data or unusable_imu), train_comfort.csv and route_comfort.csv, and replaces the store's rides. Run \
            `pipeline trips` first is not needed; `pipeline ingest` is.
            """
    )

    @Option(help: "The SQLite store (see `pipeline ingest`).")
    var store = "reports/pipeline.sqlite"

    @Option(help: "Folder for the CSV files. Default: the store's folder.")
    var out: String?

    @Option(help: ArgumentHelp("Longest ride looked for after a check-in, minutes.", valueName: "min"))
    var maxRideMinutes = PipelineConfiguration.Comfort().maxRideSeconds / 60

    @Option(help: ArgumentHelp("A horizontal jerk above this counts as strong, m/s³.", valueName: "m/s3"))
    var jerkThreshold = PipelineConfiguration.Comfort().jerkThresholdMetersPerSecond3

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func validate() throws {
        guard maxRideMinutes > 0, jerkThreshold > 0 else { throw ValidationError("--max-ride-minutes and --jerk-threshold must be positive") }
    }

    func run() throws {
        try requireStore(store, after: "`pipeline ingest`")
        var run = ComfortRun(storePath: store, reportsFolder: out ?? (store as NSString).deletingLastPathComponent)
        run.maxRideSeconds = maxRideMinutes * 60
        run.metrics.jerkThresholdMetersPerSecond3 = jerkThreshold
        let progress = Progress()
        let (summary, _) = try runStage(json: json, progress: progress) { try run.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(ComfortRun.text(summary))
        }
    }
}
