import Foundation

/// A stationary interval of a vehicle ride, Unix seconds.
public struct RideStop: Sendable, Hashable {
    public var startSeconds: Double
    public var endSeconds: Double
    public var durationSeconds: Double { endSeconds - startSeconds }
}

/// Finds where a vehicle stood still during a ride from the phone's acceleration alone (gravity
/// or not, any orientation), and from GPS speed where there is GPS.
///
/// A moving train, tram, bus or car shakes the floor at 3–20 Hz (rails, wheels, road, engine
/// under load); a stopped one hardly does. A hand holding the phone moves it mostly below 3 Hz,
/// so the 3–20 Hz band (zero-phase Butterworth high-pass at 3 Hz and low-pass at 20 Hz or
/// 0.45 × the rate) keeps the vehicle and leaves the hand out. Per second of covered time the rms
/// of that band's magnitude, smoothed by a 3 s running median, is compared with levels set from
/// the ride itself, so the phone's noise floor and the vehicle's roughness cancel out: q10 (its
/// 10th percentile, standing) and q50 (its median, running). A stop begins below
/// √(q10·q50) and lasts while the level stays below √(√(q10·q50)·q50), a quarter of the way
/// further up in log scale (hysteresis: a door, a passenger or a hand moving the phone at a
/// station raises the level a little, a departing vehicle raises it to its running level).
/// Stops closer than `bridgeSeconds` join, and one of `minimumSeconds` or more is kept if its
/// mean level is under a third of the running level (10 dB quieter: a ride without any stop
/// has q10 close to q50, and its dips are not stops), unless it touches the start or end of the
/// data or a gap (its start or end was not seen, so neither its time nor its duration is known). A second in which a GPS fix says the device moved
/// faster than `movingMetersPerSecond` is never still.
///
/// Band, percentiles, smoothing and lengths were chosen on the Sensor Logger ride
/// `L4_Chatelet_-_Montparnasse_-_brutal` of `../shared/data/imu/metro` and first checked on
/// `L4_Les_Halles_-_Montparnasse`, where one 45 s stop came out split in two by 4 s of a
/// slightly raised level (recall 0.86, precision 0.75). The hysteresis was added after that,
/// so both rides have now been looked at; `RecordingRidesTests` checks both. The 10 dB rule
/// came from a simulated train ride without stops that gave one false 13 s stop; it changes
/// nothing on the metro rides.
public struct StopDetector: Sendable {
    public var bandHz = (low: 3.0, high: 20.0)
    public var minimumSeconds = 10.0
    public var bridgeSeconds = 3.0
    public var movingMetersPerSecond = 2.0
    /// A stop's mean level is at most this share of the ride's running level (q50).
    public var quietShare = 1.0 / 3

    public init() {}

    /// `pieces`: the ride's gap-free pieces at `rateHz`; `speeds`: GPS speeds (Unix seconds, m/s).
    public func stops(in pieces: [AccelerationPiece], rateHz: Double, speeds: [(seconds: Double, metersPerSecond: Double)] = [])
        -> [RideStop]
    {
        var energies: [(piece: Int, second: Double, rms: Double)] = []
        for (index, piece) in pieces.enumerated() {
            for (offset, rms) in secondRMS(piece, rateHz: rateHz).enumerated() {
                energies.append((index, piece.startSeconds + Double(offset), rms))
            }
        }
        guard energies.count >= 10 else { return [] }
        let smooth = Self.runningMedian3(energies.map(\.rms), pieces: energies.map(\.piece))
        let running = ComfortSummary.quantile(smooth, 0.5)!
        let enter = (ComfortSummary.quantile(smooth, 0.1)! * running).squareRoot(), stay = (enter * running).squareRoot()
        let moving = Set(speeds.filter { $0.metersPerSecond > movingMetersPerSecond }.map { Int($0.seconds.rounded(.down)) })
        var still = [Bool](repeating: false, count: smooth.count)
        for index in smooth.indices where !moving.contains(Int(energies[index].second.rounded(.down))) {
            let continuing = index > 0 && still[index - 1] && energies[index - 1].piece == energies[index].piece
            still[index] = smooth[index] < (continuing ? stay : enter)
        }
        // Runs of still seconds within one piece, joined across short interruptions.
        var runs: [(first: Int, last: Int)] = []
        for index in still.indices where still[index] {
            if let last = runs.last, energies[last.last].piece == energies[index].piece,
                energies[index].second - energies[last.last].second <= bridgeSeconds + 1
            {
                runs[runs.count - 1].last = index
            } else {
                runs.append((index, index))
            }
        }
        return runs.compactMap { run in
            let piece = energies[run.first].piece
            let touchesStart = run.first == 0 || energies[run.first - 1].piece != piece
            let touchesEnd = run.last == energies.count - 1 || energies[run.last + 1].piece != piece
            let stop = RideStop(startSeconds: energies[run.first].second, endSeconds: energies[run.last].second + 1)
            let level = smooth[run.first...run.last].reduce(0, +) / Double(run.last - run.first + 1)
            return touchesStart || touchesEnd || stop.durationSeconds < minimumSeconds || level > quietShare * running ? nil : stop
        }
    }

    /// rms of the 3–20 Hz band of |a| per whole second of the piece (a last partial second is left out).
    func secondRMS(_ piece: AccelerationPiece, rateHz: Double) -> [Double] {
        let perSecond = Int(rateHz.rounded())
        guard piece.count >= perSecond else { return [] }
        let band = [piece.x, piece.y, piece.z].map {
            ZeroPhaseFilter.lowPass(
                ZeroPhaseFilter.highPass($0, rateHz: rateHz, cutoffHz: bandHz.low), rateHz: rateHz, cutoffHz: bandHz.high)
        }
        return stride(from: 0, to: piece.count - perSecond + 1, by: perSecond).map { start in
            var sum = 0.0
            for i in start..<start + perSecond { sum += band[0][i] * band[0][i] + band[1][i] * band[1][i] + band[2][i] * band[2][i] }
            return (sum / Double(perSecond)).squareRoot()
        }
    }

    /// The median of each value and its neighbours in the same piece.
    static func runningMedian3(_ values: [Double], pieces: [Int]) -> [Double] {
        values.indices.map { i in
            let window = (i - 1...i + 1).filter { $0 >= 0 && $0 < values.count && pieces[$0] == pieces[i] }.map { values[$0] }.sorted()
            return window[window.count / 2]
        }
    }

}
