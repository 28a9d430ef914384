import ArgumentParser
import MobilityCore
import Reports

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print every output CSV's columns with type and unit, as Markdown (docs/output-schema.md).",
        discussion: """
            The list the writers take their headers from: every file of `pipeline run`, then features.csv. Types: integer, \
            real, text, boolean (true/false), datetime (ISO 8601 UTC with milliseconds). Units come from the name's suffix.
            """
    )

    @Flag(
        help:
            "Print a JSON array instead, one object per file: file, path (below the output folder: restricted/ for the files that identify people), about, per_device (a per-device table, which a distributed run writes as Parquet and as CSV only with --csv), partial (a distributed run's part's partial groups, JSON lines, never published) and columns (name, type, unit, id_of: the rows whose id the column holds, such as staypoints, or null; merge: how a distributed run merges a partial table's column over the parts, or null)."
    )
    var json = false

    @Flag(
        help:
            "Print one JSON object of pandas dtypes per file ({\"triplegs.csv\": {\"device\": \"string\", …}}) for pd.read_csv(path, dtype=…): text as string (a device 010 stays \"010\"), integer as Int64, real as float64, boolean as boolean; times are text, for pd.to_datetime."
    )
    var pandasDtypes = false

    func validate() throws {
        if json && pandasDtypes { throw ValidationError("--json and --pandas-dtypes print two different things: give one") }
    }

    func run() throws {
        if pandasDtypes {
            var dtypes: [String: [String: String]] = [:]
            for schema in OutputSchema.runFiles + [OutputSchema.features] {
                dtypes[schema.file] = Dictionary(uniqueKeysWithValues: schema.columns.map { ($0.name, Self.pandasType($0.type)) })
            }
            return try JSONSummary.print(dtypes)
        }
        guard json else {
            print(OutputSchema.markdown(), terminator: "")
            return
        }
        try JSONSummary.print(
            (OutputSchema.runFiles + [OutputSchema.features]).map(FileSchema.init) + OutputSchema.partialTables.map(FileSchema.init))
    }

    /// The pandas dtype a column is read with: nullable where a field may be empty.
    static func pandasType(_ type: OutputSchema.ColumnType) -> String {
        switch type {
        case .text, .datetime: "string"
        case .integer: "Int64"
        case .real: "float64"
        case .boolean: "boolean"
        }
    }

    struct FileSchema: Encodable {
        var file: String, path: String, about: String, perDevice: Bool, partial: Bool, columns: [Column]
        struct Column: Encodable {
            var name: String, type: String, unit: String
            /// The rows whose id the column holds (`staypoints` …), null for other columns.
            @NullEncodable var idOf: String?
            /// How a distributed run's merge combines the parts' values (`PartialTable.Merge`), null but in a partial table.
            @NullEncodable var merge: String?
            enum CodingKeys: String, CodingKey { case name, type, unit, idOf = "id_of", merge }
        }
        enum CodingKeys: String, CodingKey { case file, path, about, perDevice = "per_device", partial, columns }

        init(_ schema: OutputSchema) {
            (file, about, partial) = (schema.file, schema.about, false)
            path = OutputLayout.restrictedFiles.contains(schema.file) ? OutputLayout.restrictedFolderName + "/" + schema.file : schema.file
            perDevice = schema.isPerDeviceTable
            columns = schema.columns.map { Column(name: $0.name, type: $0.type.rawValue, unit: $0.unit, idOf: $0.idOf, merge: nil) }
        }

        /// A distributed run's partial table: JSON lines, each column with its merge.
        init(_ table: PartialTable) {
            (file, path, perDevice, partial) = (table.fileName, OutputSchema.path(of: table), false, true)
            about =
                "A distributed run's part's partial groups of \(table.name), merged over the parts into the reduced table \(table.name)."
            columns = table.columns.map { Column(name: $0.name, type: "json", unit: "", idOf: nil, merge: $0.merge.rawValue) }
        }
    }
}
