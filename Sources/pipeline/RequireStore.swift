import ArgumentParser
import Foundation

/// Stops a stage command whose store does not exist yet: exit 1 with what to run first.
func requireStore(_ path: String, after commands: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
        FileHandle.standardError.write(Data("error: no store at \(path) (run \(commands) first)\n".utf8))
        throw ExitCode(1)
    }
}
