import ArgumentParser
import PipelineRunner
import Publication

/// When a ride is on time in `punctuality.csv`, for `run` and `trips`: each overrides its
/// `transit` key in `--config`.
struct PunctualityOptions: ParsableArguments {
    @Option(
        name: .customLong("on-time-late-s"),
        help: ArgumentHelp(
            "A ride on a scheduled trip is on time when it arrives at most this late at the stop it alighted at (punctuality.csv). Default: transit.on_time_late_seconds in --config, else \(Int(LinePunctuality.OnTime().lateSeconds)) (the European railways' 5 minutes).",
            valueName: "seconds"))
    var lateSeconds: Double?

    @Option(
        name: .customLong("on-time-early-s"),
        help: ArgumentHelp(
            "When given, a ride that arrives more than this early is not on time either (60: from 1 min early to the late limit, as many bus agencies count). Default: transit.on_time_early_seconds in --config, else none (any earliness is on time).",
            valueName: "seconds"))
    var earlySeconds: Double?

    func validate() throws {
        for value in [lateSeconds, earlySeconds].compactMap({ $0 }) where !(value >= 0) {
            throw ValidationError("--on-time-late-s and --on-time-early-s must be ≥ 0 seconds (got \(value))")
        }
    }

    func apply(to configuration: inout PipelineConfiguration) {
        if let lateSeconds { configuration.transit.onTimeLateSeconds = lateSeconds }
        if let earlySeconds { configuration.transit.onTimeEarlySeconds = earlySeconds }
    }
}
