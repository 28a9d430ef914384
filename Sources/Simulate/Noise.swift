import Foundation
import MobilityCore

/// Noise with its energy around one frequency: white noise through a two-pole resonator,
/// scaled to a target standard deviation. Models a vehicle body bouncing on its suspension or
/// a carriage swaying on its bogies.
struct Resonance {
    private let a1: Double, a2: Double, gain: Double
    private var y1 = 0.0, y2 = 0.0

    /// `sharpness` is the pole radius r (0 < r < 1): closer to 1 is a narrower peak. The pole
    /// angle θ is set so that the spectrum peaks at `frequencyHz`: an AR(2) process peaks where
    /// cos ω = cos θ·(1 + r²)/(2r), which for a broad resonance (r = 0.6) lies well below θ.
    init(frequencyHz: Double, rateHz: Double, standardDeviation: Double, sharpness r: Double = 0.97) {
        let peak = 2 * Double.pi * frequencyHz / rateHz
        let theta = acos(max(-1, min(1, cos(peak) * 2 * r / (1 + r * r))))
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
