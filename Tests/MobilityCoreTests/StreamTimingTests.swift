import MobilityCore
import Testing

@Suite struct StreamTimingTests {
    func timing(_ times: [Double], values: (Int) -> Double = { Double($0) }) -> StreamTiming {
        var timing = StreamTiming()
        for (index, time) in times.enumerated() { timing.add(seconds: time, x: values(index), y: 0, z: 9.8) }
        return timing
    }

    @Test func aPauseDoesNotLowerTheRateButIsAGap() {
        // 50 Hz for 10 s, a 6 s pause, 50 Hz for 10 s: count/span would say 37.6 Hz.
        let first: [Double] = (0..<500).map { Double($0) * 0.02 }
        let second: [Double] = (0..<500).map { 15.98 + Double($0) * 0.02 }
        let times = first + second
        let measured = timing(times)
        #expect(abs(measured.effectiveRateHz! - 50) < 1e-9)
        #expect(measured.gaps.count == 1 && abs(measured.gaps.longestSeconds - 6) < 1e-9 && abs(measured.gaps.totalSeconds - 6) < 1e-9)
        #expect(measured.repeatFactor == nil && measured.realRateHz == measured.effectiveRateHz)
    }

    @Test func aSensorLoggedFourTimesPerValueMeasuresAQuarterOfTheRate() {
        let measured = timing((0..<2000).map { Double($0) * 0.005 }, values: { Double($0 / 4) })
        #expect(abs(measured.effectiveRateHz! - 200) < 1e-9)
        #expect(measured.repeatFactor == 4 && measured.repeatedSamples == 1500)
        #expect(abs(measured.realRateHz! - 50) < 1e-9 && abs(measured.usableRateHz! - 50) < 1e-9)
    }

    @Test func aBurstyLoggerCanCountOnItsMeanRateOnly() {
        // Bursts of 5 samples 20 ms apart, one burst a second (TMD's event logs): 50 Hz by the median, 5 Hz on average.
        let times = (0..<100).flatMap { second in (0..<5).map { Double(second) + Double($0) * 0.02 } }
        let measured = timing(times)
        #expect(abs(measured.effectiveRateHz! - 50) < 1e-9)
        #expect(abs(measured.usableRateHz! - 499.0 / 99.08) < 1e-9)
    }

    @Test func aStillPhonesQuantisedRepeatsAreNotARepeatFactor() {
        // Values that stay for 1, 2, 3 … 7 samples in turn: repeats, but no k that most runs share.
        var values: [Double] = []
        var level = 0.0
        while values.count < 1000 {
            values += Array(repeating: level, count: Int(level) % 7 + 1)
            level += 1
        }
        let measured = timing((0..<1000).map { Double($0) * 0.01 }, values: { values[$0] })
        #expect(measured.repeatFactor == nil && measured.repeatedSamples > 0)
        #expect(abs(measured.realRateHz! - 100) < 1e-9)
    }

    @Test func aConstantSignalIsNotARepeatFactor() {
        let measured = timing((0..<500).map { Double($0) * 0.02 }, values: { _ in 1 })
        #expect(measured.repeatFactor == nil && measured.repeatedSamples == 499 && abs(measured.realRateHz! - 50) < 1e-9)
    }

    @Test func aClockThatStepsBackIsCountedOnce() {
        let measured = timing([0, 0.02, 0.04, 0.01, 0.015, 0.06, 0.08])
        #expect(measured.clockJumps == 1 && measured.samples == 5)
        #expect(abs(measured.effectiveRateHz! - 50) < 1e-9)
    }
}
