import ArgumentParser
import Classify
import Features
import Foundation
import Fusion
import MobilityCore
import PipelineRunner

extension GroupedCrossValidation.GroupBy: ExpressibleByArgument {}

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a saved model on labelled traces, or cross-validate training grouped by device or trace.",
        discussion: """
            Without --model: nested grouped k-fold cross-validation. Every window of a device (a person), or of a \
            trace, stays in one fold, so nobody is scored on their own data; each fold's classifier, balance and \
            switch penalty are chosen on inner folds of its training groups alone (--inner-folds 0: as given). \
            Prints accuracy and macro-F1 with 95 % bootstrap intervals over people, per-class precision, recall, F1 \
            (with interval) and support for the classes present in the truth, the confusion matrix, per-recording \
            majority scores and what decided the windows (model or rules), for the model smoothed and unsmoothed \
            and for the rules baseline on the same windows. Inputs with labelled GPS fixes also get a GPS legs section: \
            every labelled interval of movement is a leg, scored as recorded and thinned to one fix every 10 s and 60 s, \
            by the GPS leg model (nested cross-validation by device, or the --model's own) beside trackintel's speed rule \
            (15 and 100 km/h), over the modes and as slow against motorised.
            """
    )

    @Argument(help: "Labelled trace files or folders.")
    var paths: [String]

    @Option(help: "A saved model to score (windows are cut with its own parameters). Default: none (cross-validate training instead).")
    var model: String?

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Cross-validation groups: person, device, trace, day or dataset.",
            discussion:
                "person holds out every recording of a person (a manifest's person column, --name-pattern's (?<person>…) group), so one person's two phones are never split between training and test; where no person is named, each device counts as one, and the output says so. day holds out every window and leg of a date (local solar time from a leg's position, else UTC), of any device: for one person's data, whose devices are never independent. dataset holds out each path given in turn (leave-one-data-set-out: trained on the others, scored on it; options chosen on inner folds by device); it needs two paths or more. With two paths or more, every evaluation also scores each data set apart. Intervals resample persons (days, grouped by day). Default: person."
        ))
    var groupBy: GroupedCrossValidation.GroupBy = .person

    @Option(help: "Cross-validation folds, at most the number of groups (as many as groups: leave-one-group-out).")
    var folds = 5

    @Option(
        name: .customLong("test-without-streams"),
        help: ArgumentHelp(
            "Score the windows as if their recordings lacked these streams, comma-separated (accelerometer, gyroscope, gravity, linear_acceleration).",
            discussion:
                "Training windows keep every stream. accelerometer,gravity scores the gravity-free form a phone's linear acceleration gives (Sensor Logger's Accelerometer.csv). Default: none."
        ))
    var testWithoutStreams: String?

    @Flag(help: "Print one JSON object on standard output.")
    var json = false

    @Flag(
        name: .customLong("legs-only"),
        help: ArgumentHelp(
            "Score only the GPS legs (the leg model beside trackintel's rule), not the windows. Default: off.",
            discussion:
                "For GPS-only data sets, where the windows' nested cross-validation would take most of the time and say less than the legs."
        ))
    var legsOnly = false

    @OptionGroup var input: InputOptions
    @OptionGroup var window: WindowOptions
    @OptionGroup var training: TrainingOptions
    @OptionGroup var search: SearchOptions
    @OptionGroup var supplement: SupplementOptions
    @OptionGroup var legContext: LegContextOptions

    func validate() throws {
        if model != nil && !supplement.paths.isEmpty {
            throw ValidationError("--supplement only trains, and with --model nothing is trained: drop one of them")
        }
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2") }
        if groupBy == .dataset && paths.count < 2 {
            throw ValidationError(
                "--group-by dataset holds out each path given in turn: give two data sets or more (got \(paths.count) path)")
        }
        if groupBy == .dataset && model != nil {
            throw ValidationError(
                "--group-by chooses cross-validation folds, and with --model nothing is trained: drop one of them (each path is still scored apart)"
            )
        }
        if let testWithoutStreams {
            let unknown = testWithoutStreams.split(separator: ",").map(String.init).filter { IMUSensor(rawValue: $0) == nil }
            guard unknown.isEmpty else {
                throw ValidationError(
                    "--test-without-streams: unknown stream \(unknown.joined(separator: ", ")); streams are "
                        + IMUSensor.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
    }

    func run() throws {
        let progress = ProgressReporter()
        try runStage(json: json, progress: progress) { try evaluate(progress: progress) } // a failure is a JSON object too
    }

    private func evaluate(progress: ProgressReporter) throws {
        let started = Date()
        let saved: ModeModel?
        do { saved = try model.map(ModeModel.load) } catch let error as PipelineError where error.code == .modelUnreadable {
            try fail(error, json: json, progress: progress)
        }
        let parameters = saved?.window ?? window.parameters
        var run = FeatureRun(loader: try input.loader, window: parameters)
        run.legThinningSeconds = LegTrainer.thinningSeconds
        if saved == nil { run.legSpeedScales = LegTrainer.speedScales } // training folds only; never scored
        run.legFeatures = try legContext.legFeatures(progress: progress)
        run.reducedWithout = testWithoutStreams.map { Set($0.split(separator: ",").compactMap { IMUSensor(rawValue: String($0)) }) }
        final class Traces: @unchecked Sendable { var read: [String] = [] } // filled on the loading thread, read after
        let traces = Traces()
        run.onRecording = { recording, _ in traces.read.append(recording.trace) }
        var output = try run.run(paths, progress: progress)
        let persons = try DataIdentity.persons(paths: paths, listing: try input.listing)
        let grouping = DataIdentity.grouping(model == nil ? groupBy : nil, persons: persons)
        let datasets =
            paths.count < 2
            ? [:]
            : DataIdentity.datasets(of: Set(output.table.windows.map(\.trace) + output.legs.legs.map(\.trace)), paths: paths)
        if legsOnly {
            guard let legs = try legScores(output.legs, saved: saved, datasets: datasets, persons: persons) else {
                try fail(
                    PipelineError(
                        .noLabelledData,
                        "no labelled GPS legs to evaluate on (labelled intervals of movement with 3 or more fixes; see label files, manifest.csv)"
                    ), json: json, progress: progress)
            }
            print(json ? try JSONText.string(legs, keys: .snakeCase, layout: .pretty) : legs.text)
            return
        }
        output.table = training.restrict(output.table)
        let testTable = output.reducedTable.map(training.restrict)
        let labelled = ModeTrainer.labelled(testTable ?? output.table)
        let form = testWithoutStreams.map { " (test windows without \($0))" } ?? ""
        guard labelled.count > 0 else {
            try fail(
                PipelineError(.noLabelledData, "no labelled windows to evaluate on (see --name-pattern, label files, manifest.csv)"),
                json: json, progress: progress)
        }
        var summary: EvaluationSummary
        var savedOutcomes: [WindowOutcome] = []
        if let saved, let path = model {
            var predictor = ModePredictor(model: saved)
            predictor.smoother = training.smoothing.smoother // smoothing is an option of the run, not frozen in the model
            var outcomes = WindowOutcome.of(
                labelled, prediction: predictor.predict(labelled),
                rules: ModePredictor(model: nil).predict(labelled))
            for index in outcomes.indices {
                (outcomes[index].dataset, outcomes[index].person) = (datasets[outcomes[index].trace], persons[outcomes[index].trace])
            }
            savedOutcomes = outcomes
            summary = EvaluationSummary(
                evaluated: "model \(path)" + (saved.usesInertial ? "" : " (a GPS model)") + form + "; intervals over persons: " + grouping,
                outcomes: outcomes,
                unknownModes: output.report.unknownModes, quarantined: output.report.quarantined.count,
                seconds: Date().timeIntervalSince(started))
        } else {
            let validation = GroupedCrossValidation(
                groupBy: groupBy, folds: folds, seed: training.seed, datasets: datasets, persons: persons)
            // --supplement-modes, not --modes, picks its windows.
            let extra = try supplement.table(loader: try input.loader, window: parameters, progress: progress)
            do {
                let evaluation = try validation.evaluate(
                    output.table, trainer: training.trainer, window: parameters, search: search.search(around: training.trainer),
                    testTable: testTable, supplement: extra)
                var scored = EvaluationSummary(
                    evaluation, form: form, unknownModes: output.report.unknownModes,
                    quarantined: output.report.quarantined.count, seconds: Date().timeIntervalSince(started))
                scored.evaluated += "; " + grouping
                if let supplement = supplement.supplement {
                    scored.evaluated += "; every training set also had the \(supplement.description) (never scored)"
                }
                summary = scored
            } catch let error as PipelineError where error.code == .cannotTrain {
                try fail(error, json: json, progress: progress)
            }
        }
        summary.gpsLegs = try legScores(output.legs, saved: saved, datasets: datasets, persons: persons)
        let scoredLegs = LegTrainer.labelled(output.legs)
        var used = DataIdentity.windowsPerTrace(labelled)
        for leg in scoredLegs.legs where used[leg.trace] == nil { used[leg.trace] = 0 }
        let identity = try DataIdentity(paths: paths, listing: try input.listing, windows: used)
        summary.scoredData = ScoredData(identity.inputs, windows: labelled.count, legs: scoredLegs.count)
        summary.scoredData?.unscored = ScoredData.unscored(
            read: traces.read, scored: Set(used.keys),
            windowsPerTrace: DataIdentity.windowsPerTrace(output.table), notes: output.notes)
        for file in summary.scoredData?.unscored ?? [] { progress.log("evaluate: not scored \(file.trace): \(file.reason)") }
        if let saved { summary.overlap = DataOverlap(model: saved, scored: identity.inputs, outcomes: savedOutcomes) }
        print(json ? try summary.json() : summary.text)
    }

    /// The leg model scored on the labelled legs (the saved model's, or nested cross-validation
    /// of training one), trackintel's rule beside it; nil when the inputs have no labelled leg.
    func legScores(_ legs: LegTable, saved: ModeModel?, datasets: [String: String], persons: [String: String]) throws
        -> LegEvaluationSummary?
    {
        let labelled = LegTrainer.labelled(legs)
        guard labelled.count > 0 else { return nil }
        if let saved, let path = model {
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
                    decide: Self.gpsAloneDecision),
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
        return LegEvaluationSummary(
            try LegCrossValidation(
                folds: folds, seed: training.seed, groupBy: groupBy, datasets: datasets, persons: persons,
                decide: Self.gpsAloneDecision
            ).evaluate(labelled))
    }

    /// The mode `run` gives a leg only GPS covers (`LegModeRule.decideGPSAlone`), so what is
    /// scored is what runs. (A leg model has two classes or more, so there is always a decision.)
    static let gpsAloneDecision: LegCrossValidation.LegDecision = { LegModeRule().decideGPSAlone($0)?.mode ?? .vehicle }
}
