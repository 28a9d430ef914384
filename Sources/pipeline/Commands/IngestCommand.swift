import ArgumentParser
import Foundation
import Ingest
import PipelineRunner

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Read trace files and folders into the SQLite store; quarantine what cannot be read.",
        discussion: """
            Reads GPX 1.0/1.1, GeoLife PLT and labels.txt, IMU CSV (generic, Sensor Logger folder or zip, phyphox, \
            labelled research recordings, Android event logs, or an explicit --columns mapping), geofences \
            (GeoJSON, CSV circles), train check-ins, label CSVs and manifest.csv; any of them gzipped. \
            Unchanged inputs (same SHA-256) are skipped; a changed input replaces its rows in one transaction.
            """
    )

    @Argument(help: "Trace files or folders (searched recursively).")
    var paths: [String]

    @Option(help: "The SQLite store to create or update. \(StorePath.note)")
    var store = StorePath.defaultValue

    @Option(help: "Output folder for quarantine.csv (written to its restricted/). Default: the store's output folder.")
    var reports: String?

    @Flag(help: "Re-read inputs even when their content is unchanged.")
    var force = false

    @Flag(help: "Hash every input to decide that it is unchanged, instead of trusting an unchanged size, modification time and inode.")
    var verify = false

    @Flag(
        help: ArgumentHelp(
            "Remove the stored data of inputs whose files are no longer found.",
            discussion: "Default: off: such inputs are kept, listed in missing_inputs and warned about."))
    var pruneMissing = false

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    @OptionGroup var input: InputOptions
    @OptionGroup var cleaning: CleaningOptions

    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        var options = IngestOptions(paths: paths, storePath: StorePath.resolved(store))
        options.reportsFolder = reports ?? StorePath.outputFolder(store)
        options.cleaning = cleaning.parameters
        options.namePattern = input.namePattern
        options.columns = try input.mappings()
        options.force = force
        options.verify = verify
        options.pruneMissing = pruneMissing
        let progress = ProgressReporter(quiet: false)
        let summary = try runStage(json: json, progress: progress) { try IngestRun(options: options, progress: progress).run() }
        if json {
            print(try summary.json())
        } else {
            progress.log(IngestCommand.text(summary))
        }
        for warning in summary.warnings { progress.log("warning: " + warning) } // last, where they are seen
        if summary.exitStatus != 0 { throw ExitCode(Int32(summary.exitStatus)) }
    }

    static func text(_ summary: IngestSummary) -> String {
        var lines = [
            "\(summary.files) inputs: \(summary.ingested) ingested, \(summary.unchanged) unchanged, "
                + "\(summary.quarantined) quarantined, \(summary.skipped) skipped (not a trace format)"
        ]
        lines.append(
            "\(summary.fixes) fixes, \(summary.waypoints) waypoints, \(summary.imuSamples) IMU samples, "
                + "\(summary.labels) labels, \(summary.geofences) geofences, \(summary.checkins) check-ins")
        if !summary.dropped.isEmpty {
            lines.append("dropped: " + summary.dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !summary.unknownModes.isEmpty {
            lines.append(
                "label names not in the mode table (stored without a mode): "
                    + summary.unknownModes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if summary.ingested == 0 && summary.quarantined == 0 { lines.append("nothing changed since the last run") }
        lines.append(String(format: "store %@ written in %.2f s", summary.store, summary.seconds))
        return lines.joined(separator: "\n")
    }
}
