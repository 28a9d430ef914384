import MobilityCore
import Trips

/// Speeds that name a mode, or no mode, whatever the windows said: a stretch of a leg whose
/// fixes move faster than any ground service (`TravelSpeeds.fastestGroundMetersPerSecond`, 100
/// m/s) for `TravelSpeeds.shortestFlightMeters` (20 km) or more is a flight, `airplane`; two
/// consecutive fixes farther apart than the fastest passenger travels
/// (`TravelSpeeds.fastestAnyModeMetersPerSecond`, 350 m/s) over at least
/// `TravelSpeeds.shortestJumpMeters` (1 km) are a jump in the data, a leg of its own with no
/// mode. Both are cut out of their leg before the rest is decided (decider `plausibility`), so
/// a flight never counts as train and a jump never as a car ride.
///
/// - Complexity: O(fixes of the leg).
public struct FlightsAndJumps: Sendable {
    public var fastestGroundMetersPerSecond = TravelSpeeds.fastestGroundMetersPerSecond
    public var shortestFlightMeters = TravelSpeeds.shortestFlightMeters
    public var fastestAnyModeMetersPerSecond = TravelSpeeds.fastestAnyModeMetersPerSecond
    public var shortestJumpMeters = TravelSpeeds.shortestJumpMeters

    public init() {}

    /// `leg` with its flights and jumps cut out as legs of their own; `[leg]` when it has none.
    public func cut(_ leg: Tripleg, track: DeviceTrack) -> [Tripleg] {
        guard leg.lastFix > leg.firstFix else { return [leg] }
        let points = track.points
        var stretches: [(first: Int, last: Int, mode: Mode?, source: Decider?, note: String?)] = []
        var flight: (first: Int, meters: Double)?
        func closeFlight(at last: Int) {
            if let run = flight, run.meters >= shortestFlightMeters {
                let seconds = points[last].timeSeconds - points[run.first].timeSeconds
                stretches.append(
                    (
                        run.first, last, .airplane, .plausibility,
                        String(
                            format: "flight: %.0f km at %.0f m/s, above any ground service (%.0f m/s)", run.meters / 1000,
                            run.meters / max(seconds, 1),
                            fastestGroundMetersPerSecond)
                    ))
            }
            flight = nil
        }
        for index in leg.firstFix..<leg.lastFix {
            let meters = TrackPoint.distanceMeters(points[index], points[index + 1])
            let seconds = points[index + 1].timeSeconds - points[index].timeSeconds
            let speed = seconds > 0 ? meters / seconds : .infinity
            if speed > fastestAnyModeMetersPerSecond, meters >= shortestJumpMeters {
                closeFlight(at: index)
                stretches.append(
                    (
                        index, index + 1, nil, .plausibility,
                        String(
                            format:
                                "jump: %.1f km in %.0f s, faster than any passenger travels (%.0f m/s): a receiver's relocation or a clock error, not travel",
                            meters / 1000, seconds, fastestAnyModeMetersPerSecond)
                    ))
            } else if speed > fastestGroundMetersPerSecond {
                flight = (flight?.first ?? index, (flight?.meters ?? 0) + meters)
            } else {
                closeFlight(at: index)
            }
        }
        closeFlight(at: leg.lastFix)
        return leg.cut(at: stretches, points: points)
    }
}
