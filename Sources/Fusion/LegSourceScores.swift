import Classify
import Features
import MobilityCore

/// Every source of a leg's mode scored on the same labelled legs, so a combination is seen
/// never to score below its parts: the GPS leg model alone (as `run` decides a leg only GPS
/// covers: `LegModeRule.decideGPSAlone`), the phone's own activity labels
/// alone (a motion source: it knows on foot, bike and vehicle, never a type), the two fused by
/// `LegModeRule` (as `run` fuses IMU windows), and two baselines, always `train` and
/// trackintel's speed rule. Only legs the motion source covers are scored, so every source
/// answers the same legs.
public enum LegSourceScores {
    public static let sources = ["gps_leg_model", "activity_labels", "fusion", "always_train", "trackintel"]
    /// What a phone's activity recognition can name (`ModeNames`: IN_VEHICLE is vehicle).
    public static let activityModes: Set<Mode> = [.still, .walk, .bike, .vehicle]

    /// Per source, the outcome of each labelled leg as recorded that carries an activity (`LegInfo.activity`);
    /// empty when none does. `baseline` is trackintel's rule throughout.
    public static func outcomes(
        _ table: LegTable, model: GPSLegModel, rule: LegModeRule = LegModeRule(),
        persons: [String: String] = [:], datasets: [String: String] = [:]
    ) -> [String: [WindowOutcome]] {
        let rows = table.legs.indices.filter {
            table.legs[$0].mode != nil && table.legs[$0].thinnedToSeconds == nil
                && table.legs[$0].speedScale == nil && table.legs[$0].activity != nil
        }
        guard !rows.isEmpty else { return [:] }
        var legs = LegTable()
        for row in rows { legs.append(table.legs[row], features: Array(table.row(row))) }
        let predicted = model.predict(legs), readings = model.readings(legs), trackintel = TrackintelBaseline.predict(legs)
        var outcomes: [String: [WindowOutcome]] = [:]
        for (index, leg) in legs.legs.enumerated() {
            let gps = readings[index]
            let motion = LegModeRule.Motion(
                mode: leg.activity!, share: leg.activityShare, knownModes: activityModes, source: .model,
                name: "the phone's activity labels")
            let fused = rule.decide(motion: motion, gps: gps)?.mode ?? predicted[index]
            let alone = rule.decideGPSAlone(gps)?.mode ?? predicted[index]
            let answers = [
                "gps_leg_model": alone, "activity_labels": leg.activity!, "fusion": fused, "always_train": Mode.train,
                "trackintel": trackintel[index]
            ]
            for (source, answer) in answers {
                var outcome = WindowOutcome(
                    trace: leg.trace, device: leg.device, truth: leg.mode!, predicted: answer, baseline: trackintel[index],
                    source: .gpsLegModel, person: persons[leg.trace], dataset: datasets[leg.trace])
                outcome.seconds = leg.start.seconds(until: leg.end)
                outcomes[source, default: []].append(outcome)
            }
        }
        return outcomes
    }
}
