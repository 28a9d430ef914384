@testable import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// Recordings of gravity-free (linear) acceleration, with or without a gravity stream: the
/// common Sensor Logger export holds `Accelerometer.csv` alone.
@Suite struct GravityFreeFeatureTests {
    let extractor = WindowFeatureExtractor()

    func value(_ table: FeatureTable, _ row: Int, _ name: String) -> Double {
        table.values[row * FeatureTable.columns + FeatureSchema.index(of: name)!]
    }

    /// A 4 Hz vertical sine of amplitude 1 m/s² (plus the synthetic sensor noise), 30 s at 50 Hz.
    var sine: [IMUSensor: [IMUSample]] { SyntheticIMU().streams(.sine(frequencyHz: 4, amplitude: 1), seconds: 30) }

    /// The accelerometer split into the linear and gravity streams a phone reports.
    func split(_ streams: [IMUSensor: [IMUSample]], keepGravity: Bool) -> [IMUSensor: [IMUSample]] {
        let total = streams[.accelerometer]!
        var result: [IMUSensor: [IMUSample]] = [.gyroscope: streams[.gyroscope]!]
        result[.linearAcceleration] = total.map { IMUSample(time: $0.time, x: $0.x, y: $0.y, z: $0.z - 9.81) }
        if keepGravity { result[.gravity] = total.map { IMUSample(time: $0.time, x: 0, y: 0, z: 9.81) } }
        return result
    }

    @Test func theDynamicChannelIsTheMagnitudeWithoutGravity() {
        // |sin| over whole periods has mean 2/π and standard deviation √(1/2 − 4/π²).
        let expectedMean = 2 / Double.pi, expectedStd = (0.5 - 4 / (Double.pi * Double.pi)).squareRoot()
        for streams in [sine, split(sine, keepGravity: true), split(sine, keepGravity: false)] {
            let table = extractor.extract(Recording(trace: "t", device: "d", streams: streams))
            #expect(table.count == 11)
            for row in 0..<table.count {
                #expect(abs(value(table, row, "acc_dyn_mean_mps2") - expectedMean) < 0.02)
                #expect(abs(value(table, row, "acc_dyn_std_mps2") - expectedStd) < 0.02)
                #expect(abs(value(table, row, "acc_dyn_dominant_frequency_hz") - 8) < 0.21, "|sin| repeats at twice the frequency")
            }
        }
    }

    @Test func withoutGravityTheChannelsThatNeedDownAreMissingAndTheOthersKept() {
        let table = extractor.extract(Recording(trace: "t", device: "d", streams: split(sine, keepGravity: false)))
        #expect(table.count == 11, "windows for the whole recording")
        for row in 0..<table.count {
            for name in ["acc_mag_std_mps2", "acc_vert_std_mps2", "acc_horiz_mean_mps2"] {
                #expect(value(table, row, name).isNaN, "\(name)")
            }
            #expect(!value(table, row, "gyro_mag_mean_radps").isNaN)
        }
        let withGravity = extractor.extract(Recording(trace: "t", device: "d", streams: split(sine, keepGravity: true)))
        // With the gravity stream the vertical is there: amplitude 1 → std 1/√2.
        #expect(abs(value(withGravity, 0, "acc_vert_std_mps2") - 1 / 2.0.squareRoot()) < 0.02)
    }
}
