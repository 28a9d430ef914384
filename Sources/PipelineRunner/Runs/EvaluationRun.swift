import Classify
import Features
import Foundation
import Fusion
import Ingest
import MobilityCore

/// `pipeline evaluate`: a saved model scored on labelled traces, or nested grouped
/// cross-validation of training one, with the GPS legs scored beside the windows; what was
/// scored named by content and person (`ScoredData`, `DataOverlap`).
public struct EvaluationRun {
    public var paths: [String]
    /// A saved model to score; nil cross-validates training one.
    public var model: String?
    public var groupBy: GroupedCrossValidation.GroupBy = .person
    public var folds = 5
    /// The streams the test windows are scored without, as given (`--test-without-streams`).
    public var testWithoutStreams: String?
    /// Score only the GPS legs.
    public var legsOnly = false
    /// Labelled data sets among `paths` whose GPS legs choose the leg model's calibration and
    /// threshold and are scored, never train (`--choose-with`).
    public var chooseWith: [String] = []
    public var loader: RecordingLoader
    public var listing: InputListing
    /// The windows' parameters when no model gives them.
    public var window = WindowParameters()
    /// The windows kept (`--modes`).
    public var restrict: (FeatureTable) -> FeatureTable = { $0 }
    public var trainer = ModeTrainer()
    public var smoother = ModeSmoother()
    public var search: OptionSearch?
    public var seed: UInt64 = SoftmaxRegression.Training().seed
    /// Training-only recordings, and their windows cut with the run's parameters.
    public var supplement: Supplement?
    public var legFeatures = LegFeatures()

    public init(paths: [String], loader: RecordingLoader, listing: InputListing) {
        (self.paths, self.loader, self.listing) = (paths, loader, listing)
    }

    public enum Outcome {
        case legs(LegEvaluationSummary)
        case windows(EvaluationSummary)
    }

    public func run(progress: ProgressReporter) throws -> Outcome {
        let started = Date()
        let saved = try model.map(ModeModel.load)
        for warning in saved?.warnings ?? [] { progress.log("warning: \(model!): \(warning)") }
        let parameters = saved?.window ?? window
        var run = FeatureRun(loader: loader, window: parameters)
        run.legThinningSeconds = LegTrainer.scoredThinningSeconds
        if saved == nil { run.legSpeedScales = LegTrainer.speedScales } // training folds only; never scored
        run.legFeatures = legFeatures
        run.reducedWithout = testWithoutStreams.map { Set($0.split(separator: ",").compactMap { IMUSensor(rawValue: String($0)) }) }
        final class Traces: @unchecked Sendable { var read: [String] = [] } // filled on the loading thread, read after
        let traces = Traces()
        run.onRecording = { recording, _ in traces.read.append(recording.trace) }
        let paths = self.paths + chooseWith.filter { !self.paths.contains($0) }
        var output = try run.run(paths, progress: progress)
        let persons = try DataIdentity.persons(paths: paths, listing: listing)
        let grouping = DataIdentity.grouping(model == nil ? groupBy : nil, persons: persons)
        let datasets =
            paths.count < 2
            ? [:]
            : DataIdentity.datasets(of: Set(output.table.windows.map(\.trace) + output.legs.legs.map(\.trace)), paths: paths)
        let choosing = DataIdentity.traces(Set(output.legs.legs.map(\.trace)), under: chooseWith, paths: paths)
        if legsOnly {
            guard
                let legs = try LegEvaluationSummary.scores(
                    output.legs, saved: saved.flatMap { saved in model.map { (saved, $0) } }, groupBy: groupBy, folds: folds, seed: seed,
                    datasets: datasets, persons: persons, choosing: choosing)
            else {
                throw PipelineError(
                    .noLabelledData,
                    "no labelled GPS legs to evaluate on (labelled intervals of movement with 3 or more fixes; see label files, manifest.csv)"
                )
            }
            return .legs(legs)
        }
        output.table = restrict(output.table)
        let testTable = output.reducedTable.map(restrict)
        let labelled = ModeTrainer.labelled(testTable ?? output.table)
        let form = testWithoutStreams.map { " (test windows without \($0))" } ?? ""
        guard labelled.count > 0 else {
            throw PipelineError(.noLabelledData, "no labelled windows to evaluate on (see --name-pattern, label files, manifest.csv)")
        }
        var summary: EvaluationSummary
        var savedOutcomes: [WindowOutcome] = []
        if let saved, let path = model {
            let outcomes = WindowOutcome.of(labelled, model: saved, smoother: smoother, datasets: datasets, persons: persons)
            savedOutcomes = outcomes
            summary = EvaluationSummary(
                evaluated: "model \(path)" + (saved.usesInertial ? "" : " (a GPS model)") + form + "; intervals over persons: " + grouping,
                outcomes: outcomes,
                unknownModes: output.report.unknownModes, quarantined: output.report.quarantined.count,
                seconds: Date().timeIntervalSince(started))
        } else {
            let validation = GroupedCrossValidation(
                groupBy: groupBy, folds: folds, seed: seed, datasets: datasets, persons: persons)
            // --supplement-modes, not --modes, picks its windows.
            let extra = try supplement?.trainingTable(loader: loader, window: parameters, progress: progress) ?? FeatureTable()
            let evaluation = try validation.evaluate(
                output.table, trainer: trainer, window: parameters, search: search, testTable: testTable, supplement: extra)
            var scored = EvaluationSummary(
                evaluation, form: form, unknownModes: output.report.unknownModes,
                quarantined: output.report.quarantined.count, seconds: Date().timeIntervalSince(started))
            scored.evaluated += "; " + grouping
            if let supplement {
                scored.evaluated += "; every training set also had the \(supplement.description) (never scored)"
            }
            summary = scored
        }
        summary.gpsLegs = try LegEvaluationSummary.scores(
            output.legs, saved: saved.flatMap { saved in model.map { (saved, $0) } }, groupBy: groupBy, folds: folds, seed: seed,
            datasets: datasets, persons: persons, choosing: choosing)
        let scoredLegs = LegTrainer.labelled(output.legs)
        var used = DataIdentity.windowsPerTrace(labelled)
        for leg in scoredLegs.legs where used[leg.trace] == nil { used[leg.trace] = 0 }
        let identity = try DataIdentity(paths: paths, listing: listing, windows: used)
        summary.scoredData = ScoredData(identity.inputs, windows: labelled.count, legs: scoredLegs.count)
        summary.scoredData?.unscored = ScoredData.unscored(
            read: traces.read, scored: Set(used.keys),
            windowsPerTrace: DataIdentity.windowsPerTrace(output.table), notes: output.notes)
        for file in summary.scoredData?.unscored ?? [] { progress.log("evaluate: not scored \(file.trace): \(file.reason)") }
        if let saved { summary.overlap = DataOverlap(model: saved, scored: identity.inputs, outcomes: savedOutcomes) }
        return .windows(summary)
    }
}
