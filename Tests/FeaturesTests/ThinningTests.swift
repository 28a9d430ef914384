import Features
import Foundation
import MobilityCore
import Testing

/// Thinning a recording as an event logger would deliver it (`Recording.thinned`).
@Suite struct ThinningTests {
    func recording(rateHz: Double, seconds: Double) -> Recording {
        let samples = (0..<Int(rateHz * seconds)).map { i in
            IMUSample(time: Timestamp(secondsSince1970: 1_700_000_000 + Double(i) / rateHz), x: Double(i), y: 0, z: 9.81)
        }
        return Recording(trace: "a.csv", device: "d", streams: [.accelerometer: samples, .gyroscope: samples])
    }

    @Test func keepsAboutTheAskedRateAndOnlyOriginalSamples() {
        let original = recording(rateHz: 50, seconds: 600)
        let thinned = original.thinned(toRateHz: 8, seed: 3)
        let kept = thinned.streams[.accelerometer]!
        // Binomial(30,000, 0.16): mean 4,800, sd 63.
        #expect(abs(Double(kept.count) - 4800) < 300, "\(kept.count)")
        #expect(Set(kept).isSubset(of: Set(original.streams[.accelerometer]!)))
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(thinned.trace == "a.csv#thinned-8.0hz" && thinned.device == "d")
        #expect(thinned.streams[.accelerometer] != thinned.streams[.gyroscope], "each stream thinned on its own draws")
    }

    @Test func theSameSeedGivesTheSameSamples() {
        let original = recording(rateHz: 50, seconds: 60)
        #expect(original.thinned(toRateHz: 5, seed: 1).streams == original.thinned(toRateHz: 5, seed: 1).streams)
        #expect(original.thinned(toRateHz: 5, seed: 1).streams != original.thinned(toRateHz: 5, seed: 2).streams)
    }

    @Test func aStreamNoFasterThanTheRateIsKeptWhole() {
        let original = recording(rateHz: 4, seconds: 60)
        #expect(original.thinned(toRateHz: 8, seed: 1).streams == original.streams)
    }
}
