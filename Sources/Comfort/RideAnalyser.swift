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
}
