import ArgumentParser
import Foundation
import PipelineRunner

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a store's tables as exact CSV (--format csv) or as trackintel's tables (--format trackintel).",
        discussion: """
            --format csv (the default) is for other engines (Apache Spark, pandas, DuckDB), not spreadsheets: every \
            table, doubles to the last bit, text as stored, NULL as an empty field and an empty string as "". Rows in \
            primary-key order, so equal stores export byte-identical files. schema.json gives each file's columns as a \
            Spark StructType and the CSV reader's options; it is written last and names exactly the tables exported.

            --format trackintel writes positionfixes.csv, staypoints.csv, triplegs.csv, trips.csv and locations.csv \
            in trackintel's column names and WKT geometry, with the store's ids, for trackintel.read_staypoints_csv(path, \
            index_col="id") and its siblings; user_id is the device, and our other columns are kept.

            Re-running replaces the files. An export holds everything the store holds, raw fixes included: a working \
            copy that identifies people, not a folder to publish; by default it goes into the store folder's restricted/.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, trackintel
    }

    @Option(help: "The SQLite store to export.")
    var store = "reports/pipeline.sqlite"

    @Option(
        help:
            "Folder for the files (created when missing): <table>.csv and schema.json, or trackintel's five tables. Default: restricted/export or restricted/trackintel beside the store."
    )
    var out: String?

    /// The folder written: `--out`, else `restricted/<format>` in the store's folder, where
    /// what identifies people is kept (`OutputLayout`).
    var folder: String {
        out
            ?? (((store as NSString).deletingLastPathComponent as NSString).appendingPathComponent("restricted") as NSString)
            .appendingPathComponent(format == .csv ? "export" : "trackintel")
    }

    @Option(help: "csv: every table exactly, with schema.json; trackintel: trackintel's five tables.")
    var format: Format = .csv

    @Option(name: .customLong("table"), help: "Export only this table (repeatable; --format csv only). Default: every table.")
    var tables: [String] = []

    func validate() throws {
        if format == .trackintel, !tables.isEmpty {
            throw ValidationError("--table selects store tables for --format csv; --format trackintel always writes its five tables")
        }
    }

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        try requireStore(store, after: "`pipeline run` or `pipeline ingest`", json: json)
        if format == .trackintel { return try runTrackintel() }
        var export = TableExport(storePath: store, folder: folder)
        export.tables = tables
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) { try export.run(progress: progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            let rows = summary.tables.values.reduce(0, +)
            progress.log(
                "exported \(summary.tables.count) tables, \(rows) rows, to \(folder)" + String(format: " in %.2f s", summary.seconds))
        }
    }

    func runTrackintel() throws {
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) {
            try TrackintelExport(storePath: store, folder: folder).run(progress: progress)
        }
        if json {
            try JSONSummary.print(summary)
        } else {
            let counts = TrackintelExport.fileNames.map { "\(summary.rows[$0] ?? 0) \($0.replacingOccurrences(of: ".csv", with: ""))" }
            progress.log(
                "exported " + counts.joined(separator: ", ") + " for trackintel to \(folder)"
                    + String(format: " in %.2f s", summary.seconds))
        }
    }
}
