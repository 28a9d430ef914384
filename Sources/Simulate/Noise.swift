import Foundation
import MobilityCore

/// Noise with its energy around one frequency: white noise through a two-pole resonator,
/// scaled to a target standard deviation. Models a vehicle body bouncing on its suspension or
/// a carriage swaying on its bogies.
struct Resonance {
    private let a1: Double, a2: Double, gain: Double
    private var y1 = 0.0, y2 = 0.0

    /// `sharpness` is the pole radius r (0 < r < 1): closer to 1 is a narrower peak.
    init(frequencyHz: Double, rateHz: Double, standardDeviation: Double, sharpness r: Double = 0.97) {
        let theta = 2 * Double.pi * frequencyHz / rateHz
        a1 = 2 * r * cos(theta)
        a2 = -r * r
        // Output variance of y[n] = a1 y[n-1] + a2 y[n-2] + e[n] for unit-variance e.
        let variance = (1 + r * r) / ((1 - r * r) * ((1 + r * r) * (1 + r * r) - 4 * r * r * cos(theta) * cos(theta)))
        gain = standardDeviation / variance.squareRoot()
    }

    mutating func next(_ generator: inout SeededGenerator) -> Double {
        let y = a1 * y1 + a2 * y2 + generator.gaussian()
        y2 = y1
        y1 = y
        return gain * y
    }
}
