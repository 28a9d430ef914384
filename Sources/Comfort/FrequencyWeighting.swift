import Foundation

/// The frequency weightings of whole-body vibration, as the standards define them: a product
/// of analog second-order sections (ISO 2631-1:1997 Annex A, Table A.2, for Wk and Wd;
/// ISO 2631-4:2001 Annex A, Table A.1, for Wb, the weighting EN 12299:2009 uses for the
/// vertical; the same parameters are in ISO 8041:2005 Table B.1, quoted in Larson Davis's
/// *HVM200 Reference Manual*, Table 3.1):
///
/// - band limiting: a high-pass at f1 and a low-pass at f2 (both Butterworth, Q = 1/√2);
/// - acceleration–velocity transition: (1 + s/ω3) / (1 + s/(Q4·ω4) + s²/ω4²);
/// - upward step: (s² + s·ω5/Q5 + ω5²) / (s² + s·ω6/Q6 + ω6²), which rises from (ω5/ω6)² at
///   low frequencies to 1 above f6; then a gain K.
///
/// | weighting | axis | f1 | f2 | f3 | f4 | Q4 | f5 | Q5 | f6 | Q6 | K |
/// |---|---|---|---|---|---|---|---|---|---|---|---|
/// | Wk (ISO 2631-1) | vertical | 0.4 | 100 | 12.5 | 12.5 | 0.63 | 2.37 | 0.91 | 3.35 | 0.91 | 1 |
/// | Wd (ISO 2631-1) | horizontal | 0.4 | 100 | 2.0 | 2.0 | 0.63 | – | – | – | – | 1 |
/// | Wb (ISO 2631-4, EN 12299) | vertical | 0.4 | 100 | 16 | 16 | 0.55 | 2.5 | 0.9 | 4.0 | 0.95 | 1.024 |
///
/// The 100 Hz band-limiting low-pass lies above the Nyquist frequency at phone rates (25 Hz at
/// 50 Hz sampling). The digital filters leave it out: at 20 Hz it would multiply the weighting
/// by 1/√(1 + (20/100)⁴) = 0.9992, at 25 Hz by 0.998, so leaving it out overstates the highest
/// frequencies a phone can see by at most 0.2 %. A phone cannot measure what lies above its
/// Nyquist frequency at all: for Wk, 3 % of a flat spectrum's weighted energy between 1 and
/// 80 Hz lies above 25 Hz, which a 50 Hz recording misses.
public struct FrequencyWeighting: Hashable, Sendable {
    public var name: String
    public var highPassHz: Double
    public var lowPassHz: Double
    public var transition: (f3: Double, f4: Double, q4: Double)
    public var step: (f5: Double, q5: Double, f6: Double, q6: Double)?
    public var gain: Double

    public static func == (a: FrequencyWeighting, b: FrequencyWeighting) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public static let wk = FrequencyWeighting(
        name: "Wk", highPassHz: 0.4, lowPassHz: 100, transition: (12.5, 12.5, 0.63),
        step: (2.37, 0.91, 3.35, 0.91), gain: 1)
    public static let wd = FrequencyWeighting(
        name: "Wd", highPassHz: 0.4, lowPassHz: 100, transition: (2.0, 2.0, 0.63),
        step: nil, gain: 1)
    public static let wb = FrequencyWeighting(
        name: "Wb", highPassHz: 0.4, lowPassHz: 100, transition: (16, 16, 0.55),
        step: (2.5, 0.9, 4.0, 0.95), gain: 1.024)

    /// The analog sections (numerator and denominator in powers of s: [s⁰, s¹, s²]), without
    /// the band-limiting low-pass (see the type's note).
    var sections: [AnalogSection] {
        let w1 = 2 * Double.pi * highPassHz, w3 = 2 * Double.pi * transition.f3, w4 = 2 * Double.pi * transition.f4
        var sections = [
            AnalogSection(numerator: [0, 0, 1], denominator: [w1 * w1, w1 * 2.squareRoot(), 1], naturalHz: highPassHz),
            AnalogSection(numerator: [1, 1 / w3, 0], denominator: [1, 1 / (transition.q4 * w4), 1 / (w4 * w4)], naturalHz: transition.f4)
        ]
        if let step {
            let w5 = 2 * Double.pi * step.f5, w6 = 2 * Double.pi * step.f6
            sections.append(
                AnalogSection(numerator: [w5 * w5, w5 / step.q5, 1], denominator: [w6 * w6, w6 / step.q6, 1], naturalHz: step.f6))
        }
        return sections
    }

    /// |W(f)| of the standard's analog definition, band-limiting low-pass included.
    public func magnitude(atHz frequency: Double) -> Double {
        let w2 = 2 * Double.pi * lowPassHz
        let lowPass = AnalogSection(numerator: [w2 * w2, 0, 0], denominator: [w2 * w2, w2 * 2.squareRoot(), 1], naturalHz: lowPassHz)
        return gain * (sections + [lowPass]).reduce(1) { $0 * $1.magnitude(atHz: frequency) }
    }
}

/// H(s) = (n0 + n1·s + n2·s²) / (d0 + d1·s + d2·s²).
struct AnalogSection: Sendable {
    var numerator: [Double]
    var denominator: [Double]
    var naturalHz: Double

    func magnitudeSquared(atHz frequency: Double) -> Double {
        let w = 2 * Double.pi * frequency
        func squared(_ c: [Double]) -> Double {
            let real = c[0] - c[2] * w * w, imaginary = c[1] * w
            return real * real + imaginary * imaginary
        }
        return squared(numerator) / squared(denominator)
    }

    func magnitude(atHz frequency: Double) -> Double { magnitudeSquared(atHz: frequency).squareRoot() }
}
