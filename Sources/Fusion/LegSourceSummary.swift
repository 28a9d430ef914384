import Classify
import MobilityCore

/// The leg sources of `LegSourceScores` side by side on the same legs: what `evaluate` prints
/// under "GPS legs by source" when the legs carry a motion source (a phone's activity labels).
/// The vehicle type's macro-F1 is over the legs whose truth is car, bus or train, each of those
/// classes' F1 averaged; an answer of `vehicle` (or any other mode) counts as wrong for the type,
/// and its share is given. The coarse macro-F1 is slow (walk, bike) against motorised, where
/// `vehicle` counts as right. Intervals are 95 % bootstraps over persons.
public struct LegSourceSummary: Encodable, Sendable {
    public var legs: Int
    public var vehicleLegs: Int
    public var sources: [SourceScore]

    public struct SourceScore: Encodable, Sendable {
        public var source: String
        public var accuracy: Double
        public var vehicleTypeMacroF1: Double
        @NullEncodable public var vehicleTypeMacroF1Interval: GroupBootstrap.Interval?
        public var coarseMacroF1: Double
        /// Share of the vehicle legs answered `vehicle` (right at the coarse level, wrong for the type).
        public var vehicleShare: Double
        /// Share of the legs' labelled time whose mode is right (`vehicle` wrong), with its interval.
        public var timeAgreement: Double
        @NullEncodable public var timeAgreementInterval: GroupBootstrap.Interval?
    }

    public init?(_ outcomes: [String: [WindowOutcome]], bootstrap: GroupBootstrap = GroupBootstrap()) {
        guard let any = outcomes.values.first, !any.isEmpty else { return nil }
        legs = any.count
        vehicleLegs = any.filter { LegModeRule.vehicleTypes.contains($0.truth) }.count
        sources = LegSourceScores.sources.compactMap { source in
            guard let all = outcomes[source] else { return nil }
            let vehicles = all.filter { LegModeRule.vehicleTypes.contains($0.truth) }
            let coarse = all.map { outcome -> WindowOutcome in
                var leg = outcome
                (leg.truth, leg.smoothed) = (TrackintelBaseline.coarse(leg.truth), TrackintelBaseline.coarse(leg.smoothed))
                return leg
            }
            let agreement = bootstrap.agreement(all, \.smoothed) ?? (0, nil)
            return SourceScore(
                source: source, accuracy: ConfusionMatrix(all, \.smoothed).accuracy,
                vehicleTypeMacroF1: ConfusionMatrix(vehicles, \.smoothed).macroF1,
                vehicleTypeMacroF1Interval: vehicles.isEmpty ? nil : bootstrap.intervals(vehicles, \.smoothed).macroF1,
                coarseMacroF1: ConfusionMatrix(coarse, \.smoothed).macroF1,
                vehicleShare: vehicles.isEmpty ? 0 : Double(vehicles.filter { $0.smoothed == .vehicle }.count) / Double(vehicles.count),
                timeAgreement: agreement.share, timeAgreementInterval: agreement.interval)
        }
    }

    public var text: String {
        var lines = [
            "GPS legs by source, as recorded: \(legs) legs with the phone's activity labels, \(vehicleLegs) of them by car, bus or train "
                + "(vehicle type: macro-F1 over car, bus, train, 'vehicle' wrong for the type; coarse: slow vs motorised, 'vehicle' right; "
                + "time agreement: share of the legs' labelled time with the right mode, intervals over persons)"
        ]
        for score in sources {
            lines.append(
                String(
                    format: "  %@ vehicle type %.3f%@  coarse %.3f  accuracy %.3f  time agreement %.3f%@  answered vehicle %.0f%%",
                    score.source.padding(toLength: 16, withPad: " ", startingAt: 0),
                    score.vehicleTypeMacroF1, EvaluationReport.bracket(score.vehicleTypeMacroF1Interval), score.coarseMacroF1,
                    score.accuracy, score.timeAgreement, EvaluationReport.bracket(score.timeAgreementInterval), 100 * score.vehicleShare))
        }
        return lines.joined(separator: "\n")
    }
}
