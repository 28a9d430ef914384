import Foundation
import MobilityCore

/// What a mode does to a phone's accelerometer (m/s², gravity included) and gyroscope (rad/s),
/// sample by sample, in the body frame (x forward, y left, z up), then turned into the phone's
/// frame by its orientation in the pocket or bag.
///
/// - still: sensor noise only (0.015 m/s², 0.003 rad/s).
/// - walk: steps at 1.8–2.1 Hz (Pachi & Ji 2003) with a second harmonic and sway at half the
///   step rate. The phone rides in a trouser pocket, so it turns with the thigh: ±20° about the
///   lateral axis once per stride (hip flexion–extension spans about 40° in walking, Perry's
///   *Gait Analysis*), which tips part of gravity into the phone's horizontal plane and puts
///   the thigh's angular rate on the gyroscope.
/// - bike: pedalling at 65–85 rpm (the lateral rock at the cadence, a vertical push at twice
///   it), the thigh turning ±20° once per pedal turn, and broadband road vibration.
/// - car and bus: the body bouncing on its suspension at 1.2–1.8 Hz, road vibration at 6–12 Hz
///   on every axis (0.24 m/s² each, as in TMD's car recordings, whose horizontal spread has a
///   median of 0.2–0.4 m/s²), engine vibration at 20–24 Hz, slow speed changes along the road.
/// - train: carriage sway at 0.6–1.1 Hz and a bounce at about 1.5 Hz, rail vibration at
///   8–15 Hz, and slow traction and braking.
///
/// Each axis has its own vibration processes (road, rail, sway), independent of the other
/// axes', and every process advances exactly once per sample, so a resonance sounds at its
/// frequency and the axes are uncorrelated (`SimulationTests` measures both by FFT).
public struct PhoneMotion {
    public let rateHz: Double
    private var generator: SeededGenerator
    private let rotation: [Double]
    private let stepHz: Double, cadenceHz: Double, engineHz: Double
    /// Where each vibration process peaks, Hz (drawn per phone within the documented ranges).
    let bounceHz: Double, swayHz: Double, railHz: Double, roadHz: Double
    private var bounce: Resonance
    /// One process per axis (x, y, z).
    private var sway: [Resonance], rail: [Resonance], road: [Resonance]
    private var sample = 0
    /// Turn the body frame into the phone's frame (false: body frame, for tests of the spectrum).
    var rotatesIntoThePhone = true
    /// The thigh's angle at the last sample, radians (0 unless walking or cycling).
    private var tilt = 0.0

    public init(rateHz: Double, seed: UInt64) {
        self.rateHz = rateHz
        var generator = SeededGenerator(seed: seed)
        rotation = Self.randomRotation(&generator)
        stepHz = generator.uniform(1.8...2.1)
        cadenceHz = generator.uniform(65...85) / 60
        engineHz = generator.uniform(20...24)
        bounceHz = generator.uniform(1.2...1.8)
        bounce = Resonance(frequencyHz: bounceHz, rateHz: rateHz, standardDeviation: 0.3)
        let (sway, rail, road) = (generator.uniform(0.6...1.1), generator.uniform(8...15), generator.uniform(6...12))
        (swayHz, railHz, roadHz) = (sway, rail, road)
        self.sway = (0..<3).map { _ in Resonance(frequencyHz: sway, rateHz: rateHz, standardDeviation: 0.25) }
        self.rail = (0..<3).map { _ in Resonance(frequencyHz: rail, rateHz: rateHz, standardDeviation: 0.15, sharpness: 0.8) }
        self.road = (0..<3).map { _ in Resonance(frequencyHz: road, rateHz: rateHz, standardDeviation: 0.8, sharpness: 0.8) }
        self.generator = generator
    }

    /// The next sample: accelerometer and gyroscope, each (x, y, z) in the phone's frame.
    public mutating func next(_ mode: Mode) -> (acceleration: (Double, Double, Double), rotation: (Double, Double, Double)) {
        let t = Double(sample) / rateHz
        sample += 1
        var a = (noise(0.015), noise(0.015), 9.81 + noise(0.015))
        var w = (noise(0.003), noise(0.003), noise(0.003))
        tilt = 0
        // Every process advances once per sample, used or not, so each keeps its own frequency.
        let bounce = self.bounce.next(&generator)
        let sway = (0..<3).map { self.sway[$0].next(&generator) }
        let rail = (0..<3).map { self.rail[$0].next(&generator) }
        let road = (0..<3).map { self.road[$0].next(&generator) }
        switch mode {
        case .still, .boat, .airplane, .vehicle:
            break
        case .walk:
            let phase = 2 * Double.pi * stepHz * t
            a.2 += 2.2 * sin(phase) + 0.7 * sin(2 * phase + 0.4) + noise(0.15)
            a.0 += 1.0 * sin(phase + 1.2) + noise(0.15)
            a.1 += 0.8 * sin(phase / 2) + noise(0.15)
            w = (w.0 + 0.2 * sin(phase), w.1, w.2 + 0.25 * sin(phase / 2 + 0.7))
            swingThigh(&a, &w, phase: phase / 2, rateHz: stepHz / 2)
        case .bike:
            let phase = 2 * Double.pi * cadenceHz * t
            a.1 += 0.6 * sin(phase) + 0.4 * road[1]
            a.2 += 0.4 * sin(2 * phase) + road[2]
            a.0 += 0.3 * sin(2 * Double.pi * 0.1 * t) + 0.4 * road[0]
            w = (w.0 + 0.3 * sin(phase) + noise(0.05), w.1 + noise(0.05), w.2 + 0.1 * sin(phase + 0.5))
            swingThigh(&a, &w, phase: phase, rateHz: cadenceHz)
        case .car, .bus:
            let engine = 0.05 * sin(2 * Double.pi * engineHz * t)
            a.0 += 0.6 * sin(2 * Double.pi * 0.05 * t) + 0.3 * sway[0] + 0.3 * road[0] + engine
            a.1 += 0.4 * sway[1] + 0.3 * road[1] + engine
            a.2 += bounce + 0.3 * road[2] + engine
            w = (w.0 + 0.02 * sin(0.3 * t), w.1 + noise(0.02), w.2 + 0.05 * sin(0.1 * t))
        case .train:
            a.0 += 0.3 * sin(2 * Double.pi * 0.02 * t) + 0.3 * rail[0]
            a.1 += sway[1] + 0.5 * rail[1]
            a.2 += 0.5 * bounce + rail[2]
            // The carriage rolls as it sways: its roll rate follows the lateral sway.
            w = (w.0 + 0.02 * sway[1], w.1 + noise(0.01), w.2 + 0.01 * sin(0.05 * t))
        }
        return rotatesIntoThePhone ? (rotate(a), rotate(w)) : (a, w)
    }

    /// Thigh swing amplitude, radians: ±20°.
    static let thighSwingRadians = 0.35

    /// `a`, `w` and `tilt` as a phone in a trouser pocket has them while the thigh swings by
    /// θ = 0.35·sin(`phase`) about the lateral (y) axis at `rateHz` cycles a second: the
    /// acceleration turned by θ, and the swing's rate dθ/dt added about y.
    private mutating func swingThigh(
        _ a: inout (Double, Double, Double), _ w: inout (Double, Double, Double), phase: Double, rateHz: Double
    ) {
        tilt = Self.thighSwingRadians * sin(phase)
        let (c, s) = (cos(tilt), sin(tilt))
        a = (c * a.0 - s * a.2, a.1, s * a.0 + c * a.2)
        w.1 += Self.thighSwingRadians * 2 * Double.pi * rateHz * cos(phase)
    }

    /// Gravity in the phone's frame at the last sample, as a phone's fused gravity sensor
    /// reports it (what Sensor Logger subtracts for its linear acceleration).
    var gravity: (Double, Double, Double) { rotate((-sin(tilt) * 9.81, 0, cos(tilt) * 9.81)) }

    private mutating func noise(_ sigma: Double) -> Double { sigma * generator.gaussian() }

    private func rotate(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
        let r = rotation
        return (r[0] * v.0 + r[1] * v.1 + r[2] * v.2, r[3] * v.0 + r[4] * v.1 + r[5] * v.2, r[6] * v.0 + r[7] * v.1 + r[8] * v.2)
    }

    /// A uniformly random rotation (Shoemake's quaternion method), row-major 3×3.
    static func randomRotation(_ generator: inout SeededGenerator) -> [Double] {
        let u1 = generator.nextUnit(), u2 = 2 * Double.pi * generator.nextUnit(), u3 = 2 * Double.pi * generator.nextUnit()
        let (a, b) = ((1 - u1).squareRoot(), u1.squareRoot())
        let (x, y, z, w) = (a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3))
        return [
            1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
            2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)
        ]
    }
}
