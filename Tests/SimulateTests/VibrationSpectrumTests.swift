import Foundation
import MobilityCore
@testable import Simulate
import Testing

/// The simulator's vibration is what `PhoneMotion` documents: each resonance peaks at its
/// frequency on each axis, and the axes are independent. Spectra by Welch's method (Hann
/// segments, half overlapping, a DFT at every 0.1 Hz) in the body frame: 10 s segments for the
/// narrow peaks below 4 Hz, 2 s for the broad road and rail vibration (0.5 Hz resolution and
/// five times the averages, so a flat-topped peak is not located by noise).
@Suite struct VibrationSpectrumTests {
    static let rateHz = 100.0

    /// `seconds` of one mode in the body frame (x forward, y left, z up), gravity removed.
    func body(_ mode: Mode, seed: UInt64, seconds: Double = 300) -> [[Double]] {
        var motion = PhoneMotion(rateHz: Self.rateHz, seed: seed)
        motion.rotatesIntoThePhone = false
        var axes: [[Double]] = [[], [], []]
        for _ in 0..<Int(seconds * Self.rateHz) {
            let a = motion.next(mode).acceleration
            axes[0].append(a.0); axes[1].append(a.1); axes[2].append(a.2 - 9.81)
        }
        return axes
    }

    /// Welch power at `frequencies` (arbitrary units; only where it peaks matters).
    func welch(_ signal: [Double], frequencies: [Double], segmentSeconds: Double) -> [Double] {
        let length = Int(segmentSeconds * Self.rateHz), hop = length / 2
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(length - 1)) }
        var power = [Double](repeating: 0, count: frequencies.count)
        for start in stride(from: 0, through: signal.count - length, by: hop) {
            let segment = signal[start..<start + length]
            let mean = segment.reduce(0, +) / Double(length)
            for (k, f) in frequencies.enumerated() {
                var re = 0.0, im = 0.0
                for (i, value) in segment.enumerated() {
                    let phase = 2 * .pi * f * Double(i) / Self.rateHz, v = (value - mean) * window[i]
                    re += v * cos(phase); im -= v * sin(phase)
                }
                power[k] += re * re + im * im
            }
        }
        return power
    }

    /// The frequency of the largest Welch power within `band`, Hz, on a grid of `step` Hz.
    func peak(_ signal: [Double], in band: ClosedRange<Double>, step: Double, segmentSeconds: Double) -> Double {
        let frequencies = stride(from: band.lowerBound, through: band.upperBound, by: step).map { $0 }
        let power = welch(signal, frequencies: frequencies, segmentSeconds: segmentSeconds)
        return frequencies[power.indices.max { power[$0] < power[$1] }!]
    }

    func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let (ma, mb) = (a.reduce(0, +) / Double(a.count), b.reduce(0, +) / Double(b.count))
        var (sab, saa, sbb) = (0.0, 0.0, 0.0)
        for i in a.indices { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) * (a[i] - ma); sbb += (b[i] - mb) * (b[i] - mb) }
        return sab / (saa * sbb).squareRoot()
    }

    /// A component of a mode's vibration on one axis: where to look, the documented range, the
    /// process's own frequency, and how closely its peak can be located: a narrow resonance
    /// (pole radius 0.97) to 0.2 Hz with 10 s segments, a broad one (road and rail, 0.8: a half-power
    /// width of about 6 Hz at 100 Hz sampling) to 1.5 Hz with 2 s segments.
    struct Component: Sendable {
        var mode: Mode, axis: Int, band: ClosedRange<Double>, documented: ClosedRange<Double>
        var frequency: @Sendable (PhoneMotion) -> Double
        var broad: Bool
    }

    /// Road 6–12 Hz across and along a car (on its vertical the 1.2–1.8 Hz bounce, 1.25 times
    /// stronger, hides the broad road peak under its skirt), rail 8–15 Hz on every axis of a
    /// train, the car's bounce, the train's sway 0.6–1.1 Hz, steps 1.8–2.1 Hz, pedalling 65–85 rpm.
    static let components: [Component] = [
        Component(mode: .car, axis: 0, band: 4...18, documented: 6...12, frequency: \.roadHz, broad: true),
        Component(mode: .car, axis: 1, band: 4...18, documented: 6...12, frequency: \.roadHz, broad: true),
        Component(mode: .car, axis: 2, band: 0.5...4, documented: 1.2...1.8, frequency: \.bounceHz, broad: false),
        Component(mode: .train, axis: 0, band: 5...20, documented: 8...15, frequency: \.railHz, broad: true),
        Component(mode: .train, axis: 1, band: 5...20, documented: 8...15, frequency: \.railHz, broad: true),
        Component(mode: .train, axis: 2, band: 5...20, documented: 8...15, frequency: \.railHz, broad: true),
        Component(mode: .train, axis: 1, band: 0.3...1.5, documented: 0.6...1.1, frequency: \.swayHz, broad: false)
    ]

    @Test(arguments: [UInt64(1), 2, 3]) func eachResonancePeaksWhereDocumented(seed: UInt64) {
        var cache: [Mode: [[Double]]] = [:]
        let motion = PhoneMotion(rateHz: Self.rateHz, seed: seed)
        for c in Self.components {
            let axes = cache[c.mode] ?? body(c.mode, seed: seed)
            cache[c.mode] = axes
            let own = c.frequency(motion)
            let found = peak(axes[c.axis], in: c.band, step: c.broad ? 0.25 : 0.05, segmentSeconds: c.broad ? 2 : 10)
            print(
                String(
                    format: "simulated %@ axis %@: peak %.2f Hz, process at %.2f Hz (documented %.2f–%.2f Hz), seed %d",
                    c.mode.rawValue, ["x", "y", "z"][c.axis], found, own, c.documented.lowerBound, c.documented.upperBound, seed))
            #expect(c.documented.contains(own))
            #expect(abs(found - own) <= (c.broad ? 1.5 : 0.2), "\(c.mode) axis \(c.axis): peak \(found) Hz, process at \(own) Hz")
        }
        for (mode, axis, range) in [(Mode.walk, 2, 1.8...2.1), (.bike, 1, 65.0 / 60...85.0 / 60)] {
            let found = peak(body(mode, seed: seed, seconds: 120)[axis], in: 0.5...3, step: 0.05, segmentSeconds: 10)
            #expect(
                range.contains(found) || abs(found - range.lowerBound) < 0.1 || abs(found - range.upperBound) < 0.1, "\(mode): \(found) Hz")
        }
        for mode in [Mode.car, .train] {
            let axes = cache[mode]!
            let (xy, xz, yz) = (correlation(axes[0], axes[1]), correlation(axes[0], axes[2]), correlation(axes[1], axes[2]))
            print(String(format: "simulated %@: cross-axis correlation x–y %.3f, x–z %.3f, y–z %.3f", mode.rawValue, xy, xz, yz))
            #expect(abs(xy) < 0.1 && abs(xz) < 0.1 && abs(yz) < 0.1)
        }
    }
}
