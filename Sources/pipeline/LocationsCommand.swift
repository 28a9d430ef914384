import ArgumentParser
import Foundation
import PipelineRunner

struct LocationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Cluster every staypoint of a store into locations again, over all devices at once, and write locations.csv.",
        discussion: """
            A step of `scripts/spark_run.sh` (spark/README.md) on the merged store when the configuration clusters \
            locations across devices (trips.locations.scope: dataset): each part saw only its own devices. Sets every \
            staypoint's and trip's location id in the store, in one transaction. `pipeline run` and `pipeline trips` \
            do this themselves.
            """
    )

    @Option(help: "The store (a merged store of a distributed run).")
    var store: String

    @Option(help: "Folder for locations.csv (created when missing).")
    var out: String

    @Option(help: "A YAML file with stage parameters, as given to `pipeline run` (trips.locations: epsilon_meters, minimum_staypoints, scope). Default: built-in defaults.")
    var config: String?

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        try requireStore(store, after: "the merge of a distributed run (scripts/spark_run.sh) or `pipeline run`")
        var pass = LocationsRun(storePath: store, outputFolder: out)
        pass.parameters = try ConfigCommand.configuration(config).trips.locations
        let progress = Progress()
        let summary = try runStage(json: json, progress: progress) { try pass.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log("locations (\(summary.scope)): \(summary.locations) from \(summary.staypoints) staypoints, "
                         + "\(summary.unclustered) in none; wrote \(out)/locations.csv")
        }
    }
}
