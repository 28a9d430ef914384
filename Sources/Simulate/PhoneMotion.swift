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
public struct PhoneMotion {
    public let rateHz: Double
    private var generator: SeededGenerator
    private let rotation: [Double]
    private let stepHz: Double, cadenceHz: Double, engineHz: Double
    private var bounce: Resonance, sway: Resonance, rail: Resonance, road: Resonance
    private var sample = 0
    /// The thigh's angle at the last sample, radians (0 unless walking or cycling).
    private var tilt = 0.0

    public init(rateHz: Double, seed: UInt64) {
        self.rateHz = rateHz
        var generator = SeededGenerator(seed: seed)
        rotation = Self.randomRotation(&generator)
        stepHz = generator.uniform(1.8...2.1)
        cadenceHz = generator.uniform(65...85) / 60
        engineHz = generator.uniform(20...24)
        bounce = Resonance(frequencyHz: generator.uniform(1.2...1.8), rateHz: rateHz, standardDeviation: 0.3)
        sway = Resonance(frequencyHz: generator.uniform(0.6...1.1), rateHz: rateHz, standardDeviation: 0.25)
        rail = Resonance(frequencyHz: generator.uniform(8...15), rateHz: rateHz, standardDeviation: 0.15, sharpness: 0.8)
        road = Resonance(frequencyHz: generator.uniform(6...12), rateHz: rateHz, standardDeviation: 0.8, sharpness: 0.6)
        self.generator = generator
    }

    /// The next sample: accelerometer and gyroscope, each (x, y, z) in the phone's frame.
    public mutating func next(_ mode: Mode) -> (acceleration: (Double, Double, Double), rotation: (Double, Double, Double)) {
        let t = Double(sample) / rateHz
        sample += 1
        var a = (noise(0.015), noise(0.015), 9.81 + noise(0.015))
        var w = (noise(0.003), noise(0.003), noise(0.003))
        tilt = 0
        switch mode {
        case .still, .boat, .airplane:
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
            a.1 += 0.6 * sin(phase) + 0.4 * road.next(&generator)
            a.2 += 0.4 * sin(2 * phase) + road.next(&generator)
            a.0 += 0.3 * sin(2 * Double.pi * 0.1 * t) + 0.4 * road.next(&generator)
            w = (w.0 + 0.3 * sin(phase) + noise(0.05), w.1 + noise(0.05), w.2 + 0.1 * sin(phase + 0.5))
            swingThigh(&a, &w, phase: phase, rateHz: cadenceHz)
        case .car, .bus:
            let engine = 0.05 * sin(2 * Double.pi * engineHz * t)
            a.0 += 0.6 * sin(2 * Double.pi * 0.05 * t) + 0.3 * sway.next(&generator) + 0.3 * road.next(&generator) + engine
            a.1 += 0.4 * sway.next(&generator) + 0.3 * road.next(&generator) + engine
            a.2 += bounce.next(&generator) + 0.3 * road.next(&generator) + engine
            w = (w.0 + 0.02 * sin(0.3 * t), w.1 + noise(0.02), w.2 + 0.05 * sin(0.1 * t))
        case .train:
            a.0 += 0.3 * sin(2 * Double.pi * 0.02 * t) + 0.3 * rail.next(&generator)
            a.1 += sway.next(&generator) + 0.5 * rail.next(&generator)
            a.2 += 0.5 * bounce.next(&generator) + rail.next(&generator)
            w = (w.0 + 0.02 * sway.next(&generator), w.1 + noise(0.01), w.2 + 0.01 * sin(0.05 * t))
        }
        return (rotate(a), rotate(w))
    }

    /// Thigh swing amplitude, radians: ±20°.
    static let thighSwingRadians = 0.35

    /// `a`, `w` and `tilt` as a phone in a trouser pocket has them while the thigh swings by
    /// θ = 0.35·sin(`phase`) about the lateral (y) axis at `rateHz` cycles a second: the
    /// acceleration turned by θ, and the swing's rate dθ/dt added about y.
    private mutating func swingThigh(_ a: inout (Double, Double, Double), _ w: inout (Double, Double, Double), phase: Double, rateHz: Double) {
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
        return [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]
    }
}
