import Foundation
import MobilityCore

/// A frequency weighting as a cascade of digital biquads (IIR), one per analog section.
///
/// Each section is designed after Vicanek's matched method (M. Vicanek, "Matched Second
/// Order Digital Filters", 2016): the poles are the analog poles mapped exactly (z = e^{sT}),
/// and the numerator is chosen so that the digital magnitude equals the analog one at 0 Hz
/// and follows it, in least squares of the relative error, from 0.1 Hz to 0.45 × the rate. Unlike the bilinear transform, this does not squeeze the
/// response towards Nyquist: at 50 Hz sampling, Wk's 12.5 Hz section would otherwise be
/// read at 38 Hz when evaluated at 20 Hz. The match is of magnitude; the phase departs a
/// little from the analog one near Nyquist, which rms values do not see.
public struct WeightingFilter: Sendable {
    public let weighting: FrequencyWeighting
    public let rateHz: Double
    let biquads: [Biquad]

    public init(_ weighting: FrequencyWeighting, rateHz: Double) {
        self.weighting = weighting
        self.rateHz = rateHz
        biquads = weighting.sections.map { Biquad(matching: $0, rateHz: rateHz) }
    }

    /// How long the weighted signal takes to settle after its first sample, seconds: the
    /// slowest pole (the 0.4 Hz band-limiting high-pass, decay rate 2π·0.4/√2 = 1.78 s⁻¹) has
    /// fallen to e^(−1.78·5) = 1.4·10⁻⁴ of its start by then. `RideMetrics` leaves this much
    /// of every gap-free piece out of the weighted metrics.
    public static let settlingSeconds = 5.0

    /// The weighted signal (same length). Each section starts in the steady state of the
    /// signal's first value (as if it had been there forever), so a signal that does not start
    /// at zero gives no step; the transient of the signal's own start remains for
    /// `settlingSeconds` (a 1 Hz sine starting at its steepest point: MTVV 44 % high without
    /// the settling time left out, exactly its rms with it).
    public func apply(_ signal: [Double]) -> [Double] {
        guard var level = signal.first else { return [] }
        var output = signal
        for biquad in biquads {
            biquad.filter(&output, steadyAt: level)
            level *= biquad.gainAtZeroHz
        }
        let gain = weighting.gain
        for index in output.indices { output[index] *= gain }
        return output
    }

    /// |H(e^{j2πf/fs})| of the digital cascade.
    public func magnitude(atHz frequency: Double) -> Double {
        weighting.gain * biquads.reduce(1) { $0 * $1.magnitude(atHz: frequency, rateHz: rateHz) }
    }
}

extension Biquad {
    /// Vicanek's matched design for one analog section (complex or real poles).
    init(matching section: AnalogSection, rateHz: Double) {
        let t = 1 / rateHz
        // Poles of d2·s² + d1·s + d0, mapped by z = e^{sT}.
        let (d0, d1, d2) = (section.denominator[0], section.denominator[1], section.denominator[2])
        let discriminant = d1 * d1 - 4 * d2 * d0
        let a1: Double, a2: Double
        if discriminant < 0 {
            let real = -d1 / (2 * d2), imaginary = (-discriminant).squareRoot() / (2 * d2)
            a1 = -2 * exp(real * t) * cos(imaginary * t)
            a2 = exp(2 * real * t)
        } else {
            let root = discriminant.squareRoot()
            let p1 = (-d1 + root) / (2 * d2), p2 = (-d1 - root) / (2 * d2)
            a1 = -(exp(p1 * t) + exp(p2 * t))
            a2 = exp((p1 + p2) * t)
        }
        // |B(e^{jω})|² = B0·φ0 + B1·φ1 + B2·4·φ0·φ1, with φ1 = sin²(ω/2), φ0 = 1 − φ1, and the
        // same form for the denominator. B0 is fixed by the analog value at 0 Hz; B1 and B2
        // are fitted by least squares, in relative error, to the analog |H|² on a log grid from
        // 0.1 Hz to 0.45 × the rate (Vicanek matches at three frequencies only; the fit
        // spreads the error over the band a phone sees).
        let (capitalA0, capitalA1, capitalA2) = ((1 + a1 + a2) * (1 + a1 + a2), (1 - a1 + a2) * (1 - a1 + a2), -4 * a2)
        func basis(_ frequency: Double) -> (phi0: Double, phi1: Double, phi2: Double) {
            let phi1 = pow(sin(Double.pi * frequency / rateHz), 2), phi0 = 1 - phi1
            return (phi0, phi1, 4 * phi0 * phi1)
        }
        let capitalB0 = section.magnitudeSquared(atHz: 0) * capitalA0
        var normal = [0.0, 0.0, 0.0, 0.0], right = [0.0, 0.0] // 2×2 normal equations for B1, B2
        let low = log(0.1), high = log(0.45 * rateHz)
        for step in 0...200 {
            let frequency = exp(low + (high - low) * Double(step) / 200)
            let (phi0, phi1, phi2) = basis(frequency)
            let target = section.magnitudeSquared(atHz: frequency) * (capitalA0 * phi0 + capitalA1 * phi1 + capitalA2 * phi2)
            guard target > 0 else { continue }
            let weight = 1 / (target * target), residual = target - capitalB0 * phi0
            normal[0] += weight * phi1 * phi1
            normal[1] += weight * phi1 * phi2
            normal[3] += weight * phi2 * phi2
            right[0] += weight * phi1 * residual
            right[1] += weight * phi2 * residual
        }
        normal[2] = normal[1]
        let determinant = normal[0] * normal[3] - normal[1] * normal[2]
        let capitalB1 = (right[0] * normal[3] - normal[1] * right[1]) / determinant
        let capitalB2 = (normal[0] * right[1] - normal[2] * right[0]) / determinant
        let w = max(0, capitalB0).squareRoot(), v = max(0, capitalB1).squareRoot()
        let b1 = (w - v) / 2
        let sum = (w + v) / 2, product = -capitalB2 / 4
        let spread = max(0, sum * sum - 4 * product).squareRoot()
        let b0 = (sum + spread) / 2
        // A high-pass has a double zero at z = 1, i.e. b0 + b1 + b2 = 0; the formulas give it.
        self.init(b0: b0, b1: b1, b2: sum - b0, a1: a1, a2: a2)
    }
}
