import Foundation
import MobilityCore

/// Phone accelerometer and gyroscope signals with known content, for tests and benchmarks:
/// gravity plus what a mode does to a phone (steps at 2 Hz with harmonics for walking, broad
/// road vibration for a car, sensor noise for still), optionally turned by a rotation so that
/// orientation invariance can be checked.
public struct SyntheticIMU {
    public enum Motion: Sendable { case still, walk, car, sine(frequencyHz: Double, amplitude: Double) }

    public var rateHz = 50.0
    /// Row-major 3×3 rotation applied to every vector (phone orientation).
    public var rotation: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    public var seed: UInt64 = 1

    public init(rateHz: Double = 50, seed: UInt64 = 1) {
        self.rateHz = rateHz
        self.seed = seed
    }

    /// A rotation by `degrees` about the unit axis (x, y, z) (Rodrigues' formula).
    public static func rotation(axis: (Double, Double, Double), degrees: Double) -> [Double] {
        let norm = (axis.0 * axis.0 + axis.1 * axis.1 + axis.2 * axis.2).squareRoot()
        let (x, y, z) = (axis.0 / norm, axis.1 / norm, axis.2 / norm)
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle), t = 1 - c
        return [
            t * x * x + c, t * x * y - s * z, t * x * z + s * y,
            t * x * y + s * z, t * y * y + c, t * y * z - s * x,
            t * x * z - s * y, t * y * z + s * x, t * z * z + c
        ]
    }

    /// `seconds` of samples from `start`: accelerometer (m/s², with gravity) and gyroscope (rad/s).
    public func streams(_ motion: Motion, seconds: Double, start: Double = 1_700_000_000) -> [IMUSensor: [IMUSample]] {
        var generator = SeededGenerator(seed: seed)
        let count = Int(seconds * rateHz)
        var accelerometer: [IMUSample] = [], gyroscope: [IMUSample] = []
        accelerometer.reserveCapacity(count)
        gyroscope.reserveCapacity(count)
        var road = (0.0, 0.0, 0.0)
        for i in 0..<count {
            let t = Double(i) / rateHz
            let noise = { (scale: Double) in (generator.nextUnit() - 0.5) * 2 * scale }
            var a = (noise(0.02), noise(0.02), 9.81 + noise(0.02)), w = (noise(0.005), noise(0.005), noise(0.005))
            switch motion {
            case .still:
                break
            case .walk:
                let phase = 2 * Double.pi * 2 * t
                a.2 += 2.5 * sin(phase) + 0.8 * sin(2 * phase + 0.4)
                a.0 += 1.2 * sin(phase / 2)
                a.1 += 0.6 * sin(phase + 1)
                w = (w.0 + 0.8 * sin(phase / 2), w.1 + 0.5 * sin(phase), w.2 + 0.3 * sin(phase / 2 + 0.7))
            case .car:
                road = (0.9 * road.0 + noise(0.25), 0.9 * road.1 + noise(0.25), 0.8 * road.2 + noise(0.5))
                a = (a.0 + road.0 + 0.3 * sin(0.2 * t), a.1 + road.1, a.2 + road.2)
                w = (w.0 + 0.02 * sin(0.3 * t), w.1 + noise(0.03), w.2 + 0.05 * sin(0.1 * t))
            case .sine(let frequency, let amplitude):
                a.2 += amplitude * sin(2 * Double.pi * frequency * t)
            }
            let time = Timestamp(secondsSince1970: start + t)
            let ra = rotate(a), rw = rotate(w)
            accelerometer.append(IMUSample(time: time, x: ra.0, y: ra.1, z: ra.2))
            gyroscope.append(IMUSample(time: time, x: rw.0, y: rw.1, z: rw.2))
        }
        return [.accelerometer: accelerometer, .gyroscope: gyroscope]
    }

    private func rotate(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
        let r = rotation
        return (r[0] * v.0 + r[1] * v.1 + r[2] * v.2, r[3] * v.0 + r[4] * v.1 + r[5] * v.2, r[6] * v.0 + r[7] * v.1 + r[8] * v.2)
    }
}
