import ArgumentParser
import Features
import MobilityCore

@main
struct Pipeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract:
            "Turns mobility sensor traces (GPX, GeoLife PLT, phone IMU CSV) into a clean, queryable store, windowed features, transport modes, staypoints, dwells and trips.",
        discussion: """
            Exit codes: 0 every input was read; 2 some inputs were quarantined (see quarantine.csv); \
            1 a fatal error (the store could not be opened, a path does not exist); 64 a usage error; \
            75 another run holds the store (try again later). With --json, a failure prints {"exit_status", \
            "code", "error"}; docs/errors.md lists the codes.
            """,
        version: ToolVersion.string,
        subcommands: [
            RunCommand.self, IngestCommand.self, InspectCommand.self, FeaturesCommand.self, TrainCommand.self, EvaluateCommand.self,
            ClassifyCommand.self, TripsCommand.self, HeatMapCommand.self, ComfortCommand.self, ExportCommand.self, InputsCommand.self,
            ForgetCommand.self, PublishCommand.self, LocationsCommand.self, SimulateCommand.self, ConfigCommand.self, SchemaCommand.self,
            TimeZoneCommand.self
        ]
    )

    /// Every command runs its own work on the cores; OpenBLAS's idle workers are stopped first.
    /// A usage error (exit 64) of a command given `--json` also prints the failure object, so a
    /// script reading standard output meets one on every failure (`StageFailure`, code `usage`).
    static func main() {
        BLASThreads.useOnePerCaller()
        do {
            var command = try parseAsRoot(nil)
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure, CommandLine.arguments.dropFirst().contains("--json") {
                let failure = PipelineError(.usage, message(for: error))
                try? JSONSummary.print(
                    StageFailure(exitStatus: Int(failure.code.exitStatus), code: failure.code.rawValue, error: failure.message))
            }
            exit(withError: error)
        }
    }
}
