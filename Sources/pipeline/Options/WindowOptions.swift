import ArgumentParser
import Features
import PipelineRunner

/// The window parameters as options; defaults and their reasons come from `WindowParameters`.
struct WindowOptions: ParsableArguments {
    @Option(name: .customLong("window-s"), help: "Window length, seconds.")
    var lengthSeconds = WindowParameters().lengthSeconds

    @Option(help: "Fraction of a window shared with the next, 0 to below 1.")
    var overlap = WindowParameters().overlap

    @Option(name: .customLong("rate-hz"), help: "Rate IMU streams are resampled to, Hz.")
    var rateHz = WindowParameters().rateHz

    @Option(
        name: .customLong("max-gap-s"), help: "Longest IMU gap interpolated across, seconds; windows over longer gaps get no IMU features.")
    var maxGapSeconds = WindowParameters().maxGapSeconds

    @Option(
        name: .customLong("gps-context-s"),
        help:
            "Span of fixes around each window used for its GPS features, seconds (a sparse track widens it to 2.5 × its median fix interval, at most 5 min)."
    )
    var gpsContextSeconds = WindowParameters().gpsContextSeconds

    @Option(
        name: .customLong("min-spectral-rate-hz"),
        help: "Lowest native sample rate whose frequency features are computed, Hz; slower streams get them as missing.")
    var minimumSpectralRateHz = WindowParameters().minimumSpectralRateHz

    var parameters: WindowParameters {
        WindowParameters(
            lengthSeconds: lengthSeconds, overlap: overlap, rateHz: rateHz,
            maxGapSeconds: maxGapSeconds, gpsContextSeconds: gpsContextSeconds,
            minimumSpectralRateHz: minimumSpectralRateHz)
    }

    func validate() throws {
        if let problem = parameters.problem { throw ValidationError(problem) }
    }
}

extension InputOptions {
    var loader: RecordingLoader {
        get throws {
            var loader = RecordingLoader()
            loader.namePattern = namePattern
            loader.mappings = try mappings()
            return loader
        }
    }
}
