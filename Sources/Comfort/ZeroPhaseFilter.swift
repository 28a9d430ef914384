import Foundation

/// Second-order Butterworth low- and high-passes run forwards and backwards (zero phase, the
/// magnitude squared), for the slow parts of a ride (traction, braking, sway) and for the
/// vibration band that tells a moving vehicle from a stopped one. Each pass starts in the
/// steady state of its first value, so a signal that does not start or end at zero has no
/// start-up transient.
enum ZeroPhaseFilter {
    static func lowPass(_ signal: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        let k = tan(Double.pi * min(cutoffHz, 0.45 * rateHz) / rateHz), q = 1 / 2.squareRoot()
        let norm = 1 / (1 + k / q + k * k)
        let b0 = k * k * norm
        return run(Biquad(b0: b0, b1: 2 * b0, b2: b0, a1: 2 * (k * k - 1) * norm, a2: (1 - k / q + k * k) * norm), signal)
    }

    static func highPass(_ signal: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        let k = tan(Double.pi * cutoffHz / rateHz), q = 1 / 2.squareRoot()
        let norm = 1 / (1 + k / q + k * k)
        return run(Biquad(b0: norm, b1: -2 * norm, b2: norm, a1: 2 * (k * k - 1) * norm, a2: (1 - k / q + k * k) * norm), signal)
    }

    private static func run(_ biquad: Biquad, _ signal: [Double]) -> [Double] {
        guard let first = signal.first else { return [] }
        var output = signal
        biquad.filter(&output, steadyAt: first)
        output.reverse()
        biquad.filter(&output, steadyAt: output[0])
        output.reverse()
        return output
    }
}
