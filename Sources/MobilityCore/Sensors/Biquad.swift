import Foundation

/// One second-order IIR section, y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2]:
/// the building block of the comfort weightings (ISO 2631-1, matched design in Comfort) and of
/// the anti-aliasing low-pass applied before IMU streams are resampled (Butterworth, below).
public struct Biquad: Sendable, Hashable {
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// The gain at 0 Hz, (b0 + b1 + b2) / (1 + a1 + a2).
    public var gainAtZeroHz: Double { (b0 + b1 + b2) / (1 + a1 + a2) }

    /// Filters in place. `steadyAt`: the filter starts as if its input had been this value
    /// forever (state x = c, y = c·gain at 0 Hz); 0 is a filter at rest.
    public func filter(_ signal: inout [Double], steadyAt level: Double = 0) {
        var x1 = level, x2 = level, y1 = level * gainAtZeroHz, y2 = level * gainAtZeroHz
        for index in signal.indices {
            let x = signal[index]
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            signal[index] = y
        }
    }

    /// |H(e^{j2πf/fs})|.
    public func magnitude(atHz frequency: Double, rateHz: Double) -> Double {
        let w = 2 * Double.pi * frequency / rateHz
        func modulus(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
            let real = c0 + c1 * cos(w) + c2 * cos(2 * w), imaginary = -(c1 * sin(w) + c2 * sin(2 * w))
            return (real * real + imaginary * imaginary).squareRoot()
        }
        return modulus(b0, b1, b2) / modulus(1, a1, a2)
    }

    /// A Butterworth low-pass of even `order` as `order / 2` sections, by the bilinear transform
    /// with the cutoff prewarped (so |H| = 1/√2 exactly at `cutoffHz`), each section with unit
    /// gain at 0 Hz. Section k has the analog quality factor 1 / (2·sin((2k + 1)π / (2·order)))
    /// (0.5412 and 1.3066 for order 4); the sections are in that order, lowest Q first.
    public static func butterworthLowPass(order: Int, cutoffHz: Double, rateHz: Double) -> [Biquad] {
        butterworth(order: order, cutoffHz: cutoffHz, rateHz: rateHz, highPass: false)
    }

    /// The high-pass of the same design: unit gain at the Nyquist frequency, a double zero at 0 Hz.
    public static func butterworthHighPass(order: Int, cutoffHz: Double, rateHz: Double) -> [Biquad] {
        butterworth(order: order, cutoffHz: cutoffHz, rateHz: rateHz, highPass: true)
    }

    private static func butterworth(order: Int, cutoffHz: Double, rateHz: Double, highPass: Bool) -> [Biquad] {
        precondition(order >= 2 && order % 2 == 0, "an even Butterworth order")
        precondition(cutoffHz > 0 && cutoffHz < rateHz / 2, "a cutoff between 0 and the Nyquist frequency")
        let k = tan(Double.pi * cutoffHz / rateHz)
        return (0..<(order / 2)).reversed().map { section in
            let q = 1 / (2 * sin(Double(2 * section + 1) * Double.pi / Double(2 * order)))
            let norm = 1 / (1 + k / q + k * k)
            let (a1, a2) = (2 * (k * k - 1) * norm, (1 - k / q + k * k) * norm)
            if highPass { return Biquad(b0: norm, b1: -2 * norm, b2: norm, a1: a1, a2: a2) }
            let b0 = k * k * norm
            return Biquad(b0: b0, b1: 2 * b0, b2: b0, a1: a1, a2: a2)
        }
    }
}

/// A cascade of sections run forwards and then backwards: zero phase, the magnitude squared.
/// Each pass starts in the steady state of its first value, so a signal that does not start or
/// end at zero has no start-up transient.
public enum ZeroPhase {
    public static func filter(_ signal: [Double], _ sections: [Biquad]) -> [Double] {
        guard !signal.isEmpty else { return [] }
        var output = signal
        for direction in 0..<2 {
            if direction == 1 { output.reverse() }
            for section in sections { section.filter(&output, steadyAt: output[0]) }
        }
        output.reverse()
        return output
    }

    /// As `filter`, with each end first extended by its odd reflection (2·x₀ − x_i) of
    /// 3·(2·sections + 1) samples, or as many as the signal has, and the extension cut off
    /// again: SciPy's `sosfiltfilt` with its default padding, so a signal that ends on a slope
    /// keeps its value at the ends.
    public static func filterPadded(_ signal: [Double], _ sections: [Biquad]) -> [Double] {
        guard signal.count > 1 else { return filter(signal, sections) }
        let padding = min(3 * (2 * sections.count + 1), signal.count - 1)
        let first = signal[0], last = signal[signal.count - 1]
        var extended = (1...padding).reversed().map { 2 * first - signal[$0] }
        extended += signal
        extended += (1...padding).map { 2 * last - signal[signal.count - 1 - $0] }
        return Array(filter(extended, sections)[padding..<(padding + signal.count)])
    }
}
