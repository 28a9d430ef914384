import Classify
import Features
import Fusion
import MobilityCore
import TestSupport
import Testing

@Suite struct GPSLegDecisionTests {
    /// The rules' runs of movement become legs; the leg model names each whole run, still
    /// windows stay still, and windows an IMU model decided are left alone.
    @Test func gpsOnlyRunsOfWindowsAreDecidedAsWholeLegs() throws {
        let model = try LegTrainer(kind: .softmaxRegression).train(
            KnownLegs.legs(people: ["ann", "ben", "cat"], thinningSeconds: LegTrainer.thinningSeconds))
        let bus = KnownLegs.fixes(from: KnownLegs.start, seconds: 660, speed: KnownLegs.speed(of: .bus, variant: 0))
        let windows = stride(from: 0.0, to: 900, by: 30).map { t in
            WindowInfo(
                trace: "t.gpx", device: "dan", start: Timestamp(secondsSince1970: KnownLegs.start + t),
                end: Timestamp(secondsSince1970: KnownLegs.start + t + 30))
        }
        let classes = [Mode.still, .walk, .bike, .car]
        let modes: [Mode] = windows.indices.map { $0 < 22 ? .car : .still }
        var prediction = ModePredictor.Prediction(
            classes: classes, probabilities: [Double](repeating: 0.25, count: windows.count * 4), raw: modes,
            modes: modes, sources: windows.indices.map { $0 == 0 ? .model : .rules })
        let legs = GPSLegDecision.apply(model, windows: windows, range: 0..<windows.count, fixes: bus, prediction: &prediction)
        #expect(legs == 1)
        #expect(prediction.modes[0] == .car && prediction.sources[0] == .model, "an IMU model's window is left alone")
        #expect(prediction.modes[1..<22].allSatisfy { $0 == .bus } && prediction.sources[1..<22].allSatisfy { $0 == GPSLegDecision.source })
        #expect(prediction.modes[22...].allSatisfy { $0 == .still } && prediction.sources[22...].allSatisfy { $0 == .rules })
        #expect(prediction.raw == modes, "the unsmoothed window modes are kept")
    }
}
