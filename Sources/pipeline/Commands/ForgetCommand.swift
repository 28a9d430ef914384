import ArgumentParser
import Foundation
import PipelineRunner

struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove a device or a person (a participant who withdrew) from a store and every output.",
        discussion: """
            Deletes, in one transaction, every row of the named devices (and of every device of the named persons): \
            input files, fixes, IMU summaries, windows, labels, check-ins and heat-map device cells; then rebuilds \
            staypoints, trips, heat maps, rides and every output file in OUT from what remains, with the configuration \
            of the last complete run. The names are kept in the store's `forgotten` table: later runs skip their \
            recordings (said per file) and drop their rows from shared check-in and label tables. Their input files \
            are not touched: delete them yourself if they must go.

            A name the store holds nothing of is an error (exit 1) and nothing is removed or recorded, with the \
            stored names it may have meant; a name forgotten before is said and is no error. Exit 0 means every \
            name given is gone from the store and every output.
            """
    )

    @Option(help: "The output folder of an earlier `pipeline run` (holding restricted/pipeline.sqlite).")
    var out = "reports"

    @Option(
        name: .customLong("device"), parsing: .upToNextOption,
        help: ArgumentHelp("Devices to forget, by name as `pipeline inputs` lists them.", valueName: "name"))
    var devices: [String] = []

    @Option(
        name: .customLong("person"), parsing: .upToNextOption,
        help: ArgumentHelp("Persons to forget, with all their devices.", valueName: "name"))
    var persons: [String] = []

    @Option(help: ArgumentHelp("The mode model to rebuild with.", discussion: "Default: the one the last complete run used."))
    var model: String?

    @Flag(
        help: ArgumentHelp(
            "Record names the store holds nothing of as forgotten, so later runs skip their recordings.",
            discussion: "Default: off; such a name is an error and nothing changes."))
    var allowUnknown = false

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func validate() throws {
        guard !devices.isEmpty || !persons.isEmpty else { throw ValidationError("name at least one --device or --person to forget") }
    }

    func run() throws {
        var forget = ForgetRun(outputFolder: out, devices: devices, persons: persons)
        forget.model = model
        forget.allowUnknown = allowUnknown
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) { try forget.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(RunCommand.text(summary.rebuilt))
        }
        for warning in summary.warnings { progress.log("warning: " + warning) }
    }
}
