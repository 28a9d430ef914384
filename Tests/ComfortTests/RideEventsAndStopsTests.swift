import Comfort
import Foundation
import MobilityCore
import Testing

/// A metro-like ride built with known stops, brakings and pull-aways, in a phone turned in
/// its pocket: stops of 30 s with only sensor noise; between them 15 s of traction at
/// 1.2 m/s², 60 s of running with 3–20 Hz floor vibration, 15 s of braking at 1.2 m/s².
struct ConstructedRide {
    static let rateHz = 50.0
    static let stopSeconds = 30.0, tractionSeconds = 15.0, runSeconds = 60.0, brakingSeconds = 15.0
    static let hopSeconds = tractionSeconds + runSeconds + brakingSeconds

    /// The known stops (start, end), seconds from the start; the ride starts and ends moving.
    static let stops: [(Double, Double)] = (1...3).map { k in
        let start = Double(k) * hopSeconds + Double(k - 1) * stopSeconds
        return (start, start + stopSeconds)
    }
    static var seconds: Double { 4 * hopSeconds + 3 * stopSeconds }

    /// (phase, acceleration along the track) at time t.
    static func along(_ t: Double) -> (moving: Bool, acceleration: Double) {
        let cycle = hopSeconds + stopSeconds, phase = t.truncatingRemainder(dividingBy: cycle)
        switch phase {
        case ..<tractionSeconds: return (true, 1.2)
        case ..<(tractionSeconds + runSeconds): return (true, 0)
        case ..<hopSeconds: return (true, -1.2)
        default: return (false, 0)
        }
    }

    /// The phone's axes: acceleration with gravity (or gravity-free), rotated by `rotation`.
    static func piece(gravity: Bool, seed: UInt64 = 3, from: Double = 0, to: Double = seconds, rotation: [Double]) -> AccelerationPiece {
        var generator = SeededGenerator(seed: seed)
        var rail = [Double](repeating: 0, count: 3), x: [Double] = [], y: [Double] = [], z: [Double] = []
        for i in Int(from * rateHz)..<Int(to * rateHz) {
            let t = Double(i) / rateHz
            let (moving, forward) = along(t)
            // Floor vibration while moving: white noise through a crude 3–20 Hz band (difference of
            // two first-order smoothers), 0.15 m/s² rms; sensor noise 0.01 m/s² always.
            var v = [0.0, 0, 0]
            for axis in 0..<3 {
                let white = generator.gaussian()
                let fast = rail[axis] + 0.7 * (white - rail[axis])
                v[axis] = moving ? 0.25 * (fast - rail[axis]) : 0
                rail[axis] = fast
            }
            let body = (
                forward + v[0] + 0.01 * generator.gaussian(),
                0.3 * sin(2 * .pi * 0.05 * t) * (moving ? 1 : 0) + v[1] + 0.01 * generator.gaussian(),
                (gravity ? 9.81 : 0) + v[2] + 0.01 * generator.gaussian()
            )
            let r = rotation
            x.append(r[0] * body.0 + r[1] * body.1 + r[2] * body.2)
            y.append(r[3] * body.0 + r[4] * body.1 + r[5] * body.2)
            z.append(r[6] * body.0 + r[7] * body.1 + r[8] * body.2)
        }
        return AccelerationPiece(startSeconds: from, x: x, y: y, z: z)
    }

    static let turned = RideMetricsTests.rotation(axis: (0.3, -0.8, 0.5), degrees: 117)
    static let identity = [1.0, 0, 0, 0, 1, 0, 0, 0, 1]
}

@Suite struct StopAndEventTests {
    @Test(arguments: [true, false]) func stopsBrakingsAndPullAwaysAreFoundInATurnedPhone(gravity: Bool) throws {
        let rate = ConstructedRide.rateHz
        let pieces = [ConstructedRide.piece(gravity: gravity, rotation: ConstructedRide.turned)]
        let stops = StopDetector().stops(in: pieces, rateHz: rate)
        #expect(stops.count == 3)
        for (found, known) in zip(stops, ConstructedRide.stops) {
            #expect(abs(found.startSeconds - known.0) <= 3 && abs(found.endSeconds - known.1) <= 3, "\(found) vs \(known)")
        }
        var frame = try #require(VehicleFrame(pieces: pieces, rateHz: rate, gravityIncluded: gravity))
        #expect(frame.verticalSource == (gravity ? .gravity : .estimated))
        frame.orientForward(stops: stops.map { ($0.startSeconds, $0.endSeconds) }, rateHz: rate)
        #expect(frame.forwardSignKnown && frame.lateralSignKnown == gravity)
        let metrics = RideMetrics(frame: frame, rateHz: rate)
        let pushes = metrics.events.filter { $0.kind == .acceleration && $0.axis == .longitudinal }
        // Four hops: four pull-aways and four brakings, each at the known time, 1.2 m/s².
        #expect(
            pushes.filter { $0.direction == "traction" }.count == 4 && pushes.filter { $0.direction == "braking" }.count == 4,
            "\(pushes.map { "\($0.direction) \($0.startSeconds)" })")
        for braking in pushes where braking.direction == "braking" {
            #expect(abs(braking.peakAccelerationMetersPerSecond2 - 1.2) < 0.1)
            let next = ConstructedRide.stops.map(\.0).first { $0 >= braking.endSeconds - 1 } ?? ConstructedRide.seconds
            #expect(next - braking.endSeconds < 3, "a braking ends as the train stops")
        }
    }

    @Test func countsNeverRiseWithTheThreshold() throws {
        let rate = ConstructedRide.rateHz
        for seed in UInt64(1)...6 {
            let piece = ConstructedRide.piece(gravity: true, seed: seed, from: 0, to: 240, rotation: ConstructedRide.identity)
            // Random pushes on top: a random walk of the acceleration, so excursions come in every size.
            var generator = SeededGenerator(seed: seed * 31)
            var level = 0.0
            let x = piece.x.map { value -> Double in
                level = 0.995 * level + 0.08 * generator.gaussian()
                return value + level
            }
            let frame = try #require(
                VehicleFrame(
                    pieces: [AccelerationPiece(startSeconds: 0, x: x, y: piece.y, z: piece.z)], rateHz: rate,
                    gravityIncluded: true))
            var previous = (acceleration: Int.max, jerk: Int.max)
            for step in 0...30 {
                var parameters = RideMetrics.Parameters()
                parameters.accelerationThresholdMetersPerSecond2 = 0.3 + 0.1 * Double(step)
                parameters.jerkThresholdMetersPerSecond3 = 0.3 + 0.1 * Double(step)
                let events = RideMetrics(frame: frame, rateHz: rate, parameters: parameters).events
                let counts = (events.filter { $0.kind == .acceleration }.count, events.filter { $0.kind == .jerk }.count)
                #expect(counts.0 <= previous.acceleration && counts.1 <= previous.jerk, "seed \(seed), threshold step \(step)")
                previous = counts
            }
        }
    }

    @Test func gpsSpeedVetoesAQuietStretch() {
        // A smooth, quiet stretch while GPS says 10 m/s (a coasting train on welded rail) is no stop.
        let piece = ConstructedRide.piece(gravity: true, rotation: ConstructedRide.identity)
        let (start, end) = ConstructedRide.stops[1]
        let speeds = stride(from: start, to: end, by: 1.0).map { (seconds: $0, metersPerSecond: 10.0) }
        let stops = StopDetector().stops(in: [piece], rateHz: ConstructedRide.rateHz, speeds: speeds)
        #expect(stops.count == 2 && !stops.contains { $0.startSeconds >= start - 3 && $0.endSeconds <= end + 3 })
    }

    @Test func aRideWithoutAStopHasNone() {
        // The first hop alone: pull away, run, brake, cut before the train stands.
        let piece = ConstructedRide.piece(gravity: true, from: 0, to: ConstructedRide.hopSeconds - 1, rotation: ConstructedRide.turned)
        #expect(StopDetector().stops(in: [piece], rateHz: ConstructedRide.rateHz).isEmpty)
    }

    @Test func aStopAtTheEdgeOfTheDataIsNotReported() {
        // The same ride cut inside its first stop: that stop's start was not seen.
        let cut = ConstructedRide.stops[0].0 + 10
        let piece = ConstructedRide.piece(gravity: true, from: cut, to: ConstructedRide.seconds, rotation: ConstructedRide.identity)
        let stops = StopDetector().stops(in: [piece], rateHz: ConstructedRide.rateHz)
        #expect(stops.count == 2 && stops.allSatisfy { $0.startSeconds > ConstructedRide.stops[0].1 })
    }
}

@Suite struct CoveredTimeTests {
    func sine(seconds: Double, from start: Double, rate: Double, frequency: Double = 4, amplitude: Double = 0.5) -> AccelerationPiece {
        let n = Int(seconds * rate)
        let z = (0..<n).map { 9.81 + amplitude * sin(2 * .pi * frequency * Double($0) / rate) }
        return AccelerationPiece(startSeconds: start, x: Array(repeating: 0, count: n), y: Array(repeating: 0, count: n), z: z)
    }

    @Test func aGapIsNeitherFilledNorCounted() throws {
        let rate = 50.0
        let whole = try #require(VehicleFrame(pieces: [sine(seconds: 240, from: 0, rate: rate)], rateHz: rate, gravityIncluded: true))
        let split = try #require(
            VehicleFrame(
                pieces: [sine(seconds: 120, from: 0, rate: rate), sine(seconds: 120, from: 1_000, rate: rate)],
                rateHz: rate, gravityIncluded: true))
        let a = RideMetrics(frame: whole, rateHz: rate), b = RideMetrics(frame: split, rateHz: rate)
        #expect(a.seconds == 240 && b.seconds == 240, "covered seconds only, the 760 s gap not counted")
        // The filters restart on each piece and settle for 5 s each time: 235 s and 230 s weighted.
        #expect(a.weightedSeconds == 235 && b.weightedSeconds == 230)
        #expect(abs(b.vertical.rms / a.vertical.rms - 1) < 0.005 && abs(b.vertical.mtvv / a.vertical.mtvv - 1) < 0.01)
        #expect(abs(b.vertical.vdv / a.vertical.vdv - pow(230.0 / 235, 0.25)) < 0.002, "a dose over the covered time only")
        #expect(a.ccZ.count == 47 && b.ccZ.count == 46)
    }

    @Test func aShortRideGetsAPartialNMV() throws {
        let rate = 50.0
        let frame = try #require(VehicleFrame(pieces: [sine(seconds: 180, from: 0, rate: rate)], rateHz: rate, gravityIncluded: true))
        let metrics = RideMetrics(frame: frame, rateHz: rate)
        // 180 s less the 5 s settling: 35 5 s values, 2.92 minutes.
        #expect(metrics.nmvPartial && abs(metrics.nmvMinutes - 35.0 / 12) < 1e-9 && metrics.nmvBlocks.count == 1)
        // N_MV from the 5 s values it has: 6 × P95(C_Cz), x and y quiet.
        let expected = 6 * RideMetrics.percentile95(metrics.ccZ)
        #expect(abs(metrics.nmv! - expected) < 1e-9 && metrics.ccZ.count == 35)
        // C_Cz of a steady 4 Hz sine: its amplitude × Wb(4 Hz) / √2, Wb(4 Hz) = 0.8891 by the reference implementation.
        #expect(abs(metrics.ccZ[10] / (0.5 * 0.8891 / 2.squareRoot()) - 1) < 0.02)
        let long = try #require(VehicleFrame(pieces: [sine(seconds: 330, from: 0, rate: rate)], rateHz: rate, gravityIncluded: true))
        let full = RideMetrics(frame: long, rateHz: rate)
        #expect(!full.nmvPartial && full.nmvMinutes == 5 && full.nmvBlocks.count == 1)
    }

    @Test func aMetricThatIsNotANumberIsNotMeasured() throws {
        let rate = 50.0
        guard var frame = VehicleFrame(pieces: [sine(seconds: 120, from: 0, rate: rate)], rateHz: rate, gravityIncluded: true) else {
            Issue.record("no frame")
            return
        }
        frame.pieces[0].vertical[1000] = .nan
        let metrics = RideMetrics(frame: frame, rateHz: rate)
        #expect(!metrics.totalValue.isFinite && metrics.comfortBand == nil && metrics.nmvClass == nil)
    }
}
