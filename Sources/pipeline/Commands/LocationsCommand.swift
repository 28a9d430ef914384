import ArgumentParser
import Foundation
import PipelineRunner
import Trips

struct LocationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Cluster every staypoint of a store into locations again, over all devices at once, and write locations.csv.",
        discussion: """
            A step of `scripts/spark_run.sh` (spark/README.md) on the merged store when the configuration clusters \
            locations across devices (trips.locations.scope: dataset): each part saw only its own devices. Sets every \
            staypoint's and trip's location id in the store, in one transaction. `pipeline run` and `pipeline trips` \
            do this themselves.

            In a distributed run the clustering is done in spatial tiles: `--tile-points FILE --links-out FILE` finds \
            the links of each tile's staypoints (core points, clusters, borders), and `--store … --out … --links DIR` \
            joins every tile's links into the locations one pass finds.
            """
    )

    @Option(help: "The store (a merged store of a distributed run).")
    var store: String?

    @Option(help: "Folder for locations.csv (created when missing).")
    var out: String?

    @Option(help: "A folder of tile links (part-*.csv, written by --links-out) to join instead of clustering in one pass.")
    var links: String?

    @Option(help: "Tile step: a CSV of staypoints per tile (tile,id,lat_deg,lon_deg,owned; owned 0 for the tile's 2ε halo).")
    var tilePoints: String?

    @Option(help: "Tile step: the CSV of links to write (kind,a,b).")
    var linksOut: String?

    @Option(
        help:
            "A YAML file with stage parameters, as given to `pipeline run` (trips.locations: epsilon_meters, minimum_staypoints, scope). Default: built-in defaults."
    )
    var config: String?

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func validate() throws {
        if tilePoints != nil || linksOut != nil {
            guard tilePoints != nil, linksOut != nil, store == nil, out == nil, links == nil else {
                throw ValidationError("The tile step takes --tile-points and --links-out together, and neither --store, --out nor --links.")
            }
        } else if store == nil || out == nil {
            throw ValidationError("Give --store and --out (or, for the tile step, --tile-points and --links-out).")
        }
    }

    func run() throws {
        let parameters = try ConfigCommand.configuration(config).trips.locations
        let progress = ProgressReporter()
        if let tilePoints, let linksOut {
            var step = LocationTileLinks(pointsPath: tilePoints, linksPath: linksOut)
            step.parameters = parameters
            let summary = try runStage(json: json, progress: progress) { try step.run() }
            if json {
                try JSONSummary.print(summary)
            } else {
                progress.log(
                    "locations: \(summary.tiles) tiles, \(summary.staypoints) staypoints (and \(summary.halo) in halos), "
                        + "\(summary.links) links in \(linksOut)")
            }
            return
        }
        guard let store, let out else { return }
        try requireStore(store, after: "the merge of a distributed run (scripts/spark_run.sh) or `pipeline run`", json: json)
        var pass = LocationsRun(storePath: StorePath.resolved(store), outputFolder: out)
        (pass.parameters, pass.linksFolder) = (parameters, links)
        let summary = try runStage(json: json, progress: progress) { try pass.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(
                "locations (\(summary.scope)): \(summary.locations) from \(summary.staypoints) staypoints, "
                    + "\(summary.unclustered) in none; wrote \(out)/locations.csv")
        }
    }
}
