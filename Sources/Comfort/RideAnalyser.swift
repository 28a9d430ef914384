import Features
import MobilityCore

/// A ride's metrics, stops and vehicle frame from its acceleration (`RideAcceleration`): cut
/// into gap-free pieces, each resampled to a uniform rate, then `VehicleFrame`, `StopDetector`
/// and `RideMetrics`. The samples come from the caller (`ComfortRun` reads them), so this reads
/// no file.
public struct RideAnalyser: Sendable {
    public var parameters: RideMetrics.Parameters
    public var stopDetector = StopDetector()

    public init(parameters: RideMetrics.Parameters = RideMetrics.Parameters()) {
        self.parameters = parameters
    }

    /// The ride's metrics, stops and frame from its acceleration; `speeds`: GPS speeds in the ride.
    public func analyse(_ acceleration: RideAcceleration, speeds: [(seconds: Double, metersPerSecond: Double)] = []) -> RideAnalysis {
        var (analysis, pieces, rate) = RideAcceleration.pieces(acceleration)
        guard !pieces.isEmpty else { return analysis }
        guard var frame = VehicleFrame(pieces: pieces, rateHz: rate, gravityIncluded: acceleration.gravityIncluded) else {
            analysis.note = "not measured: the acceleration holds no gravity (its mean is under 1 m/s²) though the stream says it does"
            return analysis
        }
        analysis.stops = stopDetector.stops(in: pieces, rateHz: rate, speeds: speeds)
        frame.orientForward(stops: analysis.stops.map { ($0.startSeconds, $0.endSeconds) }, rateHz: rate)
        analysis.metrics = RideMetrics(frame: frame, rateHz: rate, parameters: parameters)
        analysis.verticalSource = frame.verticalSource
        analysis.status = .measured
        return analysis
    }

    /// GPS speeds between consecutive fixes within [start, end] (time of the later fix, m/s).
    public static func speeds(_ points: [TrackPoint], from start: Double, to end: Double) -> [(seconds: Double, metersPerSecond: Double)] {
        let inside = points.filter { $0.timeSeconds >= start && $0.timeSeconds <= end }
        guard inside.count > 1 else { return [] }
        return (1..<inside.count).compactMap { i in
            let dt = inside[i].timeSeconds - inside[i - 1].timeSeconds
            return dt > 0 && dt <= 30 ? (inside[i].timeSeconds, TrackPoint.distanceMeters(inside[i - 1], inside[i]) / dt) : nil
        }
    }
}

extension Ride {
    /// The analysis on the ride; a check-in's ride window is cut to its IMU data, so a ride
    /// without fixes (its window the check-in plus the longest ride) never lasts longer than the data.
    public mutating func apply(_ analysis: RideAnalysis) {
        if let first = analysis.firstSeconds, let last = analysis.lastSeconds, analysis.status == .measured {
            window.startSeconds = max(window.startSeconds, first)
            window.endSeconds = min(window.endSeconds, last)
        }
        (status, metrics, rateHz, coveredSeconds) = (analysis.status, analysis.metrics, analysis.rateHz, analysis.coveredSeconds)
        (stops, verticalSource, note) = (analysis.stops, analysis.verticalSource, analysis.note)
    }
}

extension RideAcceleration {
    /// A recording's acceleration cut at pauses longer than `gapSeconds`, parts of two samples or more.
    public func parts(splittingAtGapsOver gapSeconds: Double) -> [RideAcceleration] {
        guard !samples.isEmpty else { return [] }
        // A lone sample between pauses is no ride (nothing to measure, not even a rate).
        return Recording.runs(samples.map(\.time.secondsSince1970), splittingAtGapsOver: gapSeconds).filter { $0.count > 1 }.map {
            RideAcceleration(samples: Array(samples[$0]), gravityIncluded: gravityIncluded)
        }
    }
}
