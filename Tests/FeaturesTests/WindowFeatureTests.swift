@testable import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

@Suite struct WindowFeatureTests {
    let extractor = WindowFeatureExtractor()

    func column(_ name: String) -> Int { FeatureSchema.index(of: name)! }

    func recording(_ motion: SyntheticIMU.Motion, seconds: Double = 30, rotation: [Double]? = nil) -> Recording {
        var imu = SyntheticIMU()
        if let rotation { imu.rotation = rotation }
        return Recording(trace: "t", device: "d", streams: imu.streams(motion, seconds: seconds))
    }

    @Test func windowsFollowLengthAndOverlap() {
        let table = extractor.extract(recording(.walk, seconds: 30))
        // 30 s at 50 Hz = 1500 samples; 250-sample windows every 125: (1500 - 250) / 125 + 1 = 11.
        #expect(table.count == 11)
        #expect(table.values.count == 11 * FeatureSchema.names.count)
        #expect(abs(table.windows[1].start.seconds(until: table.windows[2].start) - 2.5) < 1e-9)
    }

    @Test func featuresDoNotDependOnHowThePhoneIsHeld() {
        for motion in [SyntheticIMU.Motion.walk, .car, .still] {
            let upright = extractor.extract(recording(motion))
            let turned = extractor.extract(recording(motion, rotation: SyntheticIMU.rotation(axis: (0.3, -1, 0.6), degrees: 117)))
            #expect(upright.count == turned.count)
            for index in upright.values.indices where !upright.values[index].isNaN {
                let a = upright.values[index], b = turned.values[index]
                let name = FeatureSchema.names[index % FeatureSchema.names.count]
                #expect(abs(a - b) <= 1e-6 * max(1, abs(a)), "\(name): \(a) upright, \(b) turned")
            }
        }
    }

    @Test func aSineShowsItsEnergyInTheRightBand() {
        let table = extractor.extract(recording(.sine(frequencyHz: 4, amplitude: 1)))
        for index in 0..<table.count {
            let row = table.row(index)
            #expect(row[row.startIndex + column("acc_vert_band_3_5hz_fraction")] > 0.95)
            #expect(abs(row[row.startIndex + column("acc_vert_dominant_frequency_hz")] - 4) < 0.21)
            // amplitude 1 → std 1/√2
            #expect(abs(row[row.startIndex + column("acc_vert_std_mps2")] - 1 / 2.0.squareRoot()) < 0.02)
        }
    }

    @Test func walkingShowsItsStepPeriod() {
        let table = extractor.extract(recording(.walk))
        let row = table.row(3)
        #expect(row[row.startIndex + column("acc_vert_autocorr_peak")] > 0.5)
        #expect(abs(row[row.startIndex + column("acc_vert_autocorr_peak_lag_s")] - 0.5) < 0.03)
        #expect(
            row[row.startIndex + column("acc_vert_band_1_2hz_fraction")] + row[row.startIndex + column("acc_vert_band_2_3hz_fraction")]
                > 0.6)
    }

    @Test func shuffledWindowOrderGivesTheSameFeatures() {
        let statistics = ChannelStatistics(samplesPerWindow: 64, rateHz: 50)
        let spectral = SpectralFeatures(samplesPerWindow: 64, rateHz: 50)
        var generator = SeededGenerator(seed: 7)
        let rows = 9
        let block = (0..<(rows * 64)).map { _ in generator.nextUnit() * 4 }
        let order = Array(0..<rows).shuffled(using: &generator)
        let shuffled = order.flatMap { block[($0 * 64)..<($0 * 64 + 64)] }
        let width = ChannelStatistics.count + SpectralFeatures.count
        func features(_ input: [Double]) -> [Double] {
            var values = input, output = [Double](repeating: .nan, count: rows * width)
            statistics.compute(block: &values, rows: rows, into: &output, outputStride: width, column: 0)
            spectral.compute(centered: values, rows: rows, into: &output, outputStride: width, column: ChannelStatistics.count)
            return output
        }
        let original = features(block), permuted = features(shuffled)
        for (position, row) in order.enumerated() {
            for c in 0..<width {
                #expect(abs(original[row * width + c] - permuted[position * width + c]) < 1e-9)
            }
        }
    }

    @Test func blasResultsMatchAPlainReference() {
        let n = 40, rate = 20.0
        var generator = SeededGenerator(seed: 3)
        let signal = (0..<n).map { i in sin(Double(i) * 0.9) + generator.nextUnit() }
        var block = signal, output = [Double](repeating: .nan, count: ChannelStatistics.count + SpectralFeatures.count)
        ChannelStatistics(samplesPerWindow: n, rateHz: rate).compute(
            block: &block, rows: 1, into: &output, outputStride: output.count, column: 0)
        let spectral = SpectralFeatures(samplesPerWindow: n, rateHz: rate)
        spectral.compute(centered: block, rows: 1, into: &output, outputStride: output.count, column: ChannelStatistics.count)
        let mean = signal.reduce(0, +) / Double(n)
        let variance = signal.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)
        #expect(abs(output[0] - mean) < 1e-12 && abs(output[1] - variance.squareRoot()) < 1e-12)
        // Plain DFT power per bin, then the band shares.
        let centered = signal.map { $0 - mean }
        let power = (0...(n / 2)).map { k -> Double in
            var re = 0.0, im = 0.0
            for (i, value) in centered.enumerated() {
                re += value * cos(2 * .pi * Double(k * i) / Double(n)); im += value * sin(2 * .pi * Double(k * i) / Double(n))
            }
            return re * re + im * im
        }
        let total = power.dropFirst().reduce(0, +)
        for (band, (low, high)) in FeatureSchema.bandsHz.enumerated() {
            let isLast = band == FeatureSchema.bandsHz.count - 1
            let share =
                (1...(n / 2)).filter { Double($0) * rate / Double(n) >= low && (isLast || Double($0) * rate / Double(n) < high) }
                .reduce(0) { $0 + power[$1] } / total
            #expect(abs(output[ChannelStatistics.count + band] - share) < 1e-9, "band \(low)-\(high) Hz")
        }
        // Plain circular autocorrelation at the reported lag.
        let lagSeconds = output[ChannelStatistics.count + FeatureSchema.bandsHz.count + 3]
        if lagSeconds > 0 {
            let lag = Int((lagSeconds * rate).rounded())
            let r0 = centered.reduce(0) { $0 + $1 * $1 }
            let r = (0..<n).reduce(0) { $0 + centered[$1] * centered[($1 + lag) % n] }
            #expect(abs(output[ChannelStatistics.count + FeatureSchema.bandsHz.count + 2] - r / r0) < 1e-9)
        }
    }

    @Test func constantWindowsHaveZeroSpreadNotNaN() {
        var still = Recording(trace: "t", device: "d")
        still.streams[.accelerometer] = (0..<600).map { IMUSample(time: Timestamp(secondsSince1970: Double($0) / 50), x: 0, y: 0, z: 9.81) }
        let table = extractor.extract(still)
        #expect(table.count > 0)
        let accColumns = 0..<(3 * FeatureSchema.perChannelCount)
        for index in 0..<table.count {
            let row = Array(table.row(index))
            #expect(accColumns.allSatisfy { !row[$0].isNaN }, "a constant window has every acceleration feature")
            #expect(row[column("acc_mag_std_mps2")] == 0 && row[column("acc_mag_kurtosis")] == 0)
            #expect(row[column("gyro_mag_mean_radps")].isNaN, "no gyroscope stream: gyro features are missing, not zero")
        }
    }

    @Test func emptyRecordingsAndGapsAreHandled() {
        #expect(extractor.extract(Recording(trace: "t", device: "d")).count == 0)
        var gappy = recording(.walk, seconds: 20)
        var samples = gappy.streams[.accelerometer]!
        samples.removeSubrange(250..<750) // 10 s pause from 5 s to 15 s
        gappy.streams[.accelerometer] = samples
        gappy.streams[.gyroscope] = nil
        let table = extractor.extract(gappy)
        #expect(table.count > 0)
        for (index, window) in table.windows.enumerated() {
            let offset = window.start.secondsSince1970 - 1_700_000_000
            #expect(offset + 5 <= 5 + 1e-6 || offset >= 15 - 1e-6, "window at \(offset) s spans the gap")
            #expect(!table.row(index).first!.isNaN)
        }
    }

    @Test func gpsOnlyTracesGetGPSFeatures() {
        // A straight line north at 10 m/s, one fix per second.
        let fixes = (0..<120).map {
            PositionFix(
                time: Timestamp(secondsSince1970: 1_700_000_000 + Double($0)), latitudeDegrees: 48 + Double($0) * 10 / 111_195,
                longitudeDegrees: 2)
        }
        let table = extractor.extract(Recording(trace: "t", device: "d", fixes: fixes))
        #expect(table.count == Int((119 - 5) / 2.5) + 1)
        let row = Array(table.row(10))
        #expect(abs(row[column("gps_speed_mean_mps")] - 10) < 0.05 && abs(row[column("gps_speed_p85_mps")] - 10) < 0.05)
        #expect(row[column("gps_heading_change_deg_per_s")] < 1e-6 && row[column("gps_accel_abs_mean_mps2")] < 0.01)
        #expect(row[column("acc_mag_std_mps2")].isNaN)
    }

    @Test func windowsTakeTheLabelAtTheirMiddle() {
        var labelled = recording(.walk, seconds: 30)
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        labelled.labels = [
            LabelInterval(device: "d", start: start, end: start.adding(seconds: 12), rawName: "Walking", source: "test"),
            LabelInterval(
                device: "d", start: start.adding(seconds: 12), end: start.adding(seconds: 30), rawName: "hovering", source: "test")
        ]
        let table = extractor.extract(labelled)
        #expect(table.windows[0].mode == .walk && table.windows[0].labelName == "Walking")
        #expect(table.windows.last!.mode == nil && table.windows.last!.labelName == "hovering")
    }
}
