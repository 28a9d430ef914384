import Foundation
import MobilityCore

/// Features of one leg of movement (the fixes between two stops, or under one label), the
/// inputs of the GPS leg model. They are built to read the same from one fix a second to one
/// fix a minute:
///
/// - Speeds are measured over chords of at least `chordSeconds` (30 s): the fixes are thinned
///   so that consecutive kept fixes are that far apart, and each chord's speed is weighted by
///   its duration. At 1 Hz this removes the metres of position jitter that read as running;
///   at one fix a minute every fix is kept and the chords are a minute long.
/// - Turning and stopping are counted per kilometre, not per second, so a slower sampling
///   rate does not read as a straighter or steadier way of travelling.
///
/// With transit geofences given (`transitDistanceMeters`: stations, bus stops, rail corridors
/// the user knows), the distances of the leg's two ends from the nearest of them, nearer and
/// farther: a train leg starts and ends at stations, a car leg rarely does. Without them those
/// two columns are missing (NaN), and a model trained without them ignores them.
///
/// `names` are the columns, in order. The average speed (path length over duration, all fixes)
/// is trackintel's tripleg speed, the baseline's only input (`TrackintelBaseline`).
public struct LegFeatures: Sendable {
    public static let names = [
        "leg_speed_mps", "leg_speed_p50_mps", "leg_speed_p85_mps", "leg_speed_p95_mps", "leg_accel_p85_mps2",
        "leg_slow_share", "leg_stops_per_km", "leg_turn_deg_per_km", "leg_straightness", "leg_distance_km", "leg_duration_min",
        "leg_transit_end_near_m", "leg_transit_end_far_m"
    ]
    public static var count: Int { names.count }
    /// The columns that need transit geofences.
    public static let transitColumns = [names.count - 2, names.count - 1]

    /// Metres from a position (latitude, longitude in degrees) to the nearest transit geofence
    /// (0 inside one); nil when no geofences were given.
    public var transitDistanceMeters: (@Sendable (Double, Double) -> Double)?

    /// Shortest chord a speed is measured over, seconds. Default 30.
    public var chordSeconds = 30.0
    /// Below this chord speed the device counts as stopped, m/s (`RuleClassifier.stillSpeedMps`'s source: half the
    /// slowest comfortable walking speed, rounded down for jitter).
    public var slowSpeedMps = 0.6
    /// Chords shorter than this do not count for turning, metres (a standing receiver's jitter).
    public var minimumTurnChordMeters = 10.0

    public init() {}

    /// The features of `fixes` (in time order, all with times), or nil when they do not make
    /// two chords (too few fixes or too short a time to say how the device moved).
    public func compute(_ fixes: ArraySlice<PositionFix>) -> [Double]? { features(fixes) }

    /// The same for a leg of a device's track, its fixes read one at a time (no copy of the leg).
    public func compute(_ fixes: Slice<TrackFixes>) -> [Double]? { features(fixes) }

    func features<Fixes: BidirectionalCollection<PositionFix>>(_ fixes: Fixes) -> [Double]? {
        guard let first = fixes.first?.time, let last = fixes.last?.time, first.seconds(until: last) > 0 else { return nil }
        let kept = chordEnds(fixes)
        guard kept.count >= 3 else { return nil }
        var speeds: [Double] = [], durations: [Double] = [], lengths: [Double] = []
        for (a, b) in zip(kept, kept.dropFirst()) {
            let seconds = a.time!.seconds(until: b.time!), meters = Geodesy.distanceMeters(a, b)
            speeds.append(meters / seconds)
            durations.append(seconds)
            lengths.append(meters)
        }
        let duration = first.seconds(until: last)
        let chordMeters = lengths.reduce(0, +), kilometres = max(chordMeters / 1000, 0.01)
        var accelerations: [Double] = []
        for i in 1..<speeds.count {
            let seconds = (durations[i] + durations[i - 1]) / 2
            accelerations.append(abs(speeds[i] - speeds[i - 1]) / seconds)
        }
        let slow = zip(speeds, durations).reduce(0.0) { $0 + ($1.0 < slowSpeedMps ? $1.1 : 0) }
        var stops = 0
        for i in speeds.indices where speeds[i] < slowSpeedMps && (i == 0 || speeds[i - 1] >= slowSpeedMps) { stops += 1 }
        let displacement = Geodesy.distanceMeters(kept.first!, kept.last!)
        let ends =
            transitDistanceMeters.map { distance in
                [fixes.first!, fixes.last!].map { distance($0.latitudeDegrees, $0.longitudeDegrees) }.sorted()
            } ?? [.nan, .nan]
        return [
            pathMeters(fixes) / duration,
            Quantile.weighted(speeds, weights: durations, 0.50),
            Quantile.weighted(speeds, weights: durations, 0.85),
            Quantile.weighted(speeds, weights: durations, 0.95),
            Quantile.of(accelerations, 0.85) ?? 0,
            slow / durations.reduce(0, +),
            Double(stops) / kilometres,
            turnDegrees(kept) / kilometres,
            chordMeters > 0 ? min(1, displacement / chordMeters) : 0,
            chordMeters / 1000,
            duration / 60,
            ends[0],
            ends[1]
        ]
    }

    /// The fixes kept as chord ends: the first, then each fix at least `chordSeconds` after
    /// the last kept one; the last fix replaces the last kept one when it would make a chord
    /// shorter than half `chordSeconds`, so the leg's end is always in.
    func chordEnds<Fixes: BidirectionalCollection<PositionFix>>(_ fixes: Fixes) -> [PositionFix] {
        var kept = [fixes.first!]
        for fix in fixes.dropFirst() where kept.last!.time!.seconds(until: fix.time!) >= chordSeconds { kept.append(fix) }
        let last = fixes.last!
        if kept.last! != last {
            if kept.count > 1, kept.last!.time!.seconds(until: last.time!) < chordSeconds / 2 {
                kept[kept.count - 1] = last
            } else {
                kept.append(last)
            }
        }
        return kept
    }

    /// Length along every fix, metres (trackintel's tripleg length).
    func pathMeters<Fixes: Collection<PositionFix>>(_ fixes: Fixes) -> Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + Geodesy.distanceMeters($1.0, $1.1) }
    }

    /// Sum of the turns between consecutive chords at least `minimumTurnChordMeters` long, degrees.
    func turnDegrees(_ kept: [PositionFix]) -> Double {
        var total = 0.0, lastBearing: Double?
        for (a, b) in zip(kept, kept.dropFirst()) where Geodesy.distanceMeters(a, b) >= minimumTurnChordMeters {
            let bearing = GPSFeatures.bearingDegrees(a, b)
            if let last = lastBearing {
                let turn = abs(bearing - last).truncatingRemainder(dividingBy: 360)
                total += min(turn, 360 - turn)
            }
            lastBearing = bearing
        }
        return total
    }
}
