import ArgumentParser
import Foundation
import MobilityCore
import PipelineRunner

/// Stops a stage command whose store does not exist yet: exit 1 with what to run first, and
/// with `json` the failure object on standard output (`StageFailure`), as every failed stage gives it.
func requireStore(_ path: String, after commands: String, json: Bool) throws {
    let store = StoreLocation.resolve(path)
    guard StoreLocation.exists(store) else {
        try fail(PipelineError(.noStore, "no store at \(store) (run \(commands) first)"), json: json, progress: ProgressReporter())
    }
}
