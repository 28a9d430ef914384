import ArgumentParser
import Foundation
import PipelineRunner
import Reports

struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Compute windowed features of traces into one CSV (one row per window).",
        discussion: """
            Reads the same inputs as ingest, straight from the files. Each IMU recording is resampled and cut into \
            sliding windows; each window gets statistics, spectral and step-periodicity features of acceleration \
            magnitude, its vertical and horizontal parts and gyro magnitude, plus GPS features when fixes lie near \
            it. GPS-only traces get windows with the GPS features alone. Labels (per-sample columns, label files, \
            manifest, --name-pattern mode group) fill the label and mode columns.
            """
    )

    @Argument(help: "Trace files or folders (searched recursively).")
    var paths: [String]

    @Option(help: "The CSV file to write.")
    var out = "reports/features.csv"

    @OptionGroup var input: InputOptions
    @OptionGroup var window: WindowOptions
    @OptionGroup var cleaning: CleaningOptions

    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        let progress = ProgressReporter()
        var loader = try input.loader
        loader.cleaning = cleaning.parameters
        let output = try FeatureRun(loader: loader, window: window.parameters).run(paths, progress: progress)
        try FeatureCSV.write(output.table, to: out)
        let labelled = output.table.windows.filter { $0.mode != nil }.count
        progress.log(
            "\(output.report.recordings) recordings, \(output.table.count) windows (\(labelled) labelled), "
                + String(format: "%.2f s; wrote %@", output.seconds, out))
        if !output.report.unknownModes.isEmpty {
            progress.log("label names not in the mode table: " + output.report.unknownModes.sorted().joined(separator: ", "))
        }
        if !output.report.quarantined.isEmpty { throw ExitCode(2) }
    }
}
