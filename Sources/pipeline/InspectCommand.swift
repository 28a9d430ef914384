import ArgumentParser
import Ingest
import PipelineRunner

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what files were detected as and what they hold (sensors, rates, time span, counts, problems); writes nothing.",
        discussion: "Exit status 0 when every file reads, 2 when one would be quarantined."
    )

    @Argument(help: "Files or Sensor Logger folders to inspect.")
    var paths: [String]

    @Flag(help: "Print a JSON array, one object per file, on standard output.")
    var json = false

    @OptionGroup var input: InputOptions
    @OptionGroup var cleaning: CleaningOptions

    func run() throws {
        let devices = try DeviceResolver(namePattern: input.namePattern)
        let columns = try input.mappingSpec()
        let inspections = paths.map {
            Inspection.inspect(path: $0, cleaning: cleaning.parameters, devices: devices, columns: columns)
        }
        if json {
            let objects = try inspections.map { try $0.json() }
            print("[\n" + objects.joined(separator: ",\n") + "\n]")
        } else {
            print(inspections.map(\.text).joined(separator: "\n\n"))
        }
        if inspections.contains(where: { $0.error != nil }) { throw ExitCode(2) }
    }
}
