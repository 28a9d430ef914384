import ArgumentParser
import Foundation

/// Stops a stage command whose store does not exist yet: exit 1 with what to run first, and
/// with `json` the failure object on standard output (`StageFailure`), as every failed stage gives it.
func requireStore(_ path: String, after commands: String, json: Bool) throws {
    guard FileManager.default.fileExists(atPath: path) else {
        let message = "no store at \(path) (run \(commands) first)"
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        if json { try JSONSummary.print(StageFailure(exitStatus: 1, error: message)) }
        throw ExitCode(1)
    }
}
