import ArgumentParser
import Reports

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print every output CSV's columns with type and unit, as Markdown (the README's \"Output schema\").",
        discussion: """
            The list the writers take their headers from: every file of `pipeline run`, then features.csv. Types: integer, \
            real, text, boolean (true/false), datetime (ISO 8601 UTC with milliseconds). Units come from the name's suffix.
            """
    )

    @Flag(help: "Print a JSON array instead, one object per file: file, about, per_device (a per-device table, which a distributed run writes as Parquet and as CSV only with --csv) and columns (name, type, unit).")
    var json = false

    func run() throws {
        guard json else {
            print(OutputSchema.markdown(), terminator: "")
            return
        }
        try JSONSummary.print((OutputSchema.runFiles + [OutputSchema.features]).map(FileSchema.init))
    }

    struct FileSchema: Encodable {
        var file: String, about: String, perDevice: Bool, columns: [Column]
        struct Column: Encodable { var name: String, type: String, unit: String }
        enum CodingKeys: String, CodingKey { case file, about, perDevice = "per_device", columns }

        init(_ schema: OutputSchema) {
            (file, about) = (schema.file, schema.about)
            perDevice = schema.isPerDeviceTable
            columns = schema.columns.map { Column(name: $0.name, type: $0.type.rawValue, unit: $0.unit) }
        }
    }
}
