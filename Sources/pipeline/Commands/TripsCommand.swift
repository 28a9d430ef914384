import ArgumentParser
import Classify
import Foundation
import HeatMaps
import MobilityCore
import PipelineRunner

struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract: "Find staypoints, geofence dwells, locations, triplegs and trips in a store; write OD, modal split and device tables.",
        discussion: """
            Reads the timed fixes of every ingested file (one track per device), the geofences and the windows \
            `pipeline classify --store` kept; where no classified window covers a fix, the GPS leg model of --model gives \
            the mode of each leg, or the GPS-speed rules without one. \
            Replaces the store's staypoints, dwells, locations, triplegs and trips in one transaction and writes \
            staypoints.csv, dwells.csv, locations.csv, triplegs.csv, trips.csv, od_matrix.csv, modal_split.csv, \
            device_stats.csv, staypoints.geojson, triplegs.geojson and dwells.geojson. Staypoints follow trackintel's \
            sliding method (Li et al. 2008), so results compare with its generate_staypoints.
            """
    )

    @Option(help: "The SQLite store (see `pipeline ingest`). \(StorePath.note)")
    var store = StorePath.defaultValue

    @Option(
        help:
            "Folder for the published CSV files (the per-person tables and GeoJSON go to its restricted/). Default: the store's output folder."
    )
    var out: String?

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "A mode model whose GPS leg model names GPS-only legs (see `pipeline train`). Default: none, the GPS-speed rules decide.",
            valueName: "file"))
    var model: String?

    @Option(
        help: ArgumentHelp(
            "A GTFS feed (.zip or folder with stops.txt), or a folder of feeds, whose stops and route shapes every leg is matched against; once per feed. Default: none (transit columns empty). A feed that cannot be read is exit 64 before the stage.",
            valueName: "feed"))
    var transit: [String] = []

    @OptionGroup(title: "Punctuality") var punctuality: PunctualityOptions

    @OptionGroup(title: "Privacy") var privacy: PrivacyOptions

    @OptionGroup var trips: TripOptions
    @OptionGroup(title: "Local time and person-days") var localTime: LocalTimeOptions

    func validate() throws {
        // A usage error (exit 64), as a missing input is: the feed is named before any stage.
        do { try TransitRun.check(feeds: transit, from: "--transit") } catch let error as PipelineError {
            throw ValidationError(error.message)
        }
    }

    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        try requireStore(store, after: "`pipeline ingest`", json: json)
        var run = TripsRun(storePath: StorePath.resolved(store), reportsFolder: out ?? StorePath.outputFolder(store))
        run.parameters = trips.parameters
        var configuration = PipelineConfiguration()
        localTime.apply(to: &configuration)
        punctuality.apply(to: &configuration)
        run.onTime = configuration.transit.onTime
        (run.configuredCalendar, run.zoneBoundaries, run.personDayParameters) = (
            configuration.calendar.configured, configuration.calendar.boundaries, configuration.personDays
        )
        run.grouping = trips.trackBy
        run.minimumPersons = privacy.resolved
        let progress = ProgressReporter()
        if let model {
            let loaded = try ModeModel.load(path: model)
            run.legModel = loaded.gpsLegs
            run.imuClasses = loaded.usesInertial ? loaded.classes : []
            for warning in loaded.warnings { progress.log("warning: \(model): \(warning)") }
            if loaded.gpsLegs == nil { progress.log("\(model) has no GPS leg model: GPS-only legs are decided by the GPS-speed rules") }
        }
        let summary = try runStage(json: json, progress: progress) {
            if !transit.isEmpty { (run.transit, run.transitDescription) = try TransitRun.index(feeds: transit, progress: progress) }
            return try run.run(progress: progress)
        }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(
                "\(summary.staypoints) staypoints, \(summary.dwells) dwells, \(summary.locations) locations, "
                    + "\(summary.triplegs) triplegs, \(summary.trips) trips; leg modes from "
                    + summary.legsByModeSource.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            progress.log(
                String(
                    format:
                        "%.2f s reading fixes and the modes and trip stages (%.2f s reading, summed over the devices read side by side), "
                        + "%.2f s writing; wrote %@", summary.secondsTrips, summary.secondsLoading, summary.secondsWriting,
                    run.reportsFolder))
        }
    }
}
