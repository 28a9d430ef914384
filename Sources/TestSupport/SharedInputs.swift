import Foundation

/// A data set of `../shared/data` laid out as a user would give it, by the same function of
/// `scripts/data/shared_inputs.sh` the evaluation scripts use (links, split tables, a manifest).
public enum SharedInputs {
    /// Runs `function DIR SHARED` (e.g. `helsinki_inputs`); true when it succeeded.
    public static func layout(_ function: String, into folder: String) throws -> Bool {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = ["-c", "source scripts/data/shared_inputs.sh && \(function) \"$1\" \"$2\"", "bash", folder, SharedData.folder]
        script.currentDirectoryURL = URL(fileURLWithPath: SharedData.projectRoot)
        try script.run()
        script.waitUntilExit()
        return script.terminationStatus == 0
    }
}
