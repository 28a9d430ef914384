import ArgumentParser
import Foundation
import PipelineRunner
import Reports
import MobilityCore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Write a store's tables as exact CSV (--format csv), as trackintel's tables (--format trackintel), or as a travel diary (--format diary).",
        discussion: """
            --format csv (the default) is for other engines (Apache Spark, pandas, DuckDB), not spreadsheets: every \
            table, doubles to the last bit, text as stored, NULL as an empty field and an empty string as "". Rows in \
            primary-key order, so equal stores export byte-identical files. schema.json gives each file's columns as a \
            Spark StructType and the CSV reader's options; it is written last and names exactly the tables exported.

            --format trackintel writes positionfixes.csv, staypoints.csv, triplegs.csv, trips.csv and locations.csv \
            in trackintel's column names and WKT geometry, with the store's ids, for trackintel.read_staypoints_csv(path, \
            index_col="id") and its siblings; user_id is the device, and our other columns are kept.

            --format diary writes persons.csv, days.csv, activities.csv, trips.csv and legs.csv, and diary.gpkg with \
            the same tables as layers: each person-day cut into activities, trips and untracked time that add up to \
            the day (1,440 minutes; 1,380 or 1,500 when the clocks change), with purposes, coverage and each person's \
            time per mode (docs/person-days.md, columns in docs/output-schema.md).

            Re-running replaces the files. An export holds everything the store holds, raw fixes included: a working \
            copy that identifies people, not a folder to publish; by default it goes into the store folder's restricted/.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, trackintel, diary
    }

    @Option(help: "The SQLite store to export. \(StorePath.note)")
    var store = StorePath.defaultValue

    @Option(
        help:
            "Folder for the files (created when missing): <table>.csv and schema.json, or trackintel's five tables. Default: restricted/export, restricted/trackintel or restricted/diary in the store's output folder."
    )
    var out: String?

    /// The folder written: `--out`, else `restricted/<format>` in the store's output folder,
    /// where what identifies people is kept (`OutputLayout`).
    var folder: String {
        out
            ?? (((StorePath.outputFolder(store) as NSString).appendingPathComponent(StoreLocation.restrictedFolderName)) as NSString)
            .appendingPathComponent(format == .csv ? "export" : format.rawValue)
    }

    @Option(
        help:
            "csv: every table exactly, with schema.json; trackintel: trackintel's five tables; diary: the travel diary (persons, days, activities, trips, legs; CSV and diary.gpkg; docs/person-days.md)."
    )
    var format: Format = .csv

    @Option(name: .customLong("table"), help: "Export only this table (repeatable; --format csv only). Default: every table.")
    var tables: [String] = []

    func validate() throws {
        if format != .csv, !tables.isEmpty {
            throw ValidationError("--table selects store tables for --format csv; --format \(format.rawValue) always writes all its tables")
        }
    }

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        try requireStore(store, after: "`pipeline run` or `pipeline ingest`", json: json)
        if format == .trackintel { return try runTrackintel() }
        if format == .diary { return try runDiary() }
        var export = TableExport(storePath: StorePath.resolved(store), folder: folder)
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

    func runDiary() throws {
        try runFiles(
            { try DiaryExport(storePath: StorePath.resolved(store), folder: folder).run(progress: $0) },
            files: OutputSchema.diaryFiles.map(\.file),
            said: "of the diary", extra: " and \(DiaryFiles.geoPackageName)")
    }

    func runTrackintel() throws {
        try runFiles(
            { try TrackintelExport(storePath: StorePath.resolved(store), folder: folder).run(progress: $0) },
            files: TrackintelExport.fileNames,
            said: "for trackintel", extra: "")
    }

    /// An export of files of its own shape: its summary as JSON, or the rows of each file.
    private func runFiles(_ export: (ProgressReporter) throws -> FileExportSummary, files: [String], said: String, extra: String) throws {
        let progress = ProgressReporter()
        let summary = try runStage(json: json, progress: progress) { try export(progress) }
        if json {
            try JSONSummary.print(summary)
        } else {
            let counts = files.map { "\(summary.rows[$0] ?? 0) \($0.replacingOccurrences(of: ".csv", with: ""))" }
            progress.log(
                "exported " + counts.joined(separator: ", ") + extra + " \(said) to \(folder)"
                    + String(format: " in %.2f s", summary.seconds))
        }
    }
}
