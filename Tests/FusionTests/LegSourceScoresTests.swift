import Classify
import Features
import Fusion
import MobilityCore
import TestSupport
import Testing

/// Each source of a leg's mode on the same legs (`LegSourceScores`), on legs of known truth
/// whose phone said what it recognised.
@Suite struct LegSourceScoresTests {
    static let model: GPSLegModel = try! LegTrainer(kind: .softmaxRegression)
        .train(KnownLegs.legs(people: ["ann", "ben", "cat"], thinningSeconds: LegTrainer.thinningSeconds))

    /// A bus crawling at a cyclist's 5 m/s (the phone says IN_VEHICLE), then a walk (WALKING).
    static func recording() -> Recording {
        var recording = Recording(trace: "dan.csv", device: "dan")
        let start = KnownLegs.start
        recording.fixes =
            KnownLegs.fixes(from: start, seconds: 900, speed: { _ in 5 })
            + KnownLegs.fixes(from: start + 1200, seconds: 600, speed: { _ in 1.4 })
        recording.labels = [
            LabelInterval(
                device: "dan", start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: start + 900),
                rawName: "bus", source: "labels_file"),
            LabelInterval(
                device: "dan", start: Timestamp(secondsSince1970: start + 1200),
                end: Timestamp(secondsSince1970: start + 1800), rawName: "walk", source: "labels_file")
        ]
        recording.activities = [
            LabelInterval(
                device: "dan", start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: start + 890),
                rawName: "IN_VEHICLE", source: "activity_recognition"),
            LabelInterval(
                device: "dan", start: Timestamp(secondsSince1970: start + 1200),
                end: Timestamp(secondsSince1970: start + 1790), rawName: "WALKING", source: "activity_recognition")
        ]
        return recording
    }

    @Test func theActivityLabelsKeepTheGPSLegModelsTypeInTheRightFamily() throws {
        let legs = LabelledLegs.of(Self.recording())
        #expect(legs.legs.map(\.activity) == [.vehicle, .walk] && legs.legs.allSatisfy { $0.activityShare == 1 })
        let outcomes = LegSourceScores.outcomes(legs, model: Self.model, persons: ["dan.csv": "dan"])
        #expect(Set(outcomes.keys) == Set(LegSourceScores.sources))
        let gps = try #require(outcomes["gps_leg_model"]), fused = try #require(outcomes["fusion"])
        #expect(gps[0].smoothed == .bike, "the leg model alone reads a crawling bus as a bike: \(gps[0].smoothed)")
        #expect(LegModeRule.vehicleTypes.union([.vehicle]).contains(fused[0].smoothed), "the phone said vehicle: \(fused[0].smoothed)")
        #expect(fused[1].smoothed == .walk && outcomes["activity_labels"]?.map(\.smoothed) == [.vehicle, .walk])
        #expect(outcomes["always_train"]?.allSatisfy { $0.smoothed == .train } == true && fused.allSatisfy { $0.person == "dan" })
    }

    @Test func legsWithoutAMotionSourceAreNotScoredBySource() {
        var recording = Self.recording()
        recording.activities = []
        #expect(LegSourceScores.outcomes(LabelledLegs.of(recording), model: Self.model).isEmpty)
    }

    /// `evaluate` scores the mode `run` gives a leg only GPS covers, and keeps the leg model's
    /// most probable mode beside it (`raw`).
    @Test func evaluateScoresTheGPSOnlyDecisionRunMakes() throws {
        let legs = LegTrainer.labelled(KnownLegs.legs(people: ["dan", "eve"], thinningSeconds: []))
        let rule = LegModeRule()
        let decided = try #require(LegCrossValidation.outcomes(of: Self.model, legs, decide: { rule.decideGPSAlone($0)!.mode })[nil])
        let plain = try #require(LegCrossValidation.outcomes(of: Self.model, legs)[nil])
        let readings = Self.model.readings(legs), argmax = Self.model.predict(legs)
        #expect(decided.count == legs.count && plain.count == legs.count)
        for index in decided.indices {
            #expect(decided[index].smoothed == rule.decideGPSAlone(readings[index])?.mode && decided[index].raw == argmax[index])
            #expect(plain[index].smoothed == argmax[index])
        }
    }
}
