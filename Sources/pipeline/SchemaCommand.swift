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

    func run() throws {
        print(OutputSchema.markdown(), terminator: "")
    }
}
