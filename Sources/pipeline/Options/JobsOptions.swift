import ArgumentParser
import Foundation
import MobilityCore

/// `--jobs`: how much work runs at once (`Jobs`).
struct JobsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How many recordings (ingest, classification), devices (trips) or blocks of a large GPX file (inspect) to work on at once; memory grows with it, about one recording or device each, 2 MiB of GPX a block. Default: the cores this process may use (\(ProcessInfo.processInfo.activeProcessorCount) here).",
            valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
    }

    /// Sets the process's width; call first thing in `run()`.
    func apply() { Jobs.set(jobs) }
}
