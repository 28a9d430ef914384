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
            1 a fatal error (the store could not be opened, a path does not exist); 64 a usage error.
            """,
        version: ToolVersion.string,
        subcommands: [
            RunCommand.self, IngestCommand.self, InspectCommand.self, FeaturesCommand.self, TrainCommand.self, EvaluateCommand.self,
            ClassifyCommand.self, TripsCommand.self, HeatMapCommand.self, ComfortCommand.self, ExportCommand.self, InputsCommand.self,
            ForgetCommand.self, PublishCommand.self, LocationsCommand.self, SimulateCommand.self, ConfigCommand.self, SchemaCommand.self
        ]
    )

    /// Every command runs its own work on the cores; OpenBLAS's idle workers are stopped first.
    static func main() {
        BLASThreads.useOnePerCaller()
        main(nil)
    }
}
