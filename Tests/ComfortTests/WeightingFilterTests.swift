import Comfort
import Foundation
import Testing

/// The weighting filters against the standards' tables.
@Suite struct WeightingFilterTests {
    /// ISO 2631-1:1997 Table 3 (principal frequency weightings in one-third octaves),
    /// factors × 1000, for the bands a phone at 50 Hz can see: (Hz, Wk, Wd).
    static let iso2631Table3: [(Double, Double, Double)] = [
        (0.5, 418, 853), (0.63, 459, 944), (0.8, 477, 992), (1.0, 482, 1011), (1.25, 484, 1008), (1.6, 494, 968),
        (2.0, 531, 890), (2.5, 631, 776), (3.15, 804, 642), (4.0, 967, 512), (5.0, 1039, 409), (6.3, 1054, 323),
        (8.0, 1036, 253), (10, 988, 202), (12.5, 902, 161), (16, 768, 125), (20, 636, 100)
    ]

    /// ±0.5 dB: the tolerance ISO 8041 gives weighting filters of vibration meters in their
    /// nominal band.
    static let tolerance = pow(10, 0.5 / 20)

    @Test func theAnalogDefinitionReproducesTable3() {
        for (frequency, wk, wd) in Self.iso2631Table3 {
            #expect(abs(FrequencyWeighting.wk.magnitude(atHz: frequency) * 1000 / wk - 1) < 0.02, "Wk at \(frequency) Hz")
            #expect(abs(FrequencyWeighting.wd.magnitude(atHz: frequency) * 1000 / wd - 1) < 0.02, "Wd at \(frequency) Hz")
        }
    }

    /// A pure sine of amplitude A at f comes out with an rms of A/√2 · W(f).
    func weightedRMS(_ weighting: FrequencyWeighting, frequency: Double, rateHz: Double, amplitude: Double = 0.7) -> Double {
        let seconds = max(40, 20 / frequency)
        let count = Int(seconds * rateHz)
        let signal = (0..<count).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / rateHz) }
        let weighted = WeightingFilter(weighting, rateHz: rateHz).apply(signal)
        let settled = weighted[(count / 2)...] // after the 0.4 Hz high-pass has settled
        return (settled.reduce(0) { $0 + $1 * $1 } / Double(settled.count)).squareRoot() / (amplitude / 2.squareRoot())
    }

    @Test(arguments: [50.0, 100.0]) func sinesComeOutAtTheTableFactors(rateHz: Double) {
        for (frequency, wk, wd) in Self.iso2631Table3 {
            let gotK = weightedRMS(.wk, frequency: frequency, rateHz: rateHz), gotD = weightedRMS(.wd, frequency: frequency, rateHz: rateHz)
            #expect(
                gotK / (wk / 1000) < Self.tolerance && gotK / (wk / 1000) > 1 / Self.tolerance,
                "Wk at \(frequency) Hz, \(rateHz) Hz sampling: \(gotK) vs \(wk / 1000)")
            #expect(
                gotD / (wd / 1000) < Self.tolerance && gotD / (wd / 1000) > 1 / Self.tolerance,
                "Wd at \(frequency) Hz, \(rateHz) Hz sampling: \(gotD) vs \(wd / 1000)")
        }
    }

    /// Wb (ISO 2631-4:2001 Table A.1, ISO 8041; the vertical weighting of EN 12299) from a
    /// reference implementation independent of this code: scipy.signal.freqs on the published
    /// parameters (`python3 scripts/reference/weighting_reference.py`, which also reproduces
    /// Table 3 above for Wk and Wd), one-third-octave bands 0.5–20 Hz.
    static let wbReference: [(Double, Double)] = [
        (0.5, 0.3342), (0.63, 0.3665), (0.8, 0.3811), (1.0, 0.3853), (1.25, 0.3863), (1.6, 0.3921), (2.0, 0.4173), (2.5, 0.4935),
        (3.15, 0.6617), (4.0, 0.8891), (5.0, 1.0253), (6.3, 1.0546), (8.0, 1.0251), (10, 0.9745), (12.5, 0.9066), (16, 0.8103), (20, 0.7076)
    ]

    @Test func wbHasThePublishedParameters() {
        let wb = FrequencyWeighting.wb
        #expect(wb.highPassHz == 0.4 && wb.lowPassHz == 100 && wb.gain == 1.024)
        #expect(wb.transition.f3 == 16 && wb.transition.f4 == 16 && wb.transition.q4 == 0.55)
        #expect(wb.step?.f5 == 2.5 && wb.step?.q5 == 0.9 && wb.step?.f6 == 4 && wb.step?.q6 == 0.95)
        for (frequency, expected) in Self.wbReference {
            #expect(abs(wb.magnitude(atHz: frequency) / expected - 1) < 0.002, "Wb at \(frequency) Hz")
        }
        // BS 6841:1987's asymptotic Wb: 0.4 from 0.5 to 2 Hz, 1 from 5 to 16 Hz; away from its corners
        // the realisable weighting lies within ±0.5 dB of it.
        #expect(abs(20 * log10(wb.magnitude(atHz: 1) / 0.4)) < 0.5 && abs(20 * log10(wb.magnitude(atHz: 8) / 1.0)) < 0.5)
    }

    @Test(arguments: [50.0, 100.0]) func wbSinesComeOutAtTheReferenceMagnitudes(rateHz: Double) {
        for (frequency, expected) in Self.wbReference {
            let got = weightedRMS(.wb, frequency: frequency, rateHz: rateHz)
            #expect(
                got / expected < Self.tolerance && got / expected > 1 / Self.tolerance,
                "Wb at \(frequency) Hz, \(rateHz) Hz sampling: \(got) vs \(expected)")
        }
        let filter = WeightingFilter(.wb, rateHz: rateHz)
        print(
            "Wb at \(Int(rateHz)) Hz sampling, digital vs reference: "
                + [1.0, 4, 8, 16].map { f in
                    String(format: "%.0f Hz %.4f/%.4f", f, filter.magnitude(atHz: f), Self.wbReference.first { $0.0 == f }!.1)
                }.joined(separator: ", "))
    }

    /// The filters start in their steady state: a stationary sine, whatever sample it starts on,
    /// gives a 1 s running rms maximum (MTVV) within 0.98–1.05 of its rms and the same MTVV
    /// within 2 %.
    @Test(arguments: [(0.5, 50.0), (1.0, 50.0), (4.0, 50.0), (1.0, 100.0), (8.0, 100.0)])
    func aStationarySineHasNoStartUpTransient(frequency: Double, rateHz: Double) throws {
        var values: [Double] = [], ratios: [Double] = []
        for startSample in stride(from: 0, to: Int(rateHz / frequency), by: max(1, Int(rateHz / frequency) / 9)) {
            let n = Int(60 * rateHz)
            let z = (0..<n).map { 9.81 + sin(2 * .pi * frequency * Double($0 + startSample) / rateHz) }
            let frame = try #require(VehicleFrame(x: Array(repeating: 0, count: n), y: Array(repeating: 0, count: n), z: z, rateHz: rateHz))
            let metrics = RideMetrics(frame: frame, rateHz: rateHz)
            let ratio = metrics.vertical.mtvv / metrics.vertical.rms
            #expect(ratio >= 0.98 && ratio <= 1.05, "\(frequency) Hz from sample \(startSample): MTVV/rms \(ratio)")
            values.append(metrics.vertical.mtvv)
            ratios.append(ratio)
        }
        let spread = (values.max()! - values.min()!) / values.min()!
        print(
            String(
                format: "MTVV start spread, %.1f Hz sine at %.0f Hz: %.3f %%, MTVV/rms %.4f–%.4f", frequency, rateHz, spread * 100,
                ratios.min()!, ratios.max()!))
        #expect(spread < 0.02)
    }

    @Test func theDigitalResponseTracksTheAnalogOneToNyquist() {
        var worst = 0.0
        for rateHz in [50.0, 100.0] {
            for weighting in [FrequencyWeighting.wk, .wd, .wb] {
                let filter = WeightingFilter(weighting, rateHz: rateHz)
                for step in 1...80 {
                    let frequency = 0.5 + (rateHz * 0.4 - 0.5) * Double(step) / 80
                    worst = max(worst, abs(filter.magnitude(atHz: frequency) / weighting.magnitude(atHz: frequency) - 1))
                }
            }
        }
        print("weighting filters: largest departure from the analog magnitude, 0.5 Hz to 0.4 × rate: \(worst * 100) %")
        #expect(worst < 0.03)
    }
}
