import Foundation
import Ingest
import MobilityCore
import Store

/// `pipeline export`: every table of a store as exact CSV, with `schema.json` declaring each
/// file's columns and types, so that another engine (Apache Spark, pandas, DuckDB) reads the
/// same values without inferring anything.
///
/// The files are for machines, not spreadsheets: doubles are written to the last bit (the
/// shortest text that reads back to the same double), text exactly as stored (no formula
/// neutralising, unlike the report CSVs), NULL as an empty field and an empty string as `""`.
/// Rows come in primary-key order, so two exports of equal stores are byte-identical. Each file
/// is written beside its final name and moved into place; `schema.json` is written last and
/// names exactly the tables of this export.
public struct TableExport {
    public var storePath: String
    public var folder: String
    /// Tables to export; empty means every table.
    public var tables: [String] = []

    public init(storePath: String, folder: String) {
        self.storePath = storePath
        self.folder = folder
    }

    public struct Summary: Codable, Sendable {
        public var folder = ""
        public var tables: [String: Int] = [:]
        public var seconds = 0.0
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let started = Date()
        return try StoreSession.run(storePath: storePath, progress: progress) { store in
            let all = try store.storedTables()
            let unknown = tables.filter { name in !all.contains { $0.name == name } }
            guard unknown.isEmpty else {
                throw PipelineError(
                    .cannotExport,
                    "no table \(unknown.joined(separator: ", ")) in \(storePath); its tables are "
                        + all.map(\.name).joined(separator: ", "))
            }
            let chosen = tables.isEmpty ? all : all.filter { tables.contains($0.name) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // fixes.csv reads as a table of positions: the marker keeps a run from ingesting it back.
            try Data("written by `pipeline export`; a pipeline run never reads this folder as input\n".utf8)
                .writeThroughPartial(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(PipelineOutputs.exportMarker)))
            var summary = Summary(folder: folder)
            var described: [ExportSchema.Table] = []
            for (index, table) in chosen.enumerated() {
                progress.update(done: index, total: chosen.count, item: table.name)
                let types = try table.columns.map { try ExportColumnType(declared: $0.declaredType, table: table.name, column: $0.name) }
                let rows = try store.dump(table, types: types, toCSV: folder + "/" + table.name + ".csv")
                summary.tables[table.name] = rows
                described.append(ExportSchema.Table(table, types: types, rows: rows))
            }
            progress.update(done: chosen.count, total: chosen.count, item: "")
            let schema = ExportSchema(pipelineVersion: ToolVersion.string, tables: described)
            try JSONText.data(schema, keys: .asDeclared, layout: .pretty).writeThroughPartial(
                to: URL(fileURLWithPath: folder + "/schema.json"))
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
    }
}
