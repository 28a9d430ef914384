import Fusion
import MobilityCore
import Testing
import Trips

/// `LegCorrections` on legs with known answers: more than half covered, by device or person,
/// the larger cover (then the earlier line) winning, jumps left alone.
@Suite struct LegCorrectionsTests {
    func leg(_ start: Double, _ end: Double, _ mode: Mode?, _ source: Decider? = .gpsLegModel) -> Tripleg {
        Tripleg(
            device: "phone", firstFix: 0, lastFix: 1, startSeconds: start, endSeconds: end, distanceMeters: 1000, mode: mode,
            modeSource: source)
    }

    @Test func aLegMoreThanHalfUnderACorrectionTakesItsMode() {
        func correction(_ start: Double, _ end: Double, _ mode: Mode, line: Int, device: String? = "phone", person: String? = nil)
            -> LegCorrections.Correction
        {
            .init(device: device, person: person, startSeconds: start, endSeconds: end, mode: mode, file: "c.csv", line: line)
        }
        var legs = [
            leg(0, 100, .car), leg(100, 200, .walk), leg(200, 300, nil, nil), leg(300, 400, nil, .plausibility), leg(400, 500, .car)
        ]
        let corrections = LegCorrections([
            correction(0, 60, .bus, line: 2), // 60 % of the first leg
            correction(150, 260, .bike, line: 3), // half of the second (not more): left; most of the third
            correction(300, 400, .train, line: 4), // a jump (no mode, decided by speeds) stays a jump
            correction(420, 500, .bus, line: 5), correction(400, 480, .train, line: 6) // equal cover: the earlier line
        ])
        let changed = corrections.apply(device: "phone", person: "ann", legs: &legs)
        #expect(legs.map(\.mode) == [.bus, .walk, .bike, nil, .bus])
        #expect(legs[0].modeSource == .correction && legs[0].modeNote == "c.csv line 2 says bus (inferred: car)")
        #expect(legs[1].modeSource == .gpsLegModel && legs[2].modeSource == .correction && changed == 3)
        // Another device of the same person is corrected by a row naming the person, not by one naming the device.
        var other = [leg(0, 100, .car)]
        #expect(LegCorrections([correction(0, 100, .bus, line: 2)]).apply(device: "tablet", person: "ann", legs: &other) == 0)
        #expect(
            LegCorrections([correction(0, 100, .bus, line: 2, device: nil, person: "ann")]).apply(
                device: "tablet", person: "ann", legs: &other) == 1)
        #expect(other[0].mode == .bus)
    }
}
