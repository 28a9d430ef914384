import Foundation
import MobilityCore
import Testing
@testable import Trips

@Suite struct StaypointTests {
    @Test func aStayEndsAtTheFirstFixOutsideAndIsPlacedAtItsFixes() {
        var script = TrackScript()
        script.stay(600)
        let firstOutside = script.time
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        let stays = StaypointDetector().detect(script.track())
        #expect(stays.count == 1)
        let stay = stays[0]
        #expect(stay.startSeconds == 1_700_000_000)
        // The move's first fix is still at the stay; the first fix ≥ 100 m away ends it.
        let endFix = script.points.firstIndex { TrackPoint.distanceMeters($0, script.points[0]) >= 100 }!
        #expect(stay.endFix == endFix && stay.endSeconds == script.points[endFix].timeSeconds && stay.endSeconds > firstOutside)
        #expect(
            TrackPoint.distanceMeters(
                TrackPoint(timeSeconds: 0, latitudeDegrees: stay.latitudeDegrees, longitudeDegrees: stay.longitudeDegrees),
                script.points[0]) < 15)
    }

    @Test func aTraceWithNoStayHasNoStaypoints() {
        var script = TrackScript()
        script.move(to: SIMD2(5000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        #expect(StaypointDetector().detect(script.track()).isEmpty)
    }

    @Test func aGapNeverBecomesAStay() {
        var script = TrackScript()
        script.stay(200)
        script.gap(3600)
        script.stay(200)
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 10, mode: .car)
        // 200 s before and after an hour's gap: neither side is 5 min long, and the gap does not count.
        #expect(StaypointDetector().detect(script.track()).isEmpty)
    }

    /// The same track with stays across gaps (`stays`): the hour's gap began and ended at one
    /// place, so it is a stay there, from the first of the fixes before it (all within 100 m) to
    /// the first fix after it; trackintel's sliding stays stay as they were.
    @Test func aGapThatBeganAndEndedAtOnePlaceIsAStayAcrossIt() throws {
        var script = TrackScript()
        script.stay(200)
        let quiet = script.time - script.intervalSeconds
        script.gap(3600)
        let woke = script.time
        script.stay(200)
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 10, mode: .car)
        let stays = StaypointDetector().stays(script.track())
        try #require(stays.count == 1)
        #expect(stays[0].kind == .gap && stays[0].startSeconds == 1_700_000_000 && stays[0].endSeconds == woke)
        #expect(stays[0].firstFix == 0 && script.points[stays[0].endFix - 1].timeSeconds == quiet)
    }

    /// What is not a stay across a gap: one that ends 150 m away (the person moved), one longer
    /// than a day, one shorter than 5 minutes, one a sliding stay already spans (10 minutes
    /// without a fix at home), and any with `gapStayMaxSeconds` 0.
    @Test func gapsThatEndElsewhereLastADayOrLieInAStayAreNoStayAcrossThem() {
        func stays(gap: Double, movedMeters: Double = 0, gapStayMaxSeconds: Double = 86_400) -> [Staypoint] {
            var script = TrackScript()
            script.move(to: SIMD2(500, 0), speedMetersPerSecond: 1.4, mode: .walk)
            script.gap(gap)
            script.position.x += movedMeters
            script.move(to: SIMD2(1500, 0), speedMetersPerSecond: 1.4, mode: .walk)
            var parameters = StaypointParameters()
            parameters.gapStayMaxSeconds = gapStayMaxSeconds
            return StaypointDetector(parameters: parameters).stays(script.track())
        }
        #expect(stays(gap: 3600).map(\.kind) == [.gap])
        #expect(stays(gap: 3600, movedMeters: 150).isEmpty)
        #expect(stays(gap: 86_400 + 60).isEmpty)
        // 4 minutes: no stay across it (trackintel's sliding stay counts the walk's 70 m before it with it: 5 minutes within 100 m).
        #expect(stays(gap: 240).map(\.kind) == [.sliding])
        #expect(stays(gap: 3600, gapStayMaxSeconds: 0).isEmpty)
        var home = TrackScript()
        home.stay(600)
        home.gap(600)
        home.stay(600)
        home.move(to: SIMD2(1000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        #expect(StaypointDetector().stays(home.track()).map(\.kind) == [.sliding])
    }

    /// `waitSeconds` on a platform, eight minutes without a fix, then a walk from 4 km away;
    /// with the index of the platform's last fix.
    static func platformAndRide(waitSeconds: Double) -> (TrackScript, Int) {
        var script = TrackScript()
        script.stay(waitSeconds)
        let lastBefore = script.points.count - 1
        script.gap(480)
        script.position = SIMD2(4000, 0)
        script.move(to: SIMD2(5000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        return (script, lastBefore)
    }

    @Test func aGapCalledARideEndsTheStayBeforeIt() {
        // Two minutes on the platform: trackintel's method makes a ten-minute stay of it; a gap
        // the predicate calls a ride leaves two minutes, no stay.
        let rides: @Sendable (TrackPoint, TrackPoint) -> Bool = { a, b in b.timeSeconds - a.timeSeconds >= 120 }
        let (script, lastBefore) = Self.platformAndRide(waitSeconds: 120)
        let trackintel = StaypointDetector().detect(script.track())
        #expect(
            trackintel.count == 1 && trackintel[0].endFix == lastBefore + 1 && trackintel[0].endSeconds - trackintel[0].startSeconds >= 600)
        #expect(StaypointDetector(ridesAcrossGap: rides).detect(script.track()).isEmpty)

        // Six minutes on the platform: a stay of those six minutes, ending at the last fix
        // before the ride, and the fix before the gap starts the next leg.
        let (waited, platform) = Self.platformAndRide(waitSeconds: 360)
        let stays = StaypointDetector(ridesAcrossGap: rides).detect(waited.track())
        #expect(stays.count == 1 && stays[0].endFix == platform && stays[0].endSeconds == waited.points[platform].timeSeconds)
        let legs = TriplegBuilder().build(waited.track(), staypoints: stays, modes: waited.timeline)
        #expect(legs.first?.firstFix == platform, "the ride's leg starts at the platform's last fix")
    }

    @Test func theLastOpenStayIsEmittedOnlyWhenAskedFor() {
        var script = TrackScript()
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 10, mode: .car)
        script.stay(900)
        var trackintelDefault = StaypointParameters()
        trackintelDefault.includeLast = false
        #expect(StaypointDetector(parameters: trackintelDefault).detect(script.track()).isEmpty)
        let stays = StaypointDetector().detect(script.track())
        #expect(stays.count == 1 && stays[0].isOpen && stays[0].endFix == script.points.count)
        #expect(stays[0].endSeconds == script.points.last!.timeSeconds)
    }

    @Test func theFlatPretestDecidesAsHaversineDoes() {
        var random = SeededGenerator(seed: 11)
        var exactCalls = 0
        for _ in 0..<200_000 {
            let latitude = random.nextUnit() * 178 - 89, longitude = random.nextUnit() * 360 - 180
            let threshold = [20.0, 100, 1000, 50_000][Int(random.nextUnit() * 4)]
            let anchor = TrackPoint(timeSeconds: 0, latitudeDegrees: latitude, longitudeDegrees: longitude)
            // A point at 0.9–1.1 times the threshold in a random direction (crossing the antimeridian at times).
            let distance = threshold * (0.9 + 0.2 * random.nextUnit()), bearing = random.nextUnit() * 2 * .pi
            let angle = distance / Geodesy.earthRadiusMeters, phi = latitude * .pi / 180
            let phi2 = asin(sin(phi) * cos(angle) + cos(phi) * sin(angle) * cos(bearing))
            let lambda2 = longitude * .pi / 180 + atan2(sin(bearing) * sin(angle) * cos(phi), cos(angle) - sin(phi) * sin(phi2))
            var longitude2 = lambda2 * 180 / .pi
            if longitude2 > 180 { longitude2 -= 360 } else if longitude2 < -180 { longitude2 += 360 }
            let point = TrackPoint(timeSeconds: 0, latitudeDegrees: phi2 * 180 / .pi, longitudeDegrees: longitude2)
            let test = DistanceTest(anchor, thresholdMeters: threshold)
            #expect(test.isAtOrBeyond(point) == (TrackPoint.distanceMeters(anchor, point) >= threshold))
            let flat = { () -> Bool in
                let dy = point.latitudeDegrees - latitude
                var dl = point.longitudeDegrees - longitude
                if abs(dl) > 180 { dl -= dl > 0 ? 360 : -360 }
                let dx = dl * test.longitudeScale
                let value = dx * dx + dy * dy
                return value >= test.surelyInside && !(value > test.surelyBeyond && test.surelyBeyond > 0)
            }()
            if flat { exactCalls += 1 }
        }
        // The exact formula is the exception even for points this close to the threshold.
        #expect(exactCalls < 40_000)
    }

    @Test func theDecisionAtTheThresholdIsTheHaversines() {
        // Fixes 99.9 m and 100.1 m east of the anchor, for 10 minutes each.
        for (metres, expectStay) in [(99.9, false), (100.1, true)] {
            var script = TrackScript()
            script.intervalSeconds = 60
            for _ in 0..<10 { script.fix(at: SIMD2(0, 0)); script.time += 60 }
            script.fix(at: SIMD2(metres, 0))
            let distance = TrackPoint.distanceMeters(script.points[0], script.points.last!)
            #expect((distance >= 100) == expectStay)
            var closedOnly = StaypointParameters()
            closedOnly.includeLast = false
            #expect(StaypointDetector(parameters: closedOnly).detect(script.track()).count == (expectStay ? 1 : 0))
        }
    }
}

@Suite struct LocationTests {
    func stay(_ device: String, _ metres: SIMD2<Double>, start: Double) -> Staypoint {
        let (latitude, longitude) = TrackScript.coordinates(metres)
        return Staypoint(
            device: device, firstFix: 0, endFix: 1, startSeconds: start, endSeconds: start + 600,
            latitudeDegrees: latitude, longitudeDegrees: longitude, isOpen: false, location: nil)
    }

    @Test func staypointsWithinEpsilonChainIntoOneLocation() {
        var stays = [
            stay("a", SIMD2(0, 0), start: 0), stay("a", SIMD2(80, 0), start: 1000), stay("a", SIMD2(160, 0), start: 2000),
            stay("a", SIMD2(500, 0), start: 3000)
        ]
        let locations = LocationClusterer().cluster(&stays)
        #expect(locations.count == 2)
        #expect(stays.map(\.location) == [0, 0, 0, 1])
        #expect(locations[0].staypoints == 3 && locations[0].totalStaySeconds == 1800 && locations[0].device == "a")
    }

    @Test func devicesClusterApartUnlessTheScopeIsTheDataset() {
        var stays = [stay("a", SIMD2(0, 0), start: 0), stay("b", SIMD2(10, 0), start: 0)]
        #expect(LocationClusterer().cluster(&stays).count == 2)
        var parameters = LocationParameters()
        parameters.scope = .dataset
        let shared = LocationClusterer(parameters: parameters).cluster(&stays)
        #expect(shared.count == 1 && shared[0].devices == 2 && shared[0].device == nil)
    }

    @Test func aMinimumAboveOneLeavesLoneStaypointsAsNoise() {
        var stays = [stay("a", SIMD2(0, 0), start: 0), stay("a", SIMD2(30, 0), start: 1000), stay("a", SIMD2(900, 0), start: 2000)]
        var parameters = LocationParameters()
        parameters.minimumStaypoints = 2
        let locations = LocationClusterer(parameters: parameters).cluster(&stays)
        #expect(locations.count == 1 && stays.map(\.location) == [0, 0, nil])
    }
}
