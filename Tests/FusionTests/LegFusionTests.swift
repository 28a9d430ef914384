import Classify
import Features
import Fusion
import MobilityCore
import TestSupport
import Testing
import Trips

/// A leg's mode from its IMU windows and its GPS leg features together (`LegFusion`), on legs
/// whose truth is known: a car ride whose fixes move like a train's (stops every 2 km at
/// 20-25 m/s, which a city motorway with lights or queues also gives).
@Suite struct LegFusionTests {
    static let model: GPSLegModel = try! LegTrainer(kind: .softmaxRegression)
        .train(KnownLegs.legs(people: ["ann", "ben", "cat"], thinningSeconds: LegTrainer.thinningSeconds))
    static let imuClasses: [Mode] = [.still, .walk, .car, .bus, .train]

    /// A 20-minute leg with train-like fixes, and 30 s IMU windows over it with the given modes in turn.
    static func leg(windows modes: [Mode]) -> (DeviceTrack, Tripleg, [ModeSpan]) {
        let fixes = KnownLegs.fixes(from: KnownLegs.start, seconds: 1200, speed: KnownLegs.speed(of: .train, variant: 0.5))
        let track = DeviceTrack(
            device: "dan",
            points: fixes.map {
                TrackPoint(
                    timeSeconds: $0.time!.secondsSince1970, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees)
            })
        let end = track.points.count - 1
        let spans = stride(from: 0.0, to: 1200, by: 30).enumerated().map { index, t in
            ModeSpan(
                startSeconds: KnownLegs.start + t, endSeconds: KnownLegs.start + t + 30, mode: modes[index % modes.count],
                source: Decider.model)
        }
        let leg = Tripleg(
            device: "dan", firstFix: 0, lastFix: end, startSeconds: track.points[0].timeSeconds,
            endSeconds: track.points[end].timeSeconds, distanceMeters: 20_000, mode: modes[0], modeSource: Decider.model)
        return (track, leg, spans)
    }

    static func decide(windows modes: [Mode]) -> Tripleg {
        let (track, leg, spans) = leg(windows: modes)
        var legs = [leg]
        LegFusion(legModel: model, imuClasses: imuClasses).apply(track, legs: &legs, imuSpans: spans)
        return legs[0]
    }

    /// The IMU windows say the family, not the type (their bus and train were each one TMD
    /// user's, and their car was said of every tram and bus ride of another logger): however
    /// sure they are of car, the leg's fixes name the type.
    @Test func theIMUWindowsSayAVehicleAndTheFixesNameTheType() throws {
        for windows: [Mode] in [[.car], [.car, .car, .car, .bus], [.car, .bus]] {
            let leg = Self.decide(windows: windows)
            let gps = try #require(leg.evidence?.gpsProbabilities)
            #expect(gps.max { $0.value < $1.value }?.key == .train, "the GPS leg model alone says train: \(gps)")
            #expect(leg.mode == .train && leg.modeSource == Decider.imuAndGPSLegModel, "\(windows): \(leg.mode)")
            #expect(leg.evidence?.imuMode == .car && leg.evidence?.imuShare == 1, "each source's answer is kept")
        }
        #expect(Self.decide(windows: [.car]).evidence?.imuModeShare == 1)
        #expect(Self.decide(windows: [.car, .bus]).evidence?.imuModeShare == 0.5)
    }

    /// Windows that say on foot keep the leg on foot (or bike, which the window model never
    /// learnt), whatever type the fixes suggest.
    @Test func windowsOnFootKeepTheLegOffAVehicle() {
        let leg = Self.decide(windows: [.walk])
        #expect((leg.mode == .walk || leg.mode == .bike) && leg.modeSource == Decider.imuAndGPSLegModel, "\(leg.mode)")
    }

    @Test func aVehicleTypeTheIMUModelNeverLearntIsLeftToGPS() {
        let (track, leg, spans) = Self.leg(windows: [.car])
        var legs = [leg]
        LegFusion(legModel: Self.model, imuClasses: [.still, .walk, .bus, .train]).apply(track, legs: &legs, imuSpans: spans)
        #expect(legs[0].mode == .train && legs[0].modeSource == Decider.imuAndGPSLegModel)
    }

    @Test func theTallySaysWhichSourceTheDecisionOverruled() throws {
        let typed = Self.decide(windows: [.car]), onFoot = Self.decide(windows: [.walk])
        let tally = FusionTally([typed, onFoot])
        // The IMU's car was made the leg model's train; the leg model's train was overruled by the
        // IMU's walk, which the fixes may make a bike (a change of the IMU's answer too).
        let imuChanged = onFoot.mode == .walk ? 1 : 2
        #expect(tally.imuLegs == 2 && tally.imuChanged == imuChanged && tally.gpsLegs == 2 && tally.gpsChanged == 1, "\(tally)")
        #expect(abs(tally.gpsChangedSeconds - onFoot.durationSeconds) < 1e-9)
        #expect(
            tally.line?.contains("on \(imuChanged) of the 2 legs they cover") == true && FusionTally([]).line == nil, "\(tally.line ?? "")")
        #expect(tally.movingLegs == 2 && tally.familyOnlyLegs == 0)
    }
}
