import Classify
import Features
import Foundation
import Fusion
import Ingest
import MobilityCore

/// `pipeline train`: a mode model trained on labelled traces (and training-only supplements),
/// with a GPS leg model of their labelled legs, saved with where its data came from
/// (`ModeModel.Provenance`, by content and person).
public struct TrainingRun {
    public var paths: [String]
    /// The model file to write.
    public var model: String
    /// Labelled GPS traces that train only the GPS leg model.
    public var legData: [String] = []
    /// Labelled GPS traces that choose the GPS leg model's calibration and type threshold and
    /// never train its weights (`--choose-with`: a data set whose licence forbids training).
    public var chooseWith: [String] = []
    /// Groups of the inner folds that choose the leg model's classifier.
    public var groupBy: GroupedCrossValidation.GroupBy = .person
    public var loader: RecordingLoader
    public var listing: InputListing
    public var window = WindowParameters()
    /// The windows kept (`--modes`).
    public var restrict: (FeatureTable) -> FeatureTable = { $0 }
    public var trainer = ModeTrainer()
    /// Training-only recordings, and their windows cut with the run's parameters.
    public var supplement: Supplement?
    public var legFeatures = LegFeatures()
    /// The command line, for the model's provenance.
    public var command = ""

    public init(paths: [String], model: String, loader: RecordingLoader, listing: InputListing) {
        (self.paths, self.model, self.loader, self.listing) = (paths, model, loader, listing)
    }

    public func run(progress: ProgressReporter) throws {
        var run = FeatureRun(loader: loader, window: window)
        run.legThinningSeconds = LegTrainer.thinningSeconds
        run.legSpeedScales = LegTrainer.speedScales
        run.legFeatures = legFeatures
        var output = try run.run(paths, progress: progress)
        if !legData.isEmpty {
            let legsOnly = try run.run(legData, progress: progress)
            output.legs.append(legsOnly.legs)
            output.report.recordings += legsOnly.report.recordings
            output.report.unknownModes.formUnion(legsOnly.report.unknownModes)
        }
        var choosing = Set<String>()
        if !chooseWith.isEmpty {
            var chooserRun = run
            chooserRun.legSpeedScales = [] // replayed copies only train
            let chooser = try chooserRun.run(chooseWith, progress: progress)
            choosing = Set(chooser.legs.legs.map(\.trace))
            output.legs.append(chooser.legs)
        }
        output.table = restrict(output.table)
        if let supplement { output.table.append(try supplement.trainingTable(loader: loader, window: window, progress: progress)) }
        let labelled = ModeTrainer.labelled(output.table)
        var perClass: [String: Int] = [:]
        for window in labelled.windows { perClass[window.mode!.rawValue, default: 0] += 1 }
        var provenance = ModeModel.Provenance(
            command: command, inputs: paths + legData,
            recordings: output.report.recordings, devices: Array(Set(labelled.windows.map(\.device))).sorted(),
            windowsPerClass: perClass, training: trainer.kind == .softmaxRegression ? trainer.training : nil,
            networkTraining: trainer.kind == .mlp ? trainer.network : nil, toolVersion: ToolVersion.string)
        provenance.supplement = supplement?.description
        var used = DataIdentity.windowsPerTrace(labelled)
        for leg in LegTrainer.labelled(output.legs).legs where used[leg.trace] == nil { used[leg.trace] = 0 }
        let identity = try DataIdentity(paths: paths + (supplement?.paths ?? []) + legData, listing: listing, windows: used)
        provenance.trainingInputs = identity.inputs.values.sorted { $0.path < $1.path }
        provenance.persons = Set(identity.inputs.values.map(\.person)).sorted()
        var trained = try trainer.train(output.table, window: window, provenance: provenance)
        let persons = try DataIdentity.persons(paths: paths + legData + chooseWith, listing: listing)
        let legPaths = paths + legData + chooseWith
        let datasets = legPaths.count < 2 ? [:] : DataIdentity.datasets(of: Set(output.legs.legs.map(\.trace)), paths: legPaths)
        trained.gpsLegs = try Self.legModel(
            output.legs, groupBy: groupBy, persons: persons, datasets: datasets, choosing: choosing, progress: progress)
        try trained.save(path: model)
        progress.log(
            "trained on \(labelled.count) windows of \(output.report.recordings) recordings ("
                + perClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "); wrote \(model)")
        if !output.report.unknownModes.isEmpty {
            progress.log("label names not in the mode table (left out): " + output.report.unknownModes.sorted().joined(separator: ", "))
        }
    }

    /// The GPS leg model of the labelled legs, its classifier chosen on inner folds over people;
    /// nil, said in the log, when the legs are of fewer than two modes of movement.
    static func legModel(
        _ legs: LegTable, groupBy: GroupedCrossValidation.GroupBy, persons: [String: String], datasets: [String: String] = [:],
        choosing: Set<String> = [], progress: ProgressReporter
    ) throws -> GPSLegModel? {
        let labelled = LegTrainer.labelled(legs).filter { !choosing.contains($0.trace) }
        let modes = LegTrainer.modes(labelled)
        guard modes.count >= LegTrainer.minimumModes else {
            progress.log(
                "no GPS leg model: the inputs have labelled GPS legs of \(modes.count) modes of movement "
                    + (modes.isEmpty ? "" : "(\(modes.map { $0.rawValue }.sorted().joined(separator: ", "))) ")
                    + "and it needs two; GPS-only legs will be decided by the speed rules")
            return nil
        }
        let setAside = LegTrainer.setAside(legs)
        if !setAside.isEmpty {
            let minutes = setAside.reduce(0) { $0 + $1.leg.start.seconds(until: $1.leg.end) } / 60
            progress.log(
                "GPS leg model: \(setAside.count) labelled legs (\(String(format: "%.0f", minutes)) min) set aside, their labels impossible "
                    + "for their fixes (they neither train nor choose): "
                    + setAside.map { "\($0.leg.trace) \($0.leg.labelName ?? $0.leg.mode!.rawValue) at \($0.leg.start): \($0.reason)" }
                    .joined(separator: "; "))
        }
        var validation = LegCrossValidation(groupBy: groupBy, datasets: datasets, persons: persons)
        validation.choosing = choosing
        var (model, kind, inner) = try validation.fit(LegTrainer.labelled(legs), choosing: choosing)
        var perDataset: [String: Set<String>] = [:]
        let names = DataIdentity.names(ofDatasets: datasets.values)
        for leg in labelled.legs {
            let dataset = datasets[leg.trace].flatMap { names[$0] } ?? "inputs"
            perDataset[dataset, default: []].insert(persons[leg.trace] ?? leg.device)
        }
        model.personsPerDataset = perDataset.mapValues { $0.sorted() }
        if Set(datasets.values).count >= 2 {
            progress.log("GPS leg model: scoring its recipe on each data set left out, for the model file and the report")
            model.heldOut = try LegHeldOutScores.leavingOneDatasetOut(legs, datasets: datasets, persons: persons, choosing: choosing)
            for set in model.heldOut?.datasets ?? [] { progress.log("GPS leg model held out: " + set.line) }
        }
        let chosen = kind.rawValue + (inner.map { String(format: ", inner-fold macro-F1 %.3f", $0) } ?? "")
        let perClass = model.legsPerClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let thinning = model.thinnedToSeconds.map { String(format: "%g", $0) }.joined(separator: " and ")
        let paces = (model.speedScales ?? []).map { String(format: "%g", $0) }.joined(separator: " and ")
        progress.log(
            "GPS leg model (\(chosen)) trained on \(perClass) legs of \(model.devices.count) devices, also thinned to one fix every \(thinning) s"
                + (paces.isEmpty ? "" : " and replayed at \(paces) times their pace"))
        if let calibration = model.calibration {
            progress.log(
                String(
                    format:
                        "GPS leg model calibration: temperature %.2f, a vehicle type named above %.0f%% of the vehicle types' probability; chosen on %@",
                    calibration.temperature, 100 * calibration.typeThreshold, calibration.chosenOn))
        }
        return model
    }
}
