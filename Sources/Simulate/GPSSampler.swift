import Foundation
import MobilityCore

/// One simulated GPS fix.
struct SimulatedFix {
    var timeSeconds: Double
    var latitude: Double
    var longitude: Double
    var accuracyMeters: Double
}

/// Turns a resident's stays and legs into the fixes a phone logs: every second on the move
/// and every `stillIntervalSeconds` at rest (phones save power when still), with noise that
/// matches the accuracy the phone reports (worse indoors and on trains) and, as GNSS errors
/// do, drifts slowly (a first-order Gauss–Markov process with a 60 s correlation time, so
/// a 1 Hz track is smooth rather than zig-zagging), a lost fix in a
/// tunnel on every train ride, now and then a gap in a car, and rare multipath spikes hundreds
/// of metres off (which the pipeline's cleaning drops).
struct GPSSampler {
    var city: City
    var movingIntervalSeconds = 1.0
    var stillIntervalSeconds = 10.0

    func fixes(stays: [Truth.Stay], legs: [Truth.Leg], generator: inout SeededGenerator) -> [SimulatedFix] {
        var fixes: [SimulatedFix] = []
        for stay in stays {
            var drift = Drift(&generator)
            var time = (stay.startSeconds / stillIntervalSeconds).rounded(.up) * stillIntervalSeconds
            while time < stay.endSeconds {
                let accuracy = generator.uniform(8...20)
                let error = drift.next(afterSeconds: stillIntervalSeconds, sigma: 5, &generator)
                fixes.append(fix(at: time, stay.place.position, error: error, accuracy: accuracy))
                time += stillIntervalSeconds
            }
        }
        for leg in legs {
            let gap = gapRange(leg, &generator)
            var drift = Drift(&generator)
            var offset = 0.0
            while offset <= leg.endSeconds - leg.startSeconds {
                defer { offset += movingIntervalSeconds }
                if gap.contains(offset) { continue }
                let position = leg.path[min(leg.path.count - 1, Int(offset))]
                let accuracy = leg.mode == .train ? generator.uniform(6...15) : generator.uniform(3...8)
                let error = drift.next(afterSeconds: movingIntervalSeconds, sigma: leg.mode == .train ? 6 : 3, &generator)
                var fix = fix(at: leg.startSeconds + offset, position, error: error, accuracy: accuracy)
                if generator.nextUnit() < 0.0005 {
                    fix.latitude += 500 / City.metersPerDegreeLatitude
                }
                fixes.append(fix)
            }
        }
        fixes.sort { $0.timeSeconds < $1.timeSeconds }
        // Legs share their boundary second; a phone logs one fix per time.
        return fixes.enumerated().filter { $0.offset == 0 || fixes[$0.offset - 1].timeSeconds != $0.element.timeSeconds }.map(\.element)
    }

    /// Seconds into the leg without fixes: 2–4 min in a tunnel mid-way on trains, 1–3 min
    /// on a third of car legs.
    private func gapRange(_ leg: Truth.Leg, _ generator: inout SeededGenerator) -> ClosedRange<Double> {
        let duration = leg.endSeconds - leg.startSeconds
        let length: Double
        switch leg.mode {
        case .train: length = generator.uniform(120...240)
        case .car where generator.nextUnit() < 1.0 / 3: length = generator.uniform(60...180)
        default: return -2 ... -1
        }
        guard duration > 3 * length else { return -2 ... -1 }
        let start = generator.uniform(duration / 3...duration / 2)
        return start...(start + length)
    }

    private func fix(at time: Double, _ position: LocalPoint, error: LocalPoint, accuracy: Double) -> SimulatedFix {
        let noisy = LocalPoint(east: position.east + error.east, north: position.north + error.north)
        let (latitude, longitude) = city.coordinates(noisy)
        return SimulatedFix(timeSeconds: time, latitude: latitude, longitude: longitude, accuracyMeters: accuracy)
    }
}

/// A slowly drifting position error, metres east and north (first-order Gauss–Markov).
struct Drift {
    static let correlationSeconds = 60.0
    private var unit: LocalPoint

    init(_ generator: inout SeededGenerator) {
        unit = LocalPoint(east: generator.gaussian(), north: generator.gaussian())
    }

    /// The error `seconds` after the previous one, with standard deviation `sigma` per axis.
    mutating func next(afterSeconds seconds: Double, sigma: Double, _ generator: inout SeededGenerator) -> LocalPoint {
        let rho = exp(-seconds / Self.correlationSeconds), fresh = (1 - rho * rho).squareRoot()
        unit = LocalPoint(east: rho * unit.east + fresh * generator.gaussian(), north: rho * unit.north + fresh * generator.gaussian())
        return LocalPoint(east: sigma * unit.east, north: sigma * unit.north)
    }
}
