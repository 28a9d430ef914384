@testable import Features
import Foundation
import MobilityCore
import Testing

/// A 200 Hz phone's 90 Hz vibration must not reach the 50 Hz feature grid as 10 Hz.
@Suite struct AntiAliasingTests {
    let start = 1_700_000_000.0

    /// 60 s at `rateHz`: gravity on z, a 2 Hz step on z and, when `vibrationHz` is given, a
    /// 2 m/s² vibration on z at that frequency.
    func samples(rateHz: Double, vibrationHz: Double?) -> [IMUSample] {
        (0..<Int(60 * rateHz)).map { i in
            let t = Double(i) / rateHz
            let vibration = vibrationHz.map { 2 * sin(2 * Double.pi * $0 * t) } ?? 0
            return IMUSample(time: Timestamp(secondsSince1970: start + t), x: 0, y: 0, z: 9.81 + sin(2 * Double.pi * 2 * t) + vibration)
        }
    }

    func bandFraction(_ samples: [IMUSample], _ name: String) -> [Double] {
        let table = WindowFeatureExtractor().extract(Recording(trace: "t", device: "d", streams: [.accelerometer: samples]))
        let column = FeatureSchema.index(of: name)!
        return table.windows.indices.map { table.values[$0 * FeatureTable.columns + column] }
    }

    @Test func aVibrationAboveTheGridsNyquistDoesNotFoldIntoItsBands() {
        let vibrating = samples(rateHz: 200, vibrationHz: 90)
        // The fixture folds without the filter: at 50 Hz, 90 Hz reads as a 10 Hz, 2 m/s² sine.
        let plain = UniformGrid(covering: vibrating, rateHz: 50).resample(vibrating, maxGapSeconds: 2)[2]
        let folded = plain.indices.map { abs(plain[$0] - 9.81 - sin(2 * Double.pi * 2 * Double($0) / 50)) }.max()!
        #expect(folded > 1.9)

        let band = bandFraction(vibrating, "acc_vert_band_8_12hz_fraction")
        let step = bandFraction(vibrating, "acc_vert_band_2_3hz_fraction")
        #expect(band.count > 20)
        #expect(band.allSatisfy { $0 < 1e-3 }, "8-12 Hz share: \(band.max()!)")
        #expect(step.allSatisfy { $0 > 0.99 }, "2-3 Hz share: \(step.min()!)")
    }

    @Test func theStepItselfPassesUnchanged() {
        let steady = samples(rateHz: 200, vibrationHz: nil)
        let filtered = AntiAliasing.lowPassed(steady, gridRateHz: 50)
        // |H(2 Hz)|² of the zero-phase 20 Hz Butterworth is 1 − 4·10⁻¹¹: away from the ends, equal.
        for index in 1000..<11_000 { #expect(abs(filtered[index].z - steady[index].z) < 1e-6) }
        #expect(filtered.map(\.time) == steady.map(\.time))
    }

    @Test func streamsNoFasterThanTheGridAreLeftAlone() {
        let fifty = samples(rateHz: 50, vibrationHz: 20), fiftyFive = samples(rateHz: 55, vibrationHz: 20)
        #expect(AntiAliasing.lowPassed(fifty, gridRateHz: 50) == fifty)
        #expect(AntiAliasing.lowPassed(fiftyFive, gridRateHz: 50) == fiftyFive)
        #expect(AntiAliasing.lowPassed(samples(rateHz: 65, vibrationHz: 20), gridRateHz: 50) != samples(rateHz: 65, vibrationHz: 20))
    }

    /// Each run between pauses is filtered alone: a pause is not smoothed over.
    @Test func runsAreFilteredSeparately() {
        let first = samples(rateHz: 200, vibrationHz: nil)
        let later = first.map { IMUSample(time: Timestamp(secondsSince1970: $0.time.secondsSince1970 + 100), x: 5, y: 5, z: 5) }
        let filtered = AntiAliasing.lowPassed(first + later, gridRateHz: 50)
        #expect(filtered[first.count...].allSatisfy { abs($0.x - 5) < 1e-12 && abs($0.z - 5) < 1e-12 })
        #expect(abs(filtered[first.count - 1].z - first.last!.z) < 1e-3)
    }
}
