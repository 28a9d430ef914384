import ArgumentParser
import Foundation
import MobilityCore
import PipelineRunner

struct InputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inputs",
        abstract: "List the files a run would read, with format, bytes and device, without reading their records.",
        discussion: """
            Finds files as `pipeline ingest` and `pipeline run` do (the same discovery and format detection, \
            manifest.csv files in the order they are met, --name-pattern, else the folder or file name) but reads \
            only the first lines a format needs, so listing costs little whatever the size of the files: for planning work \
            by device and bytes (partitions of a distributed run, batches of a nightly job). per_device is false \
            for tables that name devices per row or none (geofences, check-ins, label CSVs, manifests). Writes nothing.
            """
    )

    @Argument(help: "Files or folders, as given to `pipeline run`.")
    var paths: [String]

    @Flag(help: "Print a JSON array, one object per file, on standard output.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "The output folder of the run these inputs are for: never listed as an input.",
            discussion: "Default: reports (as `pipeline run`); any folder holding a pipeline store is skipped too."))
    var out = "reports"

    @OptionGroup var input: InputOptions

    func run() throws {
        var listing = try input.listing
        listing.paths = paths
        listing.excludedFolders = [out]
        let entries = try runStage(json: json, progress: ProgressReporter()) { try listing.run() } // a failure is a JSON object too
        if json {
            try JSONSummary.print(entries)
            return
        }
        for entry in entries {
            let what =
                entry.format.map {
                    "\($0), device \(entry.device) (\(entry.deviceSource)), person \(entry.person) (\(entry.personSource))"
                        + (entry.perDevice ? "" : ", shared")
                }
                ?? entry.note ?? ""
            print("\(entry.path)\t\(entry.bytes) bytes\t\(what)")
        }
        let bytes = entries.reduce(Int64(0)) { $0 + $1.bytes }
        let devices = Set(entries.filter { $0.perDevice && $0.format != nil }.map(\.device))
        FileHandle.standardError.write(Data("\(entries.count) files, \(bytes) bytes, \(devices.count) devices\n".utf8))
    }
}
