import Comfort
import Foundation
import MobilityCore
import Testing

@Suite struct RideMetricsTests {
    @Test func nmvOnAConstructedBlockOfFiveSecondValues() {
        // Sixty 5 s rms values per axis (one 5 min block): x rises 0.01 … 0.60, y and z are flat.
        let x = (1...60).map { Double($0) / 100 }, y = Array(repeating: 0.2, count: 60), z = Array(repeating: 0.3, count: 60)
        // P95 of x by linear interpolation: rank 59 × 0.95 = 56.05 → 0.57 + 0.05 × 0.01 = 0.5705.
        #expect(abs(RideMetrics.percentile95(x) - 0.5705) < 1e-12)
        // N_MV = 6 √(0.5705² + 0.2² + 0.3²) = 6 √0.45547025 = 4.04930 (by hand).
        let nmv = RideMetrics.nmv(x: x.shuffled(), y: y, z: z)
        #expect(abs(nmv - 4.04930) < 1e-4 && NMVClass(nmv) == .uncomfortable)
        #expect(
            NMVClass(0.99) == .veryComfortable && NMVClass(1) == .comfortable && NMVClass(3.9) == .medium
                && NMVClass(5) == .veryUncomfortable)
    }

    @Test func comfortBandsLabelTheOverlapsUpwards() {
        let cases: [(Double, ComfortBand)] = [
            (0.2, .notUncomfortable), (0.315, .aLittleUncomfortable), (0.6, .fairlyUncomfortable),
            (0.9, .uncomfortable), (1.3, .veryUncomfortable), (2.5, .extremelyUncomfortable)
        ]
        for (value, band) in cases { #expect(ComfortBand(value) == band, "\(value)") }
    }

    /// A train-like ride in the vehicle frame: slow traction and braking along the track,
    /// carriage sway across it, vertical vibration; `rotation` turns it into a phone's frame.
    func ride(seconds: Double, rateHz: Double, rotation: [Double]) -> (x: [Double], y: [Double], z: [Double]) {
        var generator = SeededGenerator(seed: 5)
        var x: [Double] = [], y: [Double] = [], z: [Double] = []
        for i in 0..<Int(seconds * rateHz) {
            let t = Double(i) / rateHz
            let noise = { (scale: Double) in (generator.nextUnit() - 0.5) * 2 * scale }
            let along = 0.5 * sin(2 * .pi * 0.02 * t) + 0.05 * sin(2 * .pi * 7 * t) + noise(0.02)
            let across = 0.25 * sin(2 * .pi * 0.9 * t) + noise(0.02)
            let up = 9.81 + 0.4 * sin(2 * .pi * 4 * t) + noise(0.05)
            let r = rotation
            x.append(r[0] * along + r[1] * across + r[2] * up)
            y.append(r[3] * along + r[4] * across + r[5] * up)
            z.append(r[6] * along + r[7] * across + r[8] * up)
        }
        return (x, y, z)
    }

    static func rotation(axis: (Double, Double, Double), degrees: Double) -> [Double] {
        let norm = (axis.0 * axis.0 + axis.1 * axis.1 + axis.2 * axis.2).squareRoot()
        let (x, y, z) = (axis.0 / norm, axis.1 / norm, axis.2 / norm)
        let a = degrees * .pi / 180, c = cos(a), s = sin(a), t = 1 - c
        return [
            t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x,
            t * x * z - s * y, t * y * z + s * x, t * z * z + c
        ]
    }

    @Test(arguments: [50.0, 100.0]) func aRotatedRecordingGivesTheSameMetrics(rateHz: Double) throws {
        let identity = [1.0, 0, 0, 0, 1, 0, 0, 0, 1]
        let original = ride(seconds: 600, rateHz: rateHz, rotation: identity)
        let turned = ride(seconds: 600, rateHz: rateHz, rotation: Self.rotation(axis: (0.3, -0.8, 0.5), degrees: 117))
        let a = RideMetrics(frame: try #require(VehicleFrame(x: original.x, y: original.y, z: original.z, rateHz: rateHz)), rateHz: rateHz)
        let frame = try #require(VehicleFrame(x: turned.x, y: turned.y, z: turned.z, rateHz: rateHz))
        let b = RideMetrics(frame: frame, rateHz: rateHz)
        for (name, p, q) in [
            ("longitudinal", a.longitudinal, b.longitudinal), ("lateral", a.lateral, b.lateral), ("vertical", a.vertical, b.vertical)
        ] {
            #expect(
                abs(q.rms / p.rms - 1) < 0.02 && abs(q.vdv / p.vdv - 1) < 0.02 && abs(q.mtvv / p.mtvv - 1) < 0.03, "\(name): \(p) vs \(q)")
        }
        #expect(abs(b.totalValue / a.totalValue - 1) < 0.01 && abs(b.nmv! / a.nmv! - 1) < 0.02)
        // The recovered forward axis is the rotated vehicle x axis, up to its sign.
        let r = Self.rotation(axis: (0.3, -0.8, 0.5), degrees: 117)
        let alignment = abs(frame.forward.0 * r[0] + frame.forward.1 * r[3] + frame.forward.2 * r[6])
        #expect(alignment > 0.99, "forward axis found to within 8°")
        // Vertical: 0.4 m/s² at 4 Hz weighted by Wk(4 Hz) = 0.967 gives 0.4 × 0.967 / √2.
        #expect(abs(a.vertical.rms - 0.4 * 0.967 / 2.squareRoot()) < 0.01)
        // 600 s less the filters' 5 s settling: 119 5 s values, one complete 5 min block.
        #expect(a.nmvBlocks.count == 1 && !a.nmvPartial && a.continuousComfort.count == 119)
    }

    @Test func vdvAndMTVVOfASteadySine() throws {
        let rateHz = 100.0, seconds = 60.0, amplitude = 1.0
        let n = Int(seconds * rateHz)
        let z = (0..<n).map { 9.81 + amplitude * sin(2 * .pi * 4 * Double($0) / rateHz) }
        let frame = try #require(VehicleFrame(x: Array(repeating: 0, count: n), y: Array(repeating: 0, count: n), z: z, rateHz: rateHz))
        let metrics = RideMetrics(frame: frame, rateHz: rateHz)
        let weighted = amplitude * FrequencyWeighting.wk.magnitude(atHz: 4)
        // VDV of a sine of peak a over T: (3T/8)^¼ · a; MTVV of a steady sine: its rms; crest √2.
        #expect(abs(metrics.vertical.vdv / (weighted * pow(3 * seconds / 8, 0.25)) - 1) < 0.02)
        #expect(abs(metrics.vertical.mtvv / (weighted / 2.squareRoot()) - 1) < 0.03)
        #expect(abs(metrics.vertical.crestFactor - 2.squareRoot()) < 0.1)
        #expect(metrics.comfortBand == .fairlyUncomfortable, "a_v = \(metrics.totalValue)")
    }

    @Test func strongPushesAreCountedPerHour() throws {
        let rateHz = 50.0, seconds = 600.0
        let n = Int(seconds * rateHz)
        // Every 60 s the train pulls 1 m/s² for 10 s, reached in 0.5 s (2 m/s³): 10 starts, 10 stops.
        let along = (0..<n).map { i -> Double in
            let t = Double(i) / rateHz, phase = t.truncatingRemainder(dividingBy: 60)
            return phase < 0.5 ? 2 * phase : phase < 10 ? 1 : phase < 10.5 ? 1 - 2 * (phase - 10) : 0
        }
        let frame = try #require(
            VehicleFrame(x: along, y: Array(repeating: 0, count: n), z: Array(repeating: 9.81, count: n), rateHz: rateHz))
        let metrics = RideMetrics(frame: frame, rateHz: rateHz)
        #expect(metrics.longitudinalJerksPerHour == 20 * 6, "20 pushes in 10 min")
        #expect(metrics.lateralJerksPerHour == 0)
    }
}
