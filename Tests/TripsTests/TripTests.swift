import MobilityCore
import Testing
@testable import Trips

@Suite struct TripTests {
    /// Home 30 min, walk 5 min, drive 10 min, walk 3 min, work 30 min.
    func commute() -> TrackScript {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(400, 0), speedMetersPerSecond: 1.35, mode: .walk)
        script.move(to: SIMD2(6400, 0), speedMetersPerSecond: 10, mode: .car)
        script.move(to: SIMD2(6640, 0), speedMetersPerSecond: 1.35, mode: .walk)
        script.stay(1800)
        return script
    }

    let fences = [
        TrackScript.circle("home", at: SIMD2(0, 0), radius: 100, kind: "home"),
        TrackScript.circle("work", at: SIMD2(6640, 0), radius: 100, kind: "work")
    ]

    func analyse(_ script: TrackScript, includeLast: Bool = true) -> DeviceTrips {
        var parameters = TripStageParameters()
        parameters.staypoints.includeLast = includeLast
        return TripAnalysis(parameters: parameters).analyse(script.track(), geofences: fences, modes: script.timeline)
    }

    @Test func aCommuteIsOneTripOfWalkCarWalkLegsBetweenHomeAndWork() throws {
        let result = analyse(commute())
        #expect(result.staypoints.count == 2 && result.isActivity == [true, true])
        #expect(result.triplegs.map(\.mode) == [.walk, .car, .walk])
        #expect(result.trips.count == 1)
        let trip = try #require(result.trips.first)
        #expect(trip.mainMode == .car && trip.legs == [0, 1, 2])
        #expect(trip.originStaypoint == 0 && trip.destinationStaypoint == 1)
        #expect(trip.originGeofence == "home" && trip.destinationGeofence == "work")
        // About 6.5 km of the 6.64 km: the first and last 100 m lie inside the stays.
        #expect(trip.distanceMeters > 6300 && trip.distanceMeters < 6640)
        let car = result.triplegs[1]
        #expect(car.durationSeconds > 570 && car.durationSeconds < 630 && car.distanceMeters > 5900)
        #expect(result.dwells.map(\.geofenceID) == ["home", "work"])
    }

    @Test func aOneWindowModeBlipDoesNotMakeALeg() {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(700, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.move(to: SIMD2(760, 0), speedMetersPerSecond: 3, mode: .bike) // 20 s
        script.move(to: SIMD2(1500, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(1800)
        let result = analyse(script)
        #expect(result.triplegs.map(\.mode) == [.walk])
        #expect(result.trips.count == 1 && result.trips[0].mainMode == .walk)
    }

    @Test func fixesNoClassifierCoveredTakeTheirNeighboursMode() {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(3000, 0), speedMetersPerSecond: 10, mode: .car)
        script.spans = []
        let result = analyse(script, includeLast: false)
        #expect(result.triplegs.count == 1 && result.triplegs[0].mode == nil && result.trips[0].mainMode == nil)
        let partial = TripAnalysis().analyse(
            script.track(), geofences: [],
            modes: ModeTimeline(layers: [[ModeSpan(startSeconds: 1_700_002_000, endSeconds: 1_700_002_100, mode: .car, source: .model)]]))
        #expect(partial.triplegs.map(\.mode) == [.car] && partial.triplegs[0].modeSource == .model)
    }

    @Test func aTraceWithNoStayIsOneTripWithoutOriginOrDestination() throws {
        var script = TrackScript()
        script.move(to: SIMD2(5000, 0), speedMetersPerSecond: 5, mode: .bike)
        let result = analyse(script)
        #expect(result.staypoints.isEmpty && result.triplegs.count == 1)
        let trip = try #require(result.trips.first)
        #expect(result.trips.count == 1 && trip.originStaypoint == nil && trip.destinationStaypoint == nil && trip.mainMode == .bike)
    }

    @Test func aShortStopInsideAGeofenceIsAnActivityButOneOutsideIsNot() {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(2000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(420) // 7 min at a shop (a geofence): a destination
        script.move(to: SIMD2(4000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(420) // 7 min at a crossing (no geofence): part of the trip
        script.move(to: SIMD2(6000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(1800)
        let shop = TrackScript.circle("shop", at: SIMD2(2000, 0), radius: 60, kind: "shop")
        var parameters = TripStageParameters()
        parameters.staypoints.includeLast = true
        let result = TripAnalysis(parameters: parameters).analyse(script.track(), geofences: [shop], modes: script.timeline)
        #expect(result.staypoints.count == 4 && result.isActivity == [true, true, false, true])
        #expect(result.trips.count == 2 && result.trips[1].legs.count == 2)
        #expect(result.trips[0].destinationGeofence == "shop" && result.trips[1].originGeofence == "shop")
    }

    /// The phone is quiet for an hour and wakes 500 m on: where the person was is not known, so
    /// the trips end and begin at the fixes around the gap (their last and first).
    @Test func aGapThatEndsElsewhereEndsTheTripAtItsLastFix() throws {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(2000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.gap(3600)
        script.position = SIMD2(2500, 0)
        script.move(to: SIMD2(4000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(1800)
        let result = analyse(script)
        try #require(result.trips.count == 2)
        #expect(result.staypoints.allSatisfy { $0.kind == .sliding })
        #expect(result.trips[0].originStaypoint == 0 && result.trips[0].destinationStaypoint == nil)
        #expect(result.trips[1].originStaypoint == nil && result.trips[1].destinationStaypoint == 1)
        let (arrived, left) = (try #require(result.trips[0].destination), try #require(result.trips[1].origin))
        #expect(arrived.kind == .lastFix && left.kind == .firstFix)
        // The last fix before the gap is one step (7 m) short of 2 km east, the first after it 2.5 km east.
        let (end, start) = (TrackScript.coordinates(SIMD2(2000, 0)), TrackScript.coordinates(SIMD2(2500, 0)))
        #expect(distance(arrived, end) < 10 && distance(left, start) < 1, "\(arrived) \(left)")
        #expect(result.trips[0].origin?.kind == .staypoint && result.trips[1].destination?.kind == .staypoint)
    }

    /// The phone is quiet for an hour and wakes where it went quiet (an app that sleeps when
    /// still): a stay across the gap, which ends the first trip and begins the second.
    @Test func aGapThatEndsWhereItBeganIsAStayBetweenTwoTrips() throws {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(2000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        let quiet = script.time - script.intervalSeconds // the last fix before the gap
        script.gap(3600)
        script.move(to: SIMD2(4000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        script.stay(1800)
        let result = analyse(script)
        try #require(result.trips.count == 2 && result.staypoints.count == 3)
        let gap = result.staypoints[1]
        #expect(gap.kind == .gap && gap.isActivity)
        // From the last fix before the gap (the person's arrival: the fixes within 100 m before it) to the first after.
        #expect(gap.endSeconds == quiet + 5 + 3600 && gap.startSeconds <= quiet && gap.startSeconds >= quiet - 100 / 1.4 - 5)
        #expect(result.trips[0].destinationStaypoint == 1 && result.trips[1].originStaypoint == 1)
        #expect(result.trips[0].destination?.kind == .gapStay && result.trips[1].origin?.kind == .gapStay)
        // trackintel's staypoints are unchanged: the sliding detection alone finds the other two.
        #expect(StaypointDetector().detect(script.track()).count == 2)
    }

    func distance(_ end: TripEnd, _ point: (latitude: Double, longitude: Double)) -> Double {
        TrackPoint.distanceMeters(
            TrackPoint(timeSeconds: 0, latitudeDegrees: end.latitudeDegrees, longitudeDegrees: end.longitudeDegrees),
            TrackPoint(timeSeconds: 0, latitudeDegrees: point.latitude, longitudeDegrees: point.longitude))
    }

    /// Home, a walk to the station, 20 min by train, a walk to the bus stop, a wait of
    /// `wait` seconds, 15 min by bus and a walk to work; `first` and `second` are the vehicles.
    func journey(wait: Double, first: Mode = .train, second: Mode = .bus) -> TrackScript {
        var script = TrackScript()
        script.stay(1800)
        script.move(to: SIMD2(400, 0), speedMetersPerSecond: 1.35, mode: .walk)
        script.move(to: SIMD2(24400, 0), speedMetersPerSecond: 20, mode: first)
        script.move(to: SIMD2(24560, 0), speedMetersPerSecond: 1.35, mode: .walk)
        script.stay(wait)
        script.move(to: SIMD2(33560, 0), speedMetersPerSecond: 10, mode: second)
        script.move(to: SIMD2(33800, 0), speedMetersPerSecond: 1.35, mode: .walk)
        script.stay(1800)
        return script
    }

    /// Legs at rest alone are no travel: a phone still for 50 min that no staypoint closed (its
    /// file ended first) makes no trip, and a still leg's drift never makes a trip's main mode.
    @Test func stillLegsAloneAreNoTripAndNeverTheMainMode() {
        func leg(_ start: Double, _ end: Double, _ meters: Double, _ mode: Mode) -> Tripleg {
            Tripleg(
                device: "d", firstFix: 0, lastFix: 1, startSeconds: start, endSeconds: end, distanceMeters: meters, mode: mode,
                modeSource: .gpsRules)
        }
        let builder = TripBuilder()
        var resting = [leg(0, 3000, 12, .still)]
        #expect(builder.build(staypoints: [], triplegs: &resting).isEmpty && resting[0].trip == nil)
        var drifting = [leg(0, 3000, 1200, .still), leg(3000, 3100, 90, .walk)]
        let trips = builder.build(staypoints: [], triplegs: &drifting)
        #expect(trips.count == 1 && trips.first?.mainMode == .walk, "1.2 km of drift at rest is not the trip's travel")
    }

    @Test func aWaitToChangeFromTrainToBusIsPartOfTheTrip() {
        let result = analyse(journey(wait: 1200))
        #expect(result.staypoints.count == 3 && result.isActivity == [true, false, true], "20 min at the stop: a change of vehicle")
        #expect(result.trips.count == 1 && result.trips.first?.mainMode == .train)
        #expect(result.trips.first.map { $0.originStaypoint == 0 && $0.destinationStaypoint == 2 } == true)
    }

    @Test func aLongerStayOrOneBetweenCarRidesIsAnActivity() {
        // 40 min between the train and the bus: something was done there (TripParameters.transferMaximumSeconds).
        let long = analyse(journey(wait: 2400))
        #expect(long.isActivity == [true, true, true] && long.trips.count == 2)
        // A car leaves when its driver does: 20 min between two drives is a stop for a purpose.
        let driven = analyse(journey(wait: 1200, first: .car, second: .car))
        #expect(driven.isActivity == [true, true, true] && driven.trips.count == 2)
        // Under trackintel's 15 min a stay was never an activity, whatever the legs around it.
        let short = analyse(journey(wait: 600, first: .car, second: .car))
        #expect(short.isActivity == [true, false, true] && short.trips.count == 1)
    }
}

/// `DeviceTrips.compacted()`: each leg's line is kept as the text its fixes give, the track is
/// let go, and the store's and the GeoJSON file's lines are the same before and after.
@Suite struct CompactedTripsTests {
    static let points = (0..<40).map { TrackPoint(timeSeconds: Double($0), latitudeDegrees: 48 + Double($0) * 1e-4, longitudeDegrees: 2) }

    static func leg(_ first: Int, _ last: Int, byTime: Bool = false) -> Tripleg {
        var leg = Tripleg(
            device: "d", firstFix: first, lastFix: last, startSeconds: Double(first), endSeconds: Double(last), distanceMeters: 0,
            mode: .walk, modeSource: nil)
        leg.byTime = byTime
        return leg
    }

    static func compacted(_ legs: [Tripleg]) -> (before: DeviceTrips, after: DeviceTrips) {
        let before = DeviceTrips(
            track: DeviceTrack(device: "d", points: points), staypoints: [], dwells: [], triplegs: legs, trips: [])
        return (before, before.compacted())
    }

    @Test func legsKeepTheirLinesAndTheTrackIsLetGo() throws {
        // Out of order, two sharing a fix, one inside another, a hole, and a leg by time.
        let legs = [Self.leg(30, 35), Self.leg(2, 8), Self.leg(8, 12), Self.leg(4, 6), Self.leg(0, 39, byTime: true), Self.leg(13, 15)]
        let (before, after) = Self.compacted(legs)
        #expect(after.track.points.isEmpty && after.device == "d" && after.observed.fixes == 40)
        #expect(after.lines?.count == legs.count && before.lines == nil)
        for (index, leg) in legs.enumerated() {
            let expected = leg.byTime ? DeviceTrack.emptyLineStringGeoJSON : before.track.lineStringGeoJSON(leg.firstFix...leg.lastFix)
            #expect(try after.line(ofLeg: index) == expected && before.line(ofLeg: index) == expected, "\(leg.firstFix)...\(leg.lastFix)")
            guard !leg.byTime else { continue }
            var (written, writtenBefore) = ("", "")
            try after.writeLine(ofLeg: index, to: &written)
            try before.writeLine(ofLeg: index, to: &writtenBefore)
            #expect(written == expected && writtenBefore == expected)
        }
        #expect(try after.line(ofLeg: 1).hasPrefix(#"{"type":"LineString","coordinates":[[2.000000,48.000200],"#))
        #expect(after.lines?[4] == nil, "a leg by time has no line")
    }

    @Test func aTrackThatIsOneLegKeepsItsLineAlone() throws {
        let (before, after) = Self.compacted([Self.leg(0, 39)])
        #expect(try after.track.points.isEmpty && after.line(ofLeg: 0) == before.track.lineStringGeoJSON(0...39))
        #expect(after.triplegs.map(\.firstFix) == [0] && after.triplegs.map(\.lastFix) == [39])
    }

}
