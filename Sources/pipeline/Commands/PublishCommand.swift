import ArgumentParser
import Foundation
import MobilityCore
import PipelineRunner

struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Write the heat maps, quarantine.csv and report.html of a store that a distributed run's merge filled.",
        discussion: """
            The last step of `scripts/spark_run.sh` (spark/README.md), in one Spark task: the merge puts every part's \
            rows into one store and Spark reduces every part's heat-map cells, trips, legs and rides (--reduced); \
            this applies k and the formulas and writes the files `pipeline run` writes, with the same code. Not \
            needed after a single `pipeline run`.
            """
    )

    @Option(help: "The merged SQLite store (OUT/restricted/pipeline.sqlite after `scripts/spark_run.sh`).")
    var store: String

    @Option(help: "Folder for the files (created when missing).")
    var out: String

    @Option(
        help:
            "A YAML file with stage parameters, as given to `pipeline run` (its UTC offset and model are used). Default: built-in defaults."
    )
    var config: String?

    @Option(
        help:
            "The mode model named in the report, as given to `pipeline run`. Default: the configuration's, else the shipped models/mode-model.json."
    )
    var model: String?

    @Option(
        help:
            "A folder of a distributed run's reductions (heat-map cells, OD groups, modal-split totals, comfort groups; spark/README.md): publish applies k and the formulas and writes the heat maps, od_matrix.csv, modal_split.csv and the comfort summaries from them. Default: the heat maps already in the store."
    )
    var reduced: String?

    @Option(
        help:
            "The folder of the per-device tables' CSVs (staypoints.csv, trips.csv, triplegs.csv, …) that od_grid.csv and pipeline.gpkg are drawn from, when they are not in --out's restricted/ (the report then points at their Parquet datasets, restricted/parquet/trips …). Default: OUT/restricted."
    )
    var tables: String?

    @OptionGroup(title: "Planning tables (as given to `pipeline run`)") var planning: PlanningOptions
    @OptionGroup(title: "Privacy (as given to `pipeline run`)") var privacy: PrivacyOptions

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        try requireStore(store, after: "the merge of a distributed run (scripts/spark_run.sh)", json: json)
        var configuration = try ConfigCommand.configuration(config)
        if let model { configuration.classification.model = model }
        planning.apply(to: &configuration)
        try privacy.apply(to: &configuration)
        var publish = PublishRun(storePath: StorePath.resolved(store), outputFolder: out)
        publish.modelPath = configuration.classification.rulesOnly ? nil : DefaultModel.resolve(configuration.classification.model)
        publish.calendar = configuration.calendar.dataset
        publish.heatMapParameters = configuration.heatmap
        publish.reducedFolder = reduced
        publish.tablesFolder = tables
        publish.planning = configuration.planning
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) { try publish.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(
                "published \(summary.heatMaps) heat maps (\(summary.cells) cells in the overall map), "
                    + "\(summary.quarantined) quarantined files and the report in \(out)")
        }
    }
}
