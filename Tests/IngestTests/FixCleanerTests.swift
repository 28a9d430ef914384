import Ingest
import MobilityCore
import TestSupport
import Testing

@Suite struct FixCleanerTests {
    let start = Timestamp(secondsSince1970: 1_700_000_000)

    func fix(_ seconds: Double, north meters: Double, accuracy: Double? = nil, hdop: Double? = nil) -> PositionFix {
        PositionFix(
            time: start.adding(seconds: seconds), latitudeDegrees: 48 + meters / 111_195, longitudeDegrees: 2,
            accuracyMeters: accuracy, hdop: hdop)
    }

    func clean(_ fixes: [PositionFix], parameters: CleaningParameters = CleaningParameters()) -> ([PositionFix], FixCleaner) {
        var cleaner = FixCleaner(parameters: parameters)
        var kept: [PositionFix] = []
        for (index, fix) in fixes.enumerated() {
            cleaner.clean(fix, at: FixPosition(track: 0, segment: 0, line: index + 1)) { fix, _ in kept.append(fix) }
        }
        cleaner.endSegment()
        return (kept, cleaner)
    }

    @Test func keepsAnOrdinaryWalk() {
        let walk = (0..<20).map { fix(Double($0), north: Double($0) * 1.4) }
        let (kept, cleaner) = clean(walk)
        #expect(kept == walk && cleaner.dropped.total == 0)
    }

    @Test func dropsInvalidCoordinatesAndNaN() {
        let bad = [
            PositionFix(time: start, latitudeDegrees: 91, longitudeDegrees: 2),
            PositionFix(time: start, latitudeDegrees: 45, longitudeDegrees: 180.5),
            PositionFix(time: start, latitudeDegrees: .nan, longitudeDegrees: 2)
        ]
        let (kept, cleaner) = clean(bad)
        #expect(kept.isEmpty)
        #expect(cleaner.dropped.counts == [.invalidCoordinate: 2, .notANumber: 1])
        #expect(cleaner.dropped.firstLine[.invalidCoordinate] == 1 && cleaner.dropped.firstLine[.notANumber] == 3)
    }

    @Test func dropsDuplicateAndBackwardTimes() {
        let fixes = [fix(0, north: 0), fix(1, north: 1), fix(1, north: 1), fix(0.5, north: 2), fix(2, north: 2)]
        let (kept, cleaner) = clean(fixes)
        #expect(kept.map { $0.time!.secondsSince1970 - start.secondsSince1970 } == [0, 1, 2])
        #expect(cleaner.dropped.counts == [.duplicateTime: 1, .timeBackwards: 1])
    }

    @Test func dropsPoorAccuracyIncludingFromHDOP() {
        let fixes = [fix(0, north: 0, accuracy: 10), fix(1, north: 1, accuracy: 151), fix(2, north: 2, hdop: 31), fix(3, north: 3, hdop: 2)]
        let (kept, cleaner) = clean(fixes)
        #expect(kept.count == 2 && cleaner.dropped.counts == [.accuracyTooLow: 2])
        #expect(kept.last?.accuracyMeters == 10, "HDOP 2 × 5 m per HDOP")
    }

    @Test func dropsASpikeButKeepsTheFixesAfterIt() {
        let fixes = [fix(0, north: 0), fix(1, north: 1.4), fix(2, north: 5_000), fix(3, north: 4.2), fix(4, north: 5.6)]
        let (kept, cleaner) = clean(fixes)
        #expect(kept.count == 4 && cleaner.dropped.counts == [.speedJump: 1])
        #expect(!kept.contains(fixes[2]))
    }

    @Test func keepsARealRelocationAfterAGap() {
        // A tunnel: 2 km in 5 s is impossible, but the fixes after it continue from the new place.
        let fixes = [fix(0, north: 0), fix(1, north: 10), fix(6, north: 2_010), fix(7, north: 2_030), fix(8, north: 2_050)]
        let (kept, cleaner) = clean(fixes)
        #expect(kept == fixes && cleaner.dropped.total == 0)
    }

    /// A flight at 170 m/s breaks the 100 m/s limit at every fix but carries on in a line: it is
    /// kept. Two fixes thrown 5 km and 9 km away in different directions are not.
    @Test func keepsASteadyFlightButNotAZigzagOfSpikes() {
        let flight = (0..<30).map { fix(Double($0) * 10, north: Double($0) * 1_700) }
        let landing = [fix(300, north: 49_300 + 500), fix(310, north: 49_300 + 800)] // touchdown at 50 m/s, taxi at 30
        let (kept, cleaner) = clean(flight + landing)
        #expect(kept.count == 32 && cleaner.dropped.total == 0, "\(cleaner.dropped.counts)")
        let zigzag = [
            fix(0, north: 0), fix(1, north: 1.4), fix(2, north: 5_000), fix(3, north: -9_000), fix(4, north: 5.6), fix(5, north: 7)
        ]
        let (left, counted) = clean(zigzag)
        #expect(left.count == 4 && counted.dropped.counts == [.speedJump: 2], "\(left)")
    }

    @Test func aSpeedingLastFixHasNoConfirmationAndIsDropped() {
        let (kept, cleaner) = clean([fix(0, north: 0), fix(1, north: 1), fix(2, north: 9_000)])
        #expect(kept.count == 2 && cleaner.dropped.counts == [.speedJump: 1])
    }

    @Test func thresholdsAreParameters() {
        var lenient = CleaningParameters()
        lenient.maxSpeedMetersPerSecond = 10_000
        lenient.maxAccuracyMeters = 1_000
        let fixes = [fix(0, north: 0, accuracy: 500), fix(1, north: 5_000)]
        #expect(clean(fixes, parameters: lenient).0.count == 2)
    }

    @Test func shuffledInputKeepsOnlyAnIncreasingSubsequence() {
        let walk = (0..<200).map { fix(Double($0), north: Double($0) * 1.4) }
        var generator = SeededGenerator(seed: 7)
        let (kept, cleaner) = clean(walk.shuffled(using: &generator))
        let times = kept.map { $0.time! }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(kept.count + cleaner.dropped.total == walk.count)
    }

    @Test func segmentsAreJudgedIndependently() {
        var cleaner = FixCleaner()
        var kept = 0
        cleaner.clean(fix(10, north: 0), at: FixPosition(track: 0, segment: 0, line: 1)) { _, _ in kept += 1 }
        cleaner.endSegment()
        cleaner.clean(fix(0, north: 0), at: FixPosition(track: 0, segment: 1, line: 2)) { _, _ in kept += 1 }
        #expect(kept == 2, "an earlier time in a new segment is not 'backwards'")
    }
}
