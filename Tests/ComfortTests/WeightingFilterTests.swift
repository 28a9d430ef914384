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
        (8.0, 1036, 253), (10, 988, 202), (12.5, 902, 161), (16, 768, 125), (20, 636, 100),
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
        let settled = weighted[(count / 2)...]  // after the 0.4 Hz high-pass has settled
        return (settled.reduce(0) { $0 + $1 * $1 } / Double(settled.count)).squareRoot() / (amplitude / 2.squareRoot())
    }

    @Test(arguments: [50.0, 100.0]) func sinesComeOutAtTheTableFactors(rateHz: Double) {
        for (frequency, wk, wd) in Self.iso2631Table3 {
            let gotK = weightedRMS(.wk, frequency: frequency, rateHz: rateHz), gotD = weightedRMS(.wd, frequency: frequency, rateHz: rateHz)
            #expect(gotK / (wk / 1000) < Self.tolerance && gotK / (wk / 1000) > 1 / Self.tolerance, "Wk at \(frequency) Hz, \(rateHz) Hz sampling: \(gotK) vs \(wk / 1000)")
            #expect(gotD / (wd / 1000) < Self.tolerance && gotD / (wd / 1000) > 1 / Self.tolerance, "Wd at \(frequency) Hz, \(rateHz) Hz sampling: \(gotD) vs \(wd / 1000)")
        }
    }

    @Test(arguments: [50.0, 100.0]) func wbFollowsEN12299sDefinition(rateHz: Double) {
        for (frequency, _, _) in Self.iso2631Table3 {
            let expected = FrequencyWeighting.wb.magnitude(atHz: frequency)
            let got = weightedRMS(.wb, frequency: frequency, rateHz: rateHz)
            #expect(got / expected < Self.tolerance && got / expected > 1 / Self.tolerance, "Wb at \(frequency) Hz: \(got) vs \(expected)")
        }
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
