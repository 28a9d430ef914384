import ArgumentParser
import MobilityCore
import PipelineRunner

/// Runs the body of a command that writes a store, mapping its failures to exit codes the
/// same way for every command: a `PipelineError` exits with its code's status (75 when another
/// process holds the store's lock: nothing was done; with `--json`, a JSON object still says
/// so), any other error 1. Usage errors
/// (`ValidationError`) pass through as 64.
func runStage<T>(json: Bool, progress: ProgressReporter, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ValidationError {
        throw error
    } catch let error as ExitCode {
        throw error // the body said what failed already
    } catch let error as PipelineError {
        try fail(error, json: json, progress: progress)
    } catch {
        try fail(PipelineError(.unexpected, "\(error)", cause: error), json: json, progress: progress)
    }
}

/// Ends a command that cannot go on, with the exit status of the error's code: the message on
/// standard error and, with `json`, the failure object (`StageFailure`) on standard output.
func fail(_ error: PipelineError, json: Bool, progress: ProgressReporter) throws -> Never {
    progress.log("error: \(error.message)")
    if json { try JSONSummary.print(StageFailure(exitStatus: Int(error.code.exitStatus), code: error.code.rawValue, error: error.message)) }
    throw ExitCode(error.code.exitStatus)
}

/// The `--json` object of a command that could not run: its exit status, the error's stable
/// code (`PipelineError.Code`, for scripts) and its message (for people).
struct StageFailure: Encodable {
    var exitStatus: Int
    var code: String
    var error: String

    enum CodingKeys: String, CodingKey {
        case exitStatus = "exit_status", code, error
    }
}
