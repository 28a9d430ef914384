import Features
import Foundation
import MobilityCore
import Testing

/// Leg features on tracks with known answers, at 1 Hz and thinned to one fix a minute.
@Suite struct LegFeaturesTests {
    static let start = 1_700_000_000.0
    static let metresPerDegreeLatitude = 6_371_008.8 * Double.pi / 180

    /// A fix every `everySeconds` along a straight line north, at the speed `speed(t)` gives.
    func track(
        seconds: Double, everySeconds: Double = 1, noiseMeters: Double = 0, seed: UInt64 = 1,
        speed: (Double) -> Double
    ) -> [PositionFix] {
        var generator = SeededGenerator(seed: seed), north = 0.0, fixes: [PositionFix] = []
        for t in stride(from: 0.0, through: seconds, by: everySeconds) {
            if t > 0 { north += speed(t - everySeconds) * everySeconds }
            let noisy = north + noiseMeters * generator.gaussian(), east = noiseMeters * generator.gaussian()
            fixes.append(
                PositionFix(
                    time: Timestamp(secondsSince1970: Self.start + t), latitudeDegrees: 46 + noisy / Self.metresPerDegreeLatitude,
                    longitudeDegrees: 7 + east / (Self.metresPerDegreeLatitude * cos(46 * Double.pi / 180))))
        }
        return fixes
    }

    func features(_ fixes: [PositionFix]) -> [String: Double] {
        let values = LegFeatures().compute(fixes[...])!
        return Dictionary(uniqueKeysWithValues: zip(LegFeatures.names, values))
    }

    @Test func aSteadyRideReadsTheSameAtOneHertzAndOneFixAMinute() {
        let fixes = track(seconds: 600) { _ in 5 }
        for sample in [fixes, LabelledLegs.thinned(fixes, everySeconds: 60)] {
            let f = features(sample)
            #expect(abs(f["leg_speed_mps"]! - 5) < 0.02, "\(f)")
            #expect(abs(f["leg_speed_p50_mps"]! - 5) < 0.02 && abs(f["leg_speed_p95_mps"]! - 5) < 0.02, "\(f)")
            #expect(abs(f["leg_distance_km"]! - 3) < 0.01 && abs(f["leg_duration_min"]! - 10) < 1e-9, "\(f)")
            #expect(f["leg_slow_share"] == 0 && f["leg_stops_per_km"] == 0 && f["leg_turn_deg_per_km"]! < 0.01)
            #expect(abs(f["leg_straightness"]! - 1) < 1e-6 && f["leg_accel_p85_mps2"]! < 1e-3, "\(f)")
        }
        #expect(LabelledLegs.thinned(fixes, everySeconds: 60).count == 11)
    }

    /// 60 s at 10 m/s then 60 s stopped, five times: half the time slow, five stops in 3 km.
    @Test func stopAndGoCountsItsStopsPerKilometre() {
        let fixes = track(seconds: 600) { t in t.truncatingRemainder(dividingBy: 120) < 60 ? 10 : 0 }
        let f = features(fixes)
        #expect(abs(f["leg_distance_km"]! - 3) < 0.01, "\(f)")
        #expect(abs(f["leg_slow_share"]! - 0.5) < 0.01, "\(f)")
        #expect(abs(f["leg_stops_per_km"]! - 5.0 / 3) < 0.01, "\(f)")
        #expect(abs(f["leg_speed_mps"]! - 5) < 0.02 && abs(f["leg_speed_p85_mps"]! - 10) < 0.05, "\(f)")
    }

    /// A receiver standing still with 2 m of noise a fix: over 30 s chords the jitter is ~0.1
    /// m/s, below the 0.6 m/s a slow walker exceeds (over 1 s steps it reads as 2-4 m/s).
    @Test func aStandingReceiversJitterDoesNotReadAsMovement() {
        let fixes = track(seconds: 600, noiseMeters: 2, seed: 9) { _ in 0 }
        let f = features(fixes)
        #expect(f["leg_speed_p85_mps"]! < 0.3 && f["leg_slow_share"]! > 0.9, "\(f)")
        #expect(f["leg_speed_mps"]! > 2, "trackintel's whole-path speed sums the jitter: \(f)")
    }

    /// A station 50 m east of the start: the ends' distances, nearer first; without transit
    /// geofences the two columns are missing.
    @Test func transitGeofencesGiveTheDistancesOfTheEnds() {
        let fixes = track(seconds: 600) { _ in 5 }
        let plain = features(fixes)
        #expect(plain["leg_transit_end_near_m"]!.isNaN && plain["leg_transit_end_far_m"]!.isNaN)
        var withStation = LegFeatures()
        let station = PositionFix(
            time: nil, latitudeDegrees: 46, longitudeDegrees: 7 + 50 / (Self.metresPerDegreeLatitude * cos(46 * Double.pi / 180)))
        withStation.transitDistanceMeters = { latitude, longitude in
            Geodesy.distanceMeters(station, PositionFix(time: nil, latitudeDegrees: latitude, longitudeDegrees: longitude))
        }
        let values = Dictionary(uniqueKeysWithValues: zip(LegFeatures.names, withStation.compute(fixes[...])!))
        #expect(abs(values["leg_transit_end_near_m"]! - 50) < 0.1, "\(values)")
        #expect(abs(values["leg_transit_end_far_m"]! - (3000 * 3000 + 50 * 50).squareRoot()) < 3, "\(values)")
        #expect(values["leg_speed_mps"] == plain["leg_speed_mps"])
    }

    @Test func tooFewFixesOrTooShortATimeMakeNoLeg() {
        let fixes = track(seconds: 40) { _ in 1.4 }
        #expect(LegFeatures().compute(fixes[...]) == nil, "40 s make one 30 s chord and a short end")
        #expect(LegFeatures().compute(track(seconds: 120, everySeconds: 60) { _ in 1.4 }[...]) != nil, "three fixes a minute apart")
        #expect(LegFeatures().compute(fixes.prefix(1)) == nil)
    }

    @Test func labelledLegsAreTheMovingLabelsAsRecordedAndThinned() {
        let fixes = track(seconds: 1200) { t in t < 600 ? 1.4 : 0 }
        let labels = [
            LabelInterval(
                device: nil, start: Timestamp(secondsSince1970: Self.start), end: Timestamp(secondsSince1970: Self.start + 600),
                rawName: "walk", source: "labels_file"),
            LabelInterval(
                device: nil, start: Timestamp(secondsSince1970: Self.start + 600), end: Timestamp(secondsSince1970: Self.start + 1200),
                rawName: "still", source: "labels_file"),
            LabelInterval(
                device: nil, start: Timestamp(secondsSince1970: Self.start + 600), end: Timestamp(secondsSince1970: Self.start + 1200),
                rawName: "hovercraft", source: "labels_file")
        ]
        let recording = Recording(trace: "t.gpx", device: "ann", fixes: fixes, labels: labels)
        let legs = LabelledLegs.of(recording)
        #expect(legs.count == 1 && legs.legs[0].mode == .walk && legs.legs[0].fixes == 601 && legs.legs[0].thinnedToSeconds == nil)
        #expect(legs.legs[0].device == "ann" && legs.legs[0].fixIntervalSeconds == 1)
        let thinned = LabelledLegs.of(recording, everySeconds: 60)
        #expect(thinned.count == 1 && thinned.legs[0].fixes == 11 && thinned.legs[0].thinnedToSeconds == 60)
        #expect(abs(thinned.row(0).first! - 1.4) < 0.01)
    }
}
