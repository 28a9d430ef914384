import Classify
import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// The GPS leg model's calibration (`LegCalibration`), its measures (`LegMeasures`) and the
/// folds its choices are made on, on cases worked by hand.
@Suite struct LegCalibrationTests {
    /// A model that says 0.9 for its best mode and is right 60 % of the time is overconfident:
    /// the fitted temperature softens it (above 1), and the calibrated top probability comes
    /// near 0.6.
    @Test func theTemperatureSoftensAnOverconfidentModel() {
        let classes: [Mode] = [.car, .bus, .train]
        var examples: [LegCalibration.Example] = []
        for index in 0..<100 {
            examples.append(.init(probabilities: [0.05, 0.05, 0.9], truth: index < 60 ? .train : .bus, seconds: 600))
        }
        let (temperature, _) = LegCalibration.fit(examples, classes: classes)
        #expect(temperature > 1.5, "\(temperature)")
        let top = LegCalibration.scaled([0.05, 0.05, 0.9], classes: 3, temperature: temperature)[2]
        #expect(abs(top - 0.6) < 0.05, "calibrated top probability \(top)")
        #expect(LegCalibration.scaled([0.2, 0.8], classes: 2, temperature: 1) == [0.2, 0.8], "1 leaves them")
    }

    /// A type right a third of the time is worth less than its family (`familyValue` 0.5): the
    /// chosen threshold withholds it; right nine times in ten, it is named.
    @Test func theThresholdWithholdsATypeThatIsRightLessThanHalfTheTime() {
        let classes: [Mode] = [.car, .bus, .train]
        // The threshold applies to calibrated probabilities, as `LegModeRule` reads them.
        func decided(_ probabilities: [Double], _ fit: (temperature: Double, threshold: Double)) -> Mode? {
            let calibrated = LegCalibration.scaled(probabilities, classes: classes.count, temperature: fit.temperature)
            return LegTypeChoice.decide(Dictionary(uniqueKeysWithValues: zip(classes, calibrated)), threshold: fit.threshold)
        }
        let weak = (0..<90).map { LegCalibration.Example(probabilities: [0.1, 0.1, 0.8], truth: classes[$0 % 3], seconds: 600) }
        let weakFit = LegCalibration.fit(weak, classes: classes)
        #expect(weakFit.temperature > 1 && decided([0.1, 0.1, 0.8], weakFit) == .vehicle, "\(weakFit)")
        let sure = (0..<90).map {
            LegCalibration.Example(probabilities: [0.05, 0.05, 0.9], truth: $0 % 10 == 0 ? .car : .train, seconds: 600)
        }
        let sureFit = LegCalibration.fit(sure, classes: classes)
        #expect(decided([0.05, 0.05, 0.9], sureFit) == .train, "\(sureFit)")
    }

    /// ECE by hand: half the time at confidence 0.9 and always right (gap 0.1), half at 0.55 and
    /// right half the time (gap 0.05): 0.5 × 0.1 + 0.5 × 0.05 = 0.075.
    @Test func theExpectedCalibrationErrorIsTimeWeighted() throws {
        func leg(_ confidence: Double, right: Bool, seconds: Double) -> WindowOutcome {
            var outcome = WindowOutcome(
                trace: "t", device: "d", truth: .train, predicted: right ? .train : .bus, baseline: .car, source: .gpsLegModel)
            (outcome.confidence, outcome.seconds) = (confidence, seconds)
            return outcome
        }
        let outcomes = [leg(0.9, right: true, seconds: 500), leg(0.55, right: true, seconds: 250), leg(0.55, right: false, seconds: 250)]
        let measures = LegMeasures("known", outcomes, bootstrap: GroupBootstrap(replicates: 0))
        #expect(abs(try #require(measures.calibrationError).value - 0.075) < 1e-9)
        #expect(abs(measures.timeRight.value - 0.75) < 1e-9 && measures.familyRight.value == 1)
        #expect(measures.vehicleAnswered?.value == 0)
    }

    /// One person's two phones are one group whatever the grouping: never in two folds.
    @Test func onePersonsTwoPhonesAreNeverInTwoFolds() throws {
        var table = KnownLegs.legs(people: ["ann", "ben", "cat", "dan"], thinningSeconds: [])
        // ann carried two phones: her legs' traces are split between devices ann-a and ann-b.
        var persons: [String: String] = [:]
        for index in table.legs.indices where table.legs[index].device == "ann" {
            let phone = index % 2 == 0 ? "ann-a" : "ann-b"
            table.legs[index].device = phone
            table.legs[index].trace = phone + ".csv"
            persons[phone + ".csv"] = "ann"
        }
        let validation = LegCrossValidation(
            folds: 4, groupBy: .person, persons: persons, decide: { $0.probabilities.max { $0.value < $1.value }!.key })
        let evaluation = try validation.evaluate(table)
        let annFolds = evaluation.folds.filter { $0.testGroups.contains("ann") }
        #expect(annFolds.count == 1 && !evaluation.folds.contains { $0.testGroups.contains("ann-a") || $0.testGroups.contains("ann-b") })
    }

    /// A trained model is calibrated, knows its training range, and reads a steady 3.4 m/s
    /// half-hour track as a steady pace (so no vehicle: `LegModeRule`), and a leg at 90 m/s
    /// as outside what it learnt from.
    @Test func aTrainedModelKnowsItsRangeAndASteadyRun() throws {
        let table = KnownLegs.legs(people: ["ann", "ben", "cat"], thinningSeconds: LegTrainer.thinningSeconds)
        let (model, _, _) = try LegCrossValidation(groupBy: .person).fit(table)
        let calibration = try #require(model.calibration)
        #expect(calibration.temperature > 0 && LegCalibration.thresholds.contains(calibration.typeThreshold))
        var legs = LegTable()
        legs.add(KnownLegs.fixes(from: KnownLegs.start, seconds: 1800, speed: { _ in 3.4 })[...], trace: "run", device: "run")
        legs.add(
            KnownLegs.fixes(from: KnownLegs.start, seconds: 1800, speed: { $0.truncatingRemainder(dividingBy: 120) < 60 ? 90 : 0 })[...],
            trace: "far", device: "far")
        let readings = model.readings(legs)
        #expect(readings[0].pace.isSteady && readings[0].outside.count < LegCalibration.outOfRangeFeatures, "\(readings[0])")
        #expect(readings[1].outside.count >= LegCalibration.outOfRangeFeatures, "\(readings[1].outside)")
    }
    /// A file from before calibration (version 2, no `calibration`) still loads: its leg model
    /// reads legs uncalibrated, names a type only above one half, and the model says so in a
    /// warning. A version 3 file keeps its calibration through a save and a load.
    @Test func aModelFileWithoutCalibrationLoadsUncalibratedWithAWarning() throws {
        let folder = try TemporaryFolder()
        let table = KnownLegs.legs(people: ["ann", "ben", "cat"], thinningSeconds: [])
        let (legModel, _, _) = try LegCrossValidation(groupBy: .person).fit(table)
        var model = try ModeTrainer().train(
            SyntheticWindows.table(devices: ["a"], secondsPerMode: 30), window: .init(), provenance: SyntheticWindows.provenance)
        model.gpsLegs = legModel
        let path = folder.file("model.json")
        try model.save(path: path)
        let calibrated = try ModeModel.load(path: path)
        let kept = try #require(calibrated.gpsLegs?.calibration), original = try #require(legModel.calibration)
        #expect(kept.temperature == original.temperature && kept.typeThreshold == original.typeThreshold)
        #expect(calibrated.warnings.isEmpty && calibrated.formatVersion == ModeModel.currentVersion)

        model.gpsLegs?.calibration = nil
        try model.save(path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"format_version\" : 3", with: "\"format_version\" : 2").write(
            toFile: path, atomically: true, encoding: .utf8)
        let old = try ModeModel.load(path: path)
        #expect(old.formatVersion == 2 && old.gpsLegs?.calibration == nil)
        #expect(old.warnings.count == 1 && old.warnings[0].contains("no calibration"), "\(old.warnings)")
        let reading = try #require(old.gpsLegs?.readings(table).first)
        #expect(reading.typeThreshold == LegReading.uncalibratedThreshold && reading.outside.isEmpty)
    }
}
