import ArgumentParser
import Foundation
import PipelineRunner

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every table of a store as exact CSV, with schema.json declaring each column's type.",
        discussion: """
            For other engines (Apache Spark, pandas, DuckDB), not spreadsheets: doubles to the last bit, text as stored, \
            NULL as an empty field and an empty string as "". Rows in primary-key order, so equal stores export \
            byte-identical files. schema.json gives each file's columns as a Spark StructType and the CSV reader's \
            options; it is written last and names exactly the tables exported. Re-running replaces the files. \
            An export holds everything the store holds, raw fixes included: a working copy, not a folder to publish.
            """
    )

    @Option(help: "The SQLite store to export.")
    var store = "reports/pipeline.sqlite"

    @Option(help: "Folder for <table>.csv and schema.json (created when missing).")
    var out: String

    @Option(name: .customLong("table"), help: "Export only this table (repeatable). Default: every table.")
    var tables: [String] = []

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        try requireStore(store, after: "`pipeline run` or `pipeline ingest`")
        var export = TableExport(storePath: store, folder: out)
        export.tables = tables
        let progress = Progress()
        let summary = try runStage(json: json, progress: progress) { try export.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            let rows = summary.tables.values.reduce(0, +)
            progress.log("exported \(summary.tables.count) tables, \(rows) rows, to \(out)" + String(format: " in %.2f s", summary.seconds))
        }
    }
}
