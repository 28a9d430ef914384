import Classify
import Features
import MobilityCore

extension LegEvaluationSummary {
    /// The leg model scored on the labelled legs (the saved model's, `saved` with its path, or
    /// nested cross-validation of training one, grouped by `groupBy`), trackintel's rule beside
    /// it; nil when the legs hold no labelled one. What `pipeline evaluate` says of the legs.
    public static func scores(
        _ legs: LegTable, saved: (model: ModeModel, path: String)?, groupBy: GroupedCrossValidation.GroupBy, folds: Int, seed: UInt64,
        datasets: [String: String], persons: [String: String], choosing: Set<String> = []
    ) throws -> LegEvaluationSummary? {
        let labelled = LegTrainer.labelled(legs)
        guard labelled.count > 0 else { return nil }
        var summary = try scoresOfLabelled(
            labelled, saved: saved, groupBy: groupBy, folds: folds, seed: seed, datasets: datasets, persons: persons, choosing: choosing)
        let names = DataIdentity.names(ofDatasets: datasets.values)
        summary.labelsSetAside = LegTrainer.setAside(legs).map { leg, reason in
            SetAside(
                dataset: datasets[leg.trace].flatMap { names[$0] }, device: leg.device,
                label: leg.labelName ?? leg.mode!.rawValue,
                minutes: leg.start.seconds(until: leg.end) / 60, reason: reason)
        }
        return summary
    }

    static func scoresOfLabelled(
        _ labelled: LegTable, saved: (model: ModeModel, path: String)?, groupBy: GroupedCrossValidation.GroupBy, folds: Int, seed: UInt64,
        datasets: [String: String], persons: [String: String], choosing: Set<String>
    ) throws -> LegEvaluationSummary {
        if case let .some((saved, path)) = saved {
            guard let legModel = saved.gpsLegs else {
                return LegEvaluationSummary(
                    evaluated: "trackintel's rule only", outcomes: LegCrossValidation.outcomes(of: nil, labelled, persons: persons),
                    hasModel: false,
                    note: "\(path) has no GPS leg model: its GPS-only windows are decided by the GPS speed rules (still, walk, bike, car)")
            }
            let given = !labelled.values.isEmpty && !labelled.row(0)[labelled.row(0).startIndex + LegFeatures.transitColumns[0]].isNaN
            let note =
                legModel.usesTransitGeofences == given
                ? nil
                : legModel.usesTransitGeofences
                    ? "the leg model was trained with transit geofences and none are given (--geofences): its legs lack the distances of their ends from transit"
                    : "the leg model was trained without transit geofences: --geofences is not used"
            var summary = LegEvaluationSummary(
                evaluated: "GPS leg model of \(path)",
                outcomes: LegCrossValidation.outcomes(
                    of: legModel, labelled, groupBy: groupBy, datasets: datasets, persons: persons,
                    decide: LegModeRule.gpsAloneDecision),
                hasModel: true, note: note)
            summary.bySource = LegSourceSummary(LegSourceScores.outcomes(labelled, model: legModel, persons: persons, datasets: datasets))
            return summary
        }
        let modes = Set(labelled.legs.compactMap(\.mode))
        let groups = Set(labelled.legs.map { LegCrossValidation.group(of: $0, groupBy, datasets: datasets, persons: persons) })
        guard modes.count >= 2, groups.count >= 2 else {
            return LegEvaluationSummary(
                evaluated: "trackintel's rule only",
                outcomes: LegCrossValidation.outcomes(of: nil, labelled, groupBy: groupBy, datasets: datasets, persons: persons),
                hasModel: false,
                note:
                    "no leg model cross-validated: the labelled legs are of \(modes.count) modes and \(groups.count) groups (\(groupBy.rawValue)), and it needs two of each"
            )
        }
        var validation = LegCrossValidation(
            folds: folds, seed: seed, groupBy: groupBy, datasets: datasets, persons: persons, decide: LegModeRule.gpsAloneDecision)
        validation.choosing = choosing
        return LegEvaluationSummary(try validation.evaluate(labelled))
    }
}

extension LegHeldOutScores {
    /// The per-mode scores of the leg model recipe `train` runs, left one data set out: each
    /// data set of `legs` (`datasets`, by trace; two or more) scored by a model trained, chosen
    /// and calibrated without it, as `run` decides a GPS-only leg (`LegModeRule`), its legs as
    /// recorded. Nil with fewer than two data sets, or when no fold could train.
    public static func leavingOneDatasetOut(
        _ legs: LegTable, datasets: [String: String], persons: [String: String], choosing: Set<String>, seed: UInt64 = 42
    ) throws -> LegHeldOutScores? {
        let labelled = LegTrainer.labelled(legs)
        guard Set(labelled.legs.compactMap { datasets[$0.trace] }).count >= 2 else { return nil }
        var validation = LegCrossValidation(
            seed: seed, groupBy: .dataset, datasets: datasets, persons: persons, decide: LegModeRule.gpsAloneDecision)
        validation.choosing = choosing
        guard let outcomes = try validation.evaluate(labelled).outcomes[Double?.none], !outcomes.isEmpty else { return nil }
        return LegHeldOutScores(
            heldOutBy: "each data set scored by a model trained, chosen and calibrated without it (one person's data set by day)",
            outcomes)
    }
}
