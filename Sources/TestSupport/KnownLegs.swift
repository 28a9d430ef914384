import Features
import Foundation
import MobilityCore

/// Legs with known modes, for the GPS leg model's and the fusion's tests: walkers at
/// 1.2-1.6 m/s, cyclists at 4-6 m/s, buses that stop every 400 m and cruise at 11 m/s, trains
/// at 20-25 m/s with a stop every 2 km, along a wavy line north-east of 47° N 8° E.
public enum KnownLegs {
    public static let start = 1_700_000_000.0
    public static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A 1 Hz leg of `seconds` along a wavy line north-east, at the speed `speed(t)` gives.
    public static func fixes(from start: Double, seconds: Double, speed: (Double) -> Double) -> [PositionFix] {
        var travelled = 0.0, fixes: [PositionFix] = []
        for t in stride(from: 0.0, through: seconds, by: 1) {
            if t > 0 { travelled += speed(t - 1) }
            let north = travelled * 0.8, east = travelled * 0.6 + 30 * sin(travelled / 300)
            fixes.append(
                PositionFix(
                    time: Timestamp(secondsSince1970: start + t), latitudeDegrees: 47 + north / metresPerDegree,
                    longitudeDegrees: 8 + east / (metresPerDegree * cos(47 * Double.pi / 180))))
        }
        return fixes
    }

    public static func speed(of mode: Mode, variant: Double) -> (Double) -> Double {
        switch mode {
        case .walk: return { _ in 1.2 + 0.4 * variant }
        case .bike: return { _ in 4 + 2 * variant }
        case .bus: return { t in t.truncatingRemainder(dividingBy: 66) < 36 ? 11 : 0 } // 396 m, then 30 s at a stop
        default: return { t in t.truncatingRemainder(dividingBy: 150) < 90 ? 20 + 5 * variant : 0 } // ~2 km, then a minute stopped
        }
    }

    /// Legs of `people`, each with two legs of every mode, as recorded and thinned.
    public static func legs(people: [String], thinningSeconds: [Double]) -> LegTable {
        var table = LegTable()
        for (p, person) in people.enumerated() {
            var recording = Recording(trace: "\(person).gpx", device: person)
            var clock = start + Double(p) * 100_000
            for (m, mode) in [Mode.walk, .bike, .bus, .train].enumerated() {
                for copy in 0..<2 {
                    let seconds = 600.0 + 60 * Double(copy)
                    recording.fixes += fixes(from: clock, seconds: seconds, speed: speed(of: mode, variant: Double((p + m + copy) % 3) / 2))
                    recording.labels.append(
                        LabelInterval(
                            device: person, start: Timestamp(secondsSince1970: clock),
                            end: Timestamp(secondsSince1970: clock + seconds), rawName: mode.rawValue, source: "labels_file"))
                    clock += seconds + 300
                }
            }
            for every in [nil] + thinningSeconds.map(Optional.some) { table.append(LabelledLegs.of(recording, everySeconds: every)) }
        }
        return table
    }
}
