import ArgumentParser
import Foundation
import HeatMaps
import MobilityCore
import PipelineRunner

struct HeatMapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heatmap",
        abstract: "Count fixes, distinct persons and time at rest per grid cell; publish the cells k persons or more were in.",
        discussion: """
            Reads the store's fixes one device at a time, with each fix's mode from the stored staypoints (still) and \
            triplegs (their mode); run `pipeline trips` first. Writes heatmap.csv (every map's published cells), \
            heatmap.geojson (the overall map's cell polygons) and heatmap.png plus heatmap-<mode>.png, and keeps the \
            same cells in the store. Cells seen by fewer than k persons are left out and counted as suppressed.
            """
    )

    @Option(help: "The SQLite store (see `pipeline ingest` and `pipeline trips`). \(StorePath.note)")
    var store = StorePath.defaultValue

    @Option(help: "Folder for the CSV, GeoJSON and PNG files. Default: the store's output folder.")
    var out: String?

    @Option(
        help: ArgumentHelp(
            "The IANA time zone of the date filter's days; each device's weekdays and hours are in its own zone, as the trip stage decided it. Default: UTC.",
            valueName: "zone"))
    var timeZone: String?

    @Flag(
        help: ArgumentHelp(
            "Also keep each device's unfiltered counts per cell in the store (table heatmap_device_cells), never in a file.",
            discussion:
                "For merging runs over disjoint parts of a data set (say by device): a cell's distinct persons are counted over every part, then k is applied once. Off by default: one device's cells are its trace."
        ))
    var keepDeviceCells = false

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    @OptionGroup var heatMap: HeatMapOptions
    @OptionGroup(title: "Privacy") var privacy: PrivacyOptions

    /// The date filter's zone, as the configuration reads and checks one.
    var calendar: PipelineConfiguration.Calendar {
        var calendar = PipelineConfiguration.Calendar()
        calendar.timeZone = timeZone
        return calendar
    }

    func validate() throws {
        if let problem = calendar.problem { throw ValidationError("calendar.\(problem) (as --time-zone set it)") }
    }

    func run() throws {
        try requireStore(store, after: "`pipeline ingest` and `pipeline trips`", json: json)
        var run = HeatMapRun(storePath: StorePath.resolved(store), reportsFolder: out ?? StorePath.outputFolder(store))
        try heatMap.apply(to: &run.parameters)
        run.parameters.minimumPersons = privacy.resolved
        run.calendar = calendar.dataset
        run.keepDeviceCells = keepDeviceCells
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) {
            do { return try run.run(progress: progress) } catch let error as PipelineError where error.code == .invalidConfiguration {
                throw ValidationError(error.description)
            }
        }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(
                "\(summary.devices) devices, \(summary.fixes) fixes: \(summary.cells) cells of \(Int(summary.cellMeters)) m published, "
                    + "\(summary.suppressedCells) suppressed (fewer than k = \(summary.minimumPersons) persons); maps "
                    + summary.cellsByMap.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + String(format: "; %.2f s", summary.seconds))
        }
    }
}
