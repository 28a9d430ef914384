import Fusion
import MobilityCore
import Testing
import Trips

/// Flights and jumps cut out of legs (`FlightsAndJumps`), on tracks built east along the
/// equator at known speeds.
@Suite struct FlightsAndJumpsTests {
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A track of `(seconds, m/s)` stretches with a fix every `every` seconds, starting at 0° 0°.
    static func track(_ stretches: [(seconds: Double, speed: Double, every: Double)]) -> DeviceTrack {
        var points = [TrackPoint(timeSeconds: 1_700_000_000, latitudeDegrees: 0, longitudeDegrees: 0)]
        for stretch in stretches {
            for _ in 0..<Int(stretch.seconds / stretch.every) {
                let last = points.last!
                points.append(
                    TrackPoint(
                        timeSeconds: last.timeSeconds + stretch.every, latitudeDegrees: 0,
                        longitudeDegrees: last.longitudeDegrees + stretch.speed * stretch.every / metresPerDegree))
            }
        }
        return DeviceTrack(device: "pat", points: points)
    }

    static func legs(_ track: DeviceTrack, mode: Mode = .train) -> [Tripleg] {
        let last = track.points.count - 1
        let distance = (0..<last).reduce(0) { $0 + TrackPoint.distanceMeters(track.points[$1], track.points[$1 + 1]) }
        var legs = [
            Tripleg(
                device: track.device, firstFix: 0, lastFix: last, startSeconds: track.points[0].timeSeconds,
                endSeconds: track.points[last].timeSeconds, distanceMeters: distance, mode: mode, modeSource: .gpsRules,
                previousStaypoint: 0, nextStaypoint: 1)
        ]
        LegFusion(legModel: nil, imuClasses: []).apply(track, legs: &legs, imuSpans: [])
        return legs
    }

    @Test func aFlightBetweenTwoRidesIsAnAirplaneLegOfItsOwn() {
        // 20 min at 25 m/s to the airport, 2 h at 200 m/s with a fix a minute, 20 min at 25 m/s.
        let track = Self.track([(1200, 25, 5), (7200, 200, 60), (1200, 25, 5)])
        let legs = Self.legs(track)
        #expect(legs.map(\.mode) == [.train, .airplane, .train])
        #expect(legs[1].modeSource == .plausibility && abs(legs[1].distanceMeters - 1_440_000) < 1_000)
        #expect(legs[0].previousStaypoint == 0 && legs[2].nextStaypoint == 1 && legs[1].previousStaypoint == nil)
        #expect(legs[0].lastFix == legs[1].firstFix && legs[1].lastFix == legs[2].firstFix, "the pieces share their boundary fixes")
        let total = legs.reduce(0) { $0 + $1.distanceMeters }
        #expect(abs(total - (30_000 + 1_440_000 + 30_000)) < 1_000, "the distances add up")
    }

    @Test func aJumpNoModeReachesIsALegWithoutAMode() {
        // A car at 15 m/s, then 35 km in 62 s (565 m/s), then the car again.
        var track = Self.track([(600, 15, 5)])
        var points = track.points.array
        let jumped = TrackPoint(
            timeSeconds: points.last!.timeSeconds + 62, latitudeDegrees: 0,
            longitudeDegrees: points.last!.longitudeDegrees + 35_000 / Self.metresPerDegree)
        points.append(jumped)
        for step in 1...120 {
            points.append(
                TrackPoint(
                    timeSeconds: jumped.timeSeconds + Double(step * 5), latitudeDegrees: 0,
                    longitudeDegrees: jumped.longitudeDegrees + Double(step) * 75 / Self.metresPerDegree))
        }
        track = DeviceTrack(device: "pat", points: points)
        let legs = Self.legs(track, mode: .car)
        #expect(legs.map(\.mode) == [.car, nil, .car])
        #expect(legs[1].modeSource == .plausibility && legs[1].fixCount == 2 && abs(legs[1].distanceMeters - 35_000) < 50)
    }

    @Test func theFastestTrainsAndReceiverNoiseStayAsTheyAre() {
        // 300 km/h (83 m/s) for 30 min: a high-speed train, not a flight.
        #expect(Self.legs(Self.track([(1800, 83, 1)])).map(\.mode) == [.train])
        // A 500 m hop in one second (500 m/s) is noise, not a jump: under 1 km.
        #expect(Self.legs(Self.track([(60, 10, 1), (1, 500, 1), (60, 10, 1)]), mode: .car).map(\.mode) == [.car])
        // Faster than ground for a few km only (a noisy stretch): under 20 km, no flight.
        #expect(Self.legs(Self.track([(300, 20, 5), (60, 150, 5), (300, 20, 5)])).map(\.mode) == [.train])
    }
}
