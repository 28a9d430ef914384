import Classify
import Foundation
import MobilityCore

/// The GPS leg part of `evaluate`: per fix rate (as recorded, and thinned to one fix every
/// 10 s and 60 s), the leg model's scores per leg and trackintel's speed rule on the same
/// legs, over the modes and coarse (slow against motorised), each with its 95 % bootstrap
/// interval over people. `n_windows` in the reports counts legs.
public struct LegEvaluationSummary: Encodable {
    /// What was scored and how.
    public var evaluated: String
    /// Why the leg model was not scored, when it was not (trackintel's rule still is).
    @NullEncodable public var note: String?
    public var people: Int
    /// The days the legs fall on, when the evaluation held out days (one person's data); the
    /// intervals are then over days, not people.
    @NullEncodable public var days: Int?
    /// Every source of a leg's mode on the same legs, when they carry a motion source (`LegSourceSummary`).
    @NullEncodable public var bySource: LegSourceSummary?
    public var rates: [RateScores]
    @NullEncodable public var folds: [FoldSummary]?
    @NullEncodable public var groupBy: String?
    /// Labelled legs whose label the fixes make impossible (`LegTrainer.setAside`): they
    /// neither trained nor were scored.
    public var labelsSetAside: [SetAside] = []

    public struct SetAside: Encodable {
        @NullEncodable public var dataset: String?
        public var device: String
        public var label: String
        public var minutes: Double
        public var reason: String
    }

    public struct RateScores: Encodable {
        /// "as recorded", or "one fix every 60 s".
        public var fixes: String
        @NullEncodable public var thinnedToSeconds: Double?
        public var nLegs: Int
        /// The leg model's scores; nil when there is no leg model.
        @NullEncodable public var model: EvaluationReport?
        public var trackintel: EvaluationReport
        /// Slow (walk, bike) against motorised (car, bus, train, …): the question trackintel's rule answers.
        public var coarse: Coarse
        /// Each data set's legs apart (the leg model against trackintel), when they came from two or more.
        @NullEncodable public var perDataset: [DatasetScore]?
        /// Share of the legs' labelled time with the right mode (a long ride weighs more than a
        /// short walk), with intervals over the same groups; nil for the leg model without one.
        @NullEncodable public var modelTimeAgreement: Double?
        @NullEncodable public var modelTimeAgreementInterval: GroupBootstrap.Interval?
        @NullEncodable public var trackintelTimeAgreement: Double?
        @NullEncodable public var trackintelTimeAgreementInterval: GroupBootstrap.Interval?
        /// The leg model's measures per data set and pooled (`LegMeasures`; intervals only as
        /// recorded); nil without a leg model.
        @NullEncodable public var measures: [LegMeasures]?
        /// Thinned rates only: how often a leg keeps the family and the mode it has as
        /// recorded (`LegKept`, per leg, whatever the truth); nil as recorded and without a leg model.
        @NullEncodable public var keptFromRecorded: [LegKept]?
    }

    public struct Coarse: Encodable {
        @NullEncodable public var modelMacroF1: Double?
        @NullEncodable public var modelMacroF1Interval: GroupBootstrap.Interval?
        public var trackintelMacroF1: Double
        @NullEncodable public var trackintelMacroF1Interval: GroupBootstrap.Interval?
    }

    public struct FoldSummary: Encodable {
        public var testGroups: [String]
        public var legs: Int
        public var kind: String
        @NullEncodable public var innerMacroF1: Double?
        public var unseenModes: [String]
    }

    /// Scores of `outcomes` per thinning interval; `hasModel` false scores trackintel only.
    public init(
        evaluated: String, outcomes: [Double?: [WindowOutcome]], hasModel: Bool, note: String? = nil,
        bootstrap: GroupBootstrap = GroupBootstrap()
    ) {
        self.evaluated = evaluated
        self.note = note
        people = Set(outcomes.values.joined().map { $0.person ?? $0.device }).count
        let days = Set(outcomes.values.joined().compactMap(\.group))
        self.days = days.isEmpty ? nil : days.count
        rates = outcomes.keys.sorted { ($0 ?? 0) < ($1 ?? 0) }.map { seconds in
            let legs = outcomes[seconds]!
            let report = { (legs: [WindowOutcome], path: KeyPath<WindowOutcome, Mode>) in
                EvaluationReport(ConfusionMatrix(legs, path), intervals: bootstrap.intervals(legs, path))
            }
            let coarse = legs.map {
                var leg = $0
                leg.truth = TrackintelBaseline.coarse(leg.truth)
                leg.smoothed = TrackintelBaseline.coarse(leg.smoothed)
                leg.baseline = TrackintelBaseline.coarse(leg.baseline)
                return leg
            }
            let coarseModel = hasModel ? report(coarse, \.smoothed) : nil, coarseBaseline = report(coarse, \.baseline)
            let datasets = DatasetScore.of(legs, hasModel ? \.smoothed : \.baseline, baseline: \.baseline, bootstrap: bootstrap)
            let modelTime = hasModel ? bootstrap.agreement(legs, \.smoothed) : nil, trackintelTime = bootstrap.agreement(legs, \.baseline)
            var measures: [LegMeasures]?
            if hasModel {
                var measuring = bootstrap
                if seconds != nil { measuring.replicates = 0 }
                let sets = Dictionary(grouping: legs.filter { $0.dataset != nil }) { $0.dataset! }
                measures =
                    (sets.count >= 2 ? sets.keys.sorted().map { LegMeasures($0, sets[$0]!, bootstrap: measuring) } : [])
                    + [LegMeasures(sets.count >= 2 ? "all" : "legs", legs, bootstrap: measuring)]
            }
            let kept = hasModel && seconds != nil ? LegKept.of(thinned: legs, recorded: outcomes[Double?.none] ?? []) : []
            return RateScores(
                fixes: seconds.map { String(format: "one fix every %g s", $0) } ?? "as recorded", thinnedToSeconds: seconds,
                nLegs: legs.count, model: hasModel ? report(legs, \.smoothed) : nil, trackintel: report(legs, \.baseline),
                coarse: Coarse(
                    modelMacroF1: coarseModel?.macroF1, modelMacroF1Interval: coarseModel?.macroF1Interval,
                    trackintelMacroF1: coarseBaseline.macroF1, trackintelMacroF1Interval: coarseBaseline.macroF1Interval),
                perDataset: datasets.isEmpty ? nil : datasets, modelTimeAgreement: modelTime?.share,
                modelTimeAgreementInterval: modelTime?.interval, trackintelTimeAgreement: trackintelTime?.share,
                trackintelTimeAgreementInterval: trackintelTime?.interval, measures: measures,
                keptFromRecorded: kept.isEmpty ? nil : kept)
        }
    }

    public init(_ evaluation: LegCrossValidation.Evaluation) {
        self.init(
            evaluated: "GPS leg model, nested grouped \(evaluation.folds.count)-fold cross-validation by \(evaluation.groupBy.rawValue) "
                + "(classifier chosen on inner folds; trained on legs as recorded and thinned)",
            outcomes: evaluation.outcomes, hasModel: true)
        groupBy = evaluation.groupBy.rawValue
        folds = evaluation.folds.map {
            FoldSummary(
                testGroups: $0.testGroups, legs: $0.legs, kind: $0.kind.rawValue, innerMacroF1: $0.innerMacroF1,
                unseenModes: $0.unseenModes.map(\.rawValue))
        }
    }

    public var text: String {
        var sections = ["GPS legs: \(evaluated)"]
        if let note { sections.append(note) }
        if !labelsSetAside.isEmpty {
            sections.append(
                "labels set aside (neither trained nor scored; the fixes make them impossible): "
                    + labelsSetAside.map {
                        "\($0.dataset.map { "\($0) " } ?? "")\($0.device) \($0.label) \(String(format: "%.1f", $0.minutes)) min: \($0.reason)"
                    }.joined(separator: "; "))
        }
        sections.append(
            "legs are labelled intervals of movement (still left out); trackintel: predict_transport_mode simple-coarse "
                + "(average speed < 15 km/h slow → walk, < 100 km/h motorised → car, else fast → train)")
        for rate in rates {
            sections += [
                "",
                "GPS legs, \(rate.fixes): \(rate.nLegs) legs of \(people) persons"
                    + (days.map { " on \($0) days (intervals over days: one person's data says nothing of other people)" } ?? "")
            ]
            let coarse = rate.coarse
            sections.append(
                "slow vs motorised macro-F1: "
                    + (coarse.modelMacroF1.map {
                        String(format: "leg model %.3f%@, ", $0, EvaluationReport.bracket(coarse.modelMacroF1Interval))
                    } ?? "")
                    + String(
                        format: "trackintel %.3f%@", coarse.trackintelMacroF1, EvaluationReport.bracket(coarse.trackintelMacroF1Interval)))
            if let trackintel = rate.trackintelTimeAgreement {
                sections.append(
                    "time agreement (share of the legs' labelled time with the right mode): "
                        + (rate.modelTimeAgreement.map {
                            String(format: "leg model %.3f%@, ", $0, EvaluationReport.bracket(rate.modelTimeAgreementInterval))
                        } ?? "")
                        + String(format: "trackintel %.3f%@", trackintel, EvaluationReport.bracket(rate.trackintelTimeAgreementInterval)))
            }
            if let model = rate.model {
                sections += [
                    "",
                    "leg model (the mode run gives a leg only GPS covers: vehicle where it cannot name the type)",
                    model.text(unit: "legs")
                ]
            }
            if let perDataset = rate.perDataset {
                sections +=
                    [
                        "",
                        "per data set (\(rate.model == nil ? "trackintel" : "leg model"); intervals over that data set's \(days == nil ? "devices" : "persons, or days of one person's data")):"
                    ]
                    + perDataset.map { $0.line(unit: "legs", baseline: "trackintel") }
            }
            if let measures = rate.measures {
                sections +=
                    [
                        "",
                        "measures (time-weighted; the family is on foot, bike or vehicle; `vehicle` is right for the family, wrong for the type"
                            + (rate.thinnedToSeconds == nil ? "; 95 % intervals over persons, or days of one person's data)" : ")") + ":"
                    ] + measures.map(\.text)
            }
            if let kept = rate.keptFromRecorded {
                sections += ["", "the same legs as recorded (per leg, whatever the truth):"] + kept.map(\.text)
            }
            sections += ["", "trackintel's speed rule", rate.trackintel.text(unit: "legs")]
        }
        if let folds {
            sections += ["", "GPS leg folds (grouped by \(groupBy ?? "device")):"]
            for fold in folds {
                sections.append(
                    String(format: "  %5d legs  %@", fold.legs, fold.kind)
                        + (fold.innerMacroF1.map { String(format: " (inner macro-F1 %.3f)", $0) } ?? "")
                        + "  test: " + fold.testGroups.joined(separator: ", ")
                        + (fold.unseenModes.isEmpty
                            ? "" : "  (modes not in its training folds: \(fold.unseenModes.joined(separator: ", ")))"))
            }
        }
        if let bySource { sections += ["", bySource.text] }
        return sections.joined(separator: "\n")
    }
}
