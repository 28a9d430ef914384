@testable import Classify
import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// Synthetic windows of three devices: features computed from generated walk, car and still
/// signals, so the classes are separable and the answers known.
enum SyntheticWindows {
    /// With `gravityFree`, each recording holds linear acceleration (the accelerometer minus
    /// gravity, as a phone's fusion gives it) and the gyroscope, no accelerometer.
    static func table(devices: [String], secondsPerMode: Double = 60, gravityFree: Bool = false) -> FeatureTable {
        let extractor = WindowFeatureExtractor()
        var table = FeatureTable()
        for (d, device) in devices.enumerated() {
            for (m, (motion, name)) in [(SyntheticIMU.Motion.walk, "walking"), (.car, "Car"), (.still, "Still")].enumerated() {
                var imu = SyntheticIMU(seed: UInt64(10 * d + m + 1))
                imu.rotation = SyntheticIMU.rotation(axis: (Double(d) + 0.5, 1, -0.3), degrees: 40 * Double(d + m))
                let start = 1_700_000_000 + Double(m) * 1000
                var streams = imu.streams(motion, seconds: secondsPerMode, start: start)
                if gravityFree {
                    let r = imu.rotation, g = (r[2] * 9.81, r[5] * 9.81, r[8] * 9.81)
                    streams[.linearAcceleration] = streams[.accelerometer]!.map {
                        IMUSample(time: $0.time, x: $0.x - g.0, y: $0.y - g.1, z: $0.z - g.2)
                    }
                    streams[.accelerometer] = nil
                }
                let label = LabelInterval(
                    device: device, start: Timestamp(secondsSince1970: start),
                    end: Timestamp(secondsSince1970: start + secondsPerMode), rawName: name, source: "test")
                table.append(extractor.extract(Recording(trace: "\(device)-\(name)", device: device, streams: streams, labels: [label])))
            }
        }
        return table
    }

    static let provenance = ModeModel.Provenance(
        command: "test", inputs: [], recordings: 0, devices: [], windowsPerClass: [:],
        training: .init(), toolVersion: "test")
}

@Suite struct ModelTests {
    @Test func aTrainedModelRecognisesModesOfAnUnseenDevice() throws {
        let model = try ModeTrainer().train(
            SyntheticWindows.table(devices: ["a", "b"]), window: .init(), provenance: SyntheticWindows.provenance)
        #expect(model.classes == [.still, .walk, .car])
        let test = SyntheticWindows.table(devices: ["c"])
        let prediction = ModePredictor(model: model).predict(test)
        let matrix = ConfusionMatrix(truth: test.windows.map { $0.mode! }, predicted: prediction.modes)
        #expect(matrix.macroF1 > 0.95, "macro-F1 \(matrix.macroF1)")
        #expect(prediction.sources.allSatisfy { $0 == .model })
    }

    @Test func aGravityFreeRecordingIsReadByTheGravityFreeClassifier() throws {
        let model = try ModeTrainer().train(
            SyntheticWindows.table(devices: ["a", "b"]), window: .init(), provenance: SyntheticWindows.provenance)
        #expect(model.gravityFree?.network != nil && model.schemaProblem == nil)
        let test = SyntheticWindows.table(devices: ["c"], gravityFree: true)
        #expect(
            test.count > 0
                && test.windows.indices.allSatisfy { test.values[$0 * FeatureTable.columns + FeatureSchema.gravityPresenceColumn].isNaN })
        let prediction = ModePredictor(model: model).predict(test)
        #expect(prediction.sources.allSatisfy { $0 == .modelGravityFree })
        let matrix = ConfusionMatrix(truth: test.windows.map { $0.mode! }, predicted: prediction.modes)
        #expect(matrix.macroF1 > 0.9, "macro-F1 \(matrix.macroF1)")
        var older = model
        older.gravityFree = nil // a model file written before the gravity-free classifier
        #expect(ModePredictor(model: older).predict(test).sources.allSatisfy { $0 == .rules })
        var without = ModeTrainer()
        without.gravityFreeModel = false
        #expect(
            try without.train(
                SyntheticWindows.table(devices: ["a"], secondsPerMode: 20), window: .init(),
                provenance: SyntheticWindows.provenance
            ).gravityFree == nil)
    }

    @Test func trainingIsReproducibleForASeed() throws {
        let table = SyntheticWindows.table(devices: ["a"], secondsPerMode: 30)
        let first = try ModeTrainer().train(table, window: .init(), provenance: SyntheticWindows.provenance)
        let second = try ModeTrainer().train(table, window: .init(), provenance: SyntheticWindows.provenance)
        #expect(first.network == second.network && first.network != nil)
        var other = ModeTrainer()
        other.network.seed = 7
        #expect(try other.train(table, window: .init(), provenance: SyntheticWindows.provenance).network != first.network)
    }

    @Test func trainingNeedsTwoModes() {
        let table = SyntheticWindows.table(devices: ["a"], secondsPerMode: 20).filter { $0.mode == .walk }
        let error = #expect(throws: PipelineError.self) {
            try ModeTrainer().train(table, window: .init(), provenance: SyntheticWindows.provenance)
        }
        #expect(error?.code == .cannotTrain)
    }

    @Test func modelFilesRoundTripAndCarryTheirSchema() throws {
        let folder = try TemporaryFolder()
        let model = try ModeTrainer().train(
            SyntheticWindows.table(devices: ["a"], secondsPerMode: 30), window: .init(), provenance: SyntheticWindows.provenance)
        let path = folder.path + "/model.json"
        try model.save(path: path)
        let loaded = try ModeModel.load(path: path)
        #expect(
            loaded.network == model.network && loaded.kind == .mlp && loaded.classes == model.classes
                && loaded.standardizer == model.standardizer)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for key in [
            "\"format_version\" : 3", "\"kind\" : \"mlp\"", "\"feature_schema_version\"", "\"acc_mag_std_mps2\"", "\"window\"",
            "\"provenance\""
        ] {
            #expect(text.contains(key), "model file lacks \(key)")
        }
        var renamed = model
        renamed.features[3] = "acc_mag_something_else"
        try renamed.save(path: path)
        let error = #expect(throws: PipelineError.self) { try ModeModel.load(path: path) }
        #expect(error?.code == .modelUnreadable && error?.location?.path == path)
        #expect(error?.message.contains("feature schema") == true && error?.message.contains("acc_mag_something_else") == true)
        try "{\"hello\": 1}".write(toFile: path, atomically: true, encoding: .utf8)
        let thrown1 = #expect(throws: PipelineError.self) { try ModeModel.load(path: path) }
        #expect(thrown1?.code == .modelUnreadable)
    }

    @Test func standardizerIgnoresMissingAndAbsentColumns() {
        let values: [Double] = [1, .nan, 3, .nan, 5, .nan]
        let standardizer = Standardizer(fitting: values, rows: 3, columns: 2)
        #expect(standardizer.present == [true, false])
        let transformed = standardizer.transform([.nan, 42, 3, 7])
        #expect(transformed[0] == 0 && transformed[1] == 0 && transformed[3] == 0)
        let logs = [1.0, 3, 5].map(log1p), mean = logs.reduce(0, +) / 3
        let std = (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 3).squareRoot()
        #expect(abs(transformed[2] - (log1p(3) - mean) / std) < 1e-12)
    }

    @Test func separablePointsAreFittedAndProbabilitiesSumToOne() {
        let x: [Double] = [1, 0, 0, 1, -1, -1, 1.2, 0.1, 0.1, 0.9, -0.8, -1.1]
        let y = [0, 1, 2, 0, 1, 2]
        var training = SoftmaxRegression.Training()
        training.steps = 300
        let model = SoftmaxRegression(x: x, y: y, features: 2, classes: 3, training: training)
        let p = model.probabilities(x, rows: 6)
        for row in 0..<6 {
            let best = (0..<3).max { p[row * 3 + $0] < p[row * 3 + $1] }!
            #expect(best == y[row])
            #expect(abs(p[row * 3] + p[row * 3 + 1] + p[row * 3 + 2] - 1) < 1e-12)
        }
    }
}

@Suite struct RuleClassifierTests {
    func row(speed: Double, spread: Double) -> ArraySlice<Double> {
        var values = [Double](repeating: .nan, count: FeatureSchema.names.count)
        values[FeatureSchema.index(of: "gps_speed_p85_mps")!] = speed
        values[FeatureSchema.index(of: "acc_mag_std_mps2")!] = spread
        return values[...]
    }

    @Test func rulesFollowTheirThresholds() {
        let rules = RuleClassifier()
        #expect(rules.mode(row(speed: .nan, spread: .nan)) == nil)
        #expect(rules.mode(row(speed: .nan, spread: 0.02)) == .still)
        #expect(rules.mode(row(speed: .nan, spread: 2)) == .walk)
        #expect(rules.mode(row(speed: .nan, spread: 0.4)) == .car)
        #expect(rules.mode(row(speed: 0.2, spread: .nan)) == .still)
        #expect(rules.mode(row(speed: 1.4, spread: .nan)) == .walk)
        #expect(rules.mode(row(speed: 1.4, spread: 2)) == .walk)
        #expect(rules.mode(row(speed: 5, spread: .nan)) == .bike)
        #expect(rules.mode(row(speed: 5, spread: 0.5)) == .bike)
        #expect(rules.mode(row(speed: 15, spread: 0.5)) == .car)
    }
}

@Suite struct ModeSmootherTests {
    func windows(_ count: Int, trace: String = "t", start: Double = 0) -> [WindowInfo] {
        (0..<count).map { i in
            let begin = Timestamp(secondsSince1970: start + Double(i) * 2.5)
            return WindowInfo(trace: trace, device: "d", start: begin, end: begin.adding(seconds: 5))
        }
    }

    /// Probabilities (2 classes) that favour `modes[i]` with `confidence`.
    func probabilities(_ modes: [Int], confidence: Double = 0.7) -> [Double] {
        modes.flatMap { $0 == 0 ? [confidence, 1 - confidence] : [1 - confidence, confidence] }
    }

    @Test func flickerIsRemovedAndARealSwitchKept() {
        var modes = [Int](repeating: 0, count: 40) + [Int](repeating: 1, count: 40)
        modes[10] = 1; modes[11] = 1; modes[55] = 0
        let smoothed = ModeSmoother().smooth(windows: windows(80), probabilities: probabilities(modes), classes: 2)
        #expect(smoothed == [Int](repeating: 0, count: 40) + [Int](repeating: 1, count: 40))
    }

    @Test func shortSegmentsAreMergedEvenWhenConfident() {
        var modes = [Int](repeating: 0, count: 60)
        for i in 20..<24 { modes[i] = 1 } // 4 windows = 12.5 s, below the 30 s minimum
        let smoother = ModeSmoother(switchPenalty: 0)
        let smoothed = smoother.smooth(windows: windows(60), probabilities: probabilities(modes, confidence: 0.99), classes: 2)
        #expect(smoothed == [Int](repeating: 0, count: 60))
    }

    @Test func aStopOfFifteenSecondsSurvivesSmoothing() {
        // Class 0 is still. A ride (1) with a 17.5 s stop (6 windows: 12.5 s of starts + 5 s) and a 10 s one.
        var modes = [Int](repeating: 1, count: 80)
        for i in 20..<26 { modes[i] = 0 }
        for i in 50..<53 { modes[i] = 0 }
        let smoothed = ModeSmoother().smooth(windows: windows(80), probabilities: probabilities(modes), classes: 2, stillClass: 0)
        #expect(Array(smoothed[20..<26]) == [Int](repeating: 0, count: 6), "the 17.5 s stop is kept")
        #expect(Array(smoothed[50..<53]) == [1, 1, 1], "the 10 s one is flicker")
        #expect(
            ModeSmoother().smooth(windows: windows(80), probabilities: probabilities(modes), classes: 2) == [Int](repeating: 1, count: 80),
            "without a still class nothing is pinned")
    }

    @Test func tracesAndPausesAreSmoothedSeparately() {
        let table = windows(20, trace: "a") + windows(20, trace: "b")
        let modes = [Int](repeating: 0, count: 20) + [Int](repeating: 1, count: 20)
        #expect(ModeSmoother().smooth(windows: table, probabilities: probabilities(modes), classes: 2) == modes)
        let chains = ModeSmoother().chains(windows(10) + windows(10, start: 1000))
        #expect(chains.count == 2)
    }

    /// A device's windows by their spans alone (`TraceWindows`, 16 bytes each) smooth exactly as
    /// the same windows as `WindowInfo`s: over pauses, stops and flicker, with three classes.
    @Test func windowsByTheirSpansAloneSmoothTheSame() {
        var generator = SeededGenerator(seed: 7)
        var infos: [WindowInfo] = [], start = 0.0, probabilities: [Double] = []
        for _ in 0..<3_000 {
            start += generator.nextUnit() < 0.01 ? 120 : 2.5 // now and then a pause that breaks the chain
            let begin = Timestamp(secondsSince1970: start)
            infos.append(WindowInfo(trace: "phone", device: "phone", start: begin, end: begin.adding(seconds: 5)))
            let row = (0..<3).map { _ in generator.nextUnit() }
            probabilities += row.map { $0 / row.reduce(0, +) }
        }
        var spans = TraceWindows(trace: "phone", device: "phone")
        spans.append(contentsOf: Array(infos[..<1_234]))
        spans.append(contentsOf: Array(infos[1_234...]))
        #expect(spans.count == infos.count && spans.start(at: 2_000) == infos[2_000].start && spans.end(at: 17) == infos[17].end)
        let smoother = ModeSmoother()
        let expected = smoother.smooth(windows: infos, probabilities: probabilities, classes: 3, stillClass: 0)
        #expect(Set(expected).count == 3, "the case exercises every class")
        #expect(smoother.smooth(windows: spans, probabilities: probabilities, classes: 3, stillClass: 0) == expected)
        #expect(smoother.chains(spans) == smoother.chains(infos) && smoother.chains(spans).count > 10)
        // Given their length, the windows keep their starts alone and give the same ends; one
        // window of another length makes every end held, before and after it.
        var byLength = TraceWindows(trace: "phone", device: "phone", lengthSeconds: 5)
        byLength.append(contentsOf: infos)
        #expect(infos.indices.allSatisfy { byLength.start(at: $0) == infos[$0].start && byLength.end(at: $0) == infos[$0].end })
        #expect(smoother.smooth(windows: byLength, probabilities: probabilities, classes: 3, stillClass: 0) == expected)
        var odd = infos
        odd[2_500].end = odd[2_500].start.adding(seconds: 7)
        var mixed = TraceWindows(trace: "phone", device: "phone", lengthSeconds: 5)
        mixed.append(contentsOf: Array(odd[..<2_000]))
        mixed.append(contentsOf: Array(odd[2_000...]))
        #expect(odd.indices.allSatisfy { mixed.end(at: $0) == odd[$0].end } && mixed.end(at: 2_500) != infos[2_500].end)
        // The first window of another length, too.
        var first = infos
        first[0].end = first[0].start.adding(seconds: 7)
        var fromTheFirst = TraceWindows(trace: "phone", device: "phone", lengthSeconds: 5)
        fromTheFirst.append(contentsOf: first)
        #expect(first.indices.allSatisfy { fromTheFirst.end(at: $0) == first[$0].end } && fromTheFirst.end(at: 0) != infos[0].end)
    }
}

@Suite struct CrossValidationTests {
    @Test func groupsNeverSpanFolds() {
        let table = SyntheticWindows.table(devices: ["a", "b", "c", "d"], secondsPerMode: 20)
        let validation = GroupedCrossValidation(groupBy: .device, folds: 3)
        let (folds, groups) = validation.assign(table.windows)
        #expect(groups.count == 3 && Set(groups.flatMap { $0 }).count == 4)
        var foldOfDevice: [String: Set<Int>] = [:]
        for (window, fold) in zip(table.windows, folds) { foldOfDevice[window.device, default: []].insert(fold) }
        #expect(foldOfDevice.values.allSatisfy { $0.count == 1 })
        #expect(GroupedCrossValidation(groupBy: .trace, folds: 100).assign(table.windows).groups.count == 12)
    }

    @Test func crossValidationScoresEveryLabelledWindowOnce() throws {
        let table = SyntheticWindows.table(devices: ["a", "b", "c"], secondsPerMode: 40)
        let evaluation = try GroupedCrossValidation(folds: 3).evaluate(table, trainer: ModeTrainer(), window: .init())
        #expect(evaluation.outcomes.count == table.count && Set(evaluation.outcomes.map(\.trace)) == Set(table.windows.map(\.trace)))
        #expect(evaluation.folds.count == 3 && evaluation.folds.allSatisfy { $0.unseenModes.isEmpty && $0.options == "as given" })
        let macroF1 = ConfusionMatrix(evaluation.outcomes, \.smoothed).macroF1
        #expect(macroF1 > 0.9, "macro-F1 \(macroF1)")
    }

    @Test func aSupplementTrainsEveryFoldAndIsNeverScored() throws {
        let table = SyntheticWindows.table(devices: ["a", "b", "c"], secondsPerMode: 40)
        // A fourth phone's car windows, named bike: the same motion, so only training can put bike in a prediction.
        var supplement = SyntheticWindows.table(devices: ["d"], secondsPerMode: 40).filter { $0.mode == .car }
        for index in supplement.windows.indices {
            supplement.windows[index].mode = .bike
            supplement.windows[index].device = "supplement:d"
        }
        let search = OptionSearch(trainers: [ModeTrainer()], switchPenalties: [3, 6], innerFolds: 2)
        let evaluation = try GroupedCrossValidation(folds: 3).evaluate(
            table, trainer: ModeTrainer(), window: .init(), search: search,
            supplement: supplement)
        #expect(evaluation.outcomes.count == table.count && Set(evaluation.outcomes.map(\.device)) == ["a", "b", "c"])
        #expect(evaluation.outcomes.contains { $0.raw == .bike }, "no fold's model learnt the supplement's bike")
        let without = try GroupedCrossValidation(folds: 3).evaluate(table, trainer: ModeTrainer(), window: .init())
        #expect(!without.outcomes.contains { $0.raw == .bike })
    }

    @Test func nestedChoicesIgnoreTheHeldOutPeople() throws {
        // Each outer fold's choice is made on its training people alone: relabelling the
        // held-out person's windows (here: swapping walk and car) must not change any choice.
        let table = SyntheticWindows.table(devices: ["a", "b", "c", "d"], secondsPerMode: 30)
        let search = OptionSearch(
            trainers: [
                ModeTrainer(),
                {
                    var t = ModeTrainer(); t.kind = .softmaxRegression; return t
                }()
            ],
            switchPenalties: [0, 6], innerFolds: 3)
        let validation = GroupedCrossValidation(groupBy: .device, folds: 4)
        let evaluation = try validation.evaluate(table, trainer: ModeTrainer(), window: .init(), search: search)
        #expect(evaluation.nested && evaluation.folds.allSatisfy { $0.options.contains("inner macro-F1") })
        for fold in evaluation.folds {
            var relabelled = table
            for index in relabelled.windows.indices where fold.testGroups.contains(relabelled.windows[index].device) {
                let mode = relabelled.windows[index].mode
                relabelled.windows[index].mode = mode == .walk ? .car : mode == .car ? .walk : mode
            }
            let again = try validation.evaluate(relabelled, trainer: ModeTrainer(), window: .init(), search: search)
            #expect(again.folds.first { $0.testGroups == fold.testGroups }?.options == fold.options)
        }
    }

    @Test func leavingADataSetOutTrainsOnTheOthersAndChoosesOnPeople() throws {
        // Two data sets of two people each: every fold holds out one whole data set, each of its
        // windows is scored once and tagged with its data set, and the inner folds that choose
        // the options split the training data set's people (a data set alone could not be split).
        let table = SyntheticWindows.table(devices: ["a", "b", "c", "d"], secondsPerMode: 30)
        var datasets: [String: String] = [:]
        for window in table.windows { datasets[window.trace] = ["a", "b"].contains(window.device) ? "first" : "second" }
        let validation = GroupedCrossValidation(groupBy: .dataset, folds: 5, datasets: datasets)
        let search = OptionSearch(trainers: [ModeTrainer()], switchPenalties: [3, 6], innerFolds: 3)
        let evaluation = try validation.evaluate(table, trainer: ModeTrainer(), window: .init(), search: search)
        #expect(
            evaluation.folds.map(\.testGroups) == [["first"], ["second"]] || evaluation.folds.map(\.testGroups) == [["second"], ["first"]])
        #expect(evaluation.folds.allSatisfy { $0.options.contains("inner macro-F1") }, "inner folds by person within the other data set")
        #expect(evaluation.outcomes.count == table.count)
        #expect(evaluation.outcomes.allSatisfy { $0.dataset == datasets[$0.trace] })
        #expect(GroupedCrossValidation.GroupBy.dataset.inner == .person && GroupedCrossValidation.GroupBy.day.inner == .day)
    }

    @Test func eachDataSetIsScoredApart() {
        // Data set "good": two people always right; "bad": two people, walk called car. Pooled,
        // the score is between; apart, each is what it is, with the rules beside it.
        var outcomes: [WindowOutcome] = []
        for person in ["p1", "p2"] {
            for (truth, mode) in [(Mode.walk, Mode.walk), (.car, .car)] {
                outcomes.append(
                    WindowOutcome(
                        trace: person + "g", device: person, truth: truth, smoothed: mode, raw: mode,
                        baseline: .car, baselineRaw: .car, source: .model, dataset: "good"))
            }
        }
        for person in ["q1", "q2"] {
            for truth in [Mode.walk, .car] {
                outcomes.append(
                    WindowOutcome(
                        trace: person + "b", device: person, truth: truth, smoothed: .car, raw: .car,
                        baseline: .car, baselineRaw: .car, source: .model, dataset: "bad"))
            }
        }
        let scores = DatasetScore.of(outcomes, \.smoothed, baseline: \.baseline)
        #expect(scores.map(\.dataset) == ["bad", "good"])
        #expect(scores[1].macroF1 == 1 && scores[1].windows == 4 && scores[1].devices == 2 && scores[1].f1 == ["walk": 1, "car": 1])
        #expect(abs(scores[0].macroF1 - (0 + 2.0 / 3) / 2) < 1e-12 && scores[0].accuracy == 0.5)
        #expect(abs(scores[1].baselineMacroF1 - (0 + 2.0 / 3) / 2) < 1e-12)
        #expect(scores[1].macroF1Interval == GroupBootstrap.Interval(lower: 1, upper: 1))
        #expect(scores[0].line.hasPrefix("  bad: 4 windows, 2 devices, accuracy 0.500, macro-F1 0.333"))
        var one = scores[0]
        one.devices = 1
        #expect(one.line.hasPrefix("  bad: 4 windows, 1 device, accuracy"))
        #expect(
            DatasetScore.of(outcomes.filter { $0.dataset == "good" }, \.smoothed, baseline: \.baseline).isEmpty,
            "one data set is the pooled score: nothing apart")
    }

    @Test func theBootstrapResamplesPeople() {
        // Two people: one always right (10 windows), one always wrong (10 windows). A replicate
        // holds both (accuracy 0.5), the right one twice (1) or the wrong one twice (0).
        var outcomes: [WindowOutcome] = []
        for i in 0..<10 {
            outcomes.append(
                WindowOutcome(
                    trace: "r\(i)", device: "right", truth: .walk, smoothed: .walk, raw: .walk,
                    baseline: .walk, baselineRaw: .walk, source: .model))
            outcomes.append(
                WindowOutcome(
                    trace: "w\(i)", device: "wrong", truth: .walk, smoothed: .car, raw: .car,
                    baseline: .car, baselineRaw: .car, source: .model))
        }
        let intervals = GroupBootstrap(replicates: 2000).intervals(outcomes, \.smoothed)
        #expect(intervals.accuracy == GroupBootstrap.Interval(lower: 0, upper: 1))
        #expect(
            GroupBootstrap().intervals(outcomes.filter { $0.device == "right" }, \.smoothed).accuracy == nil,
            "one person gives no interval")
        let scores = RecordingScore.of(outcomes, \.smoothed)
        #expect(scores.count == 20 && scores.filter(\.majorityRight).count == 10)
    }

    @Test func classesAbsentFromTheTruthAreNotScored() {
        let matrix = ConfusionMatrix<Mode>(truth: [.walk, .walk, .car, .car], predicted: [.walk, .bike, .car, .car])
        let report = EvaluationReport(matrix)
        #expect(Set(report.perClass.keys) == ["walk", "car"] && report.predictedOnly == ["bike": 1])
        #expect(!report.text.contains("bike    0.000") && report.text.contains("bike: predicted for 1 windows, true for none"))
        #expect(abs(report.macroF1 - (2.0 / 3 + 1) / 2) < 1e-12)
    }
}
