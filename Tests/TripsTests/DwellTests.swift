import MobilityCore
import Testing
@testable import Trips

@Suite struct DwellTests {
    let home = TrackScript.circle("home", at: SIMD2(0, 0), radius: 100, kind: "home")

    @Test func aShortGPSExcursionDoesNotEndADwell() throws {
        var script = TrackScript()
        script.stay(1200)
        // One minute of fixes 300 m away (a multipath excursion), then back home.
        for _ in 0..<12 { script.fix(at: SIMD2(300, 0), accuracy: 30); script.time += 5 }
        script.stay(1200)
        script.move(to: SIMD2(2000, 0), speedMetersPerSecond: 10, mode: .car)
        let dwells = DwellDetector().detect(script.track(), geofence: home)
        #expect(dwells.count == 1)
        let dwell = try #require(dwells.first)
        #expect(dwell.entrySeconds == 1_700_000_000 && dwell.closure == .exit)
        #expect(dwell.durationSeconds > 2400 && dwell.durationSeconds < 2500)
    }

    @Test func aGapInsideADwellIsToleratedUpToTheLimit() throws {
        var script = TrackScript()
        script.stay(1200)
        script.gap(1200)
        script.stay(1200)
        script.move(to: SIMD2(2000, 0), speedMetersPerSecond: 10, mode: .car)
        let dwell = try #require(DwellDetector().detect(script.track(), geofence: home).first)
        #expect(dwell.longestGapSeconds > 1200 && dwell.longestGapSeconds < 1210)
        #expect(dwell.durationSeconds > 3590 && dwell.closure == .exit)

        var strict = DwellParameters()
        strict.maxGapSeconds = 600
        let split = DwellDetector(parameters: strict).detect(script.track(), geofence: home)
        #expect(split.map(\.closure) == [.gap, .exit])
    }

    @Test func passingThroughIsNotADwell() {
        var script = TrackScript()
        script.position = SIMD2(-1000, 0)
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        #expect(DwellDetector().detect(script.track(), geofence: home).isEmpty)
        #expect(DwellDetector().detect(script.track(), geofence: TrackScript.square("square", centre: SIMD2(0, 0), half: 100)).isEmpty)
    }

    @Test func overlappingGeofencesEachGetTheirDwell() {
        var script = TrackScript()
        script.position = SIMD2(50, 0)
        script.stay(1800)
        script.move(to: SIMD2(3000, 0), speedMetersPerSecond: 10, mode: .car)
        let fences = [home, TrackScript.square("block", centre: SIMD2(120, 0), half: 100)]
        let dwells = DwellDetector().detect(script.track(), geofences: fences)
        #expect(dwells.map(\.geofenceID) == ["block", "home"]) // the same entry time: ordered by id
        #expect(dwells.allSatisfy { $0.durationSeconds > 1700 && $0.closure == .exit })
    }

    @Test func entryNeedsEnoughFixesOrTimeAndExitNeedsTimeOutsideTheBufferedBoundary() throws {
        var script = TrackScript()
        script.intervalSeconds = 1
        script.position = SIMD2(-500, 0)
        script.move(to: SIMD2(0, 0), speedMetersPerSecond: 1.4, mode: .walk)
        let arrival = script.points.firstIndex {
            GeofenceContainment.contains(home, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees)
        }!
        script.stay(600, jitterMeters: 3)
        // 50 s at 110 m with 20 m accuracy: inside the buffered boundary, so still home.
        for _ in 0..<50 { script.fix(at: SIMD2(110, 0), accuracy: 20); script.time += 1 }
        script.stay(60, jitterMeters: 3)
        let lastInside = script.points.count - 1
        script.move(to: SIMD2(1000, 0), speedMetersPerSecond: 1.4, mode: .walk)
        let dwell = try #require(DwellDetector().detect(script.track(), geofence: home).first)
        #expect(dwell.firstFix == arrival && dwell.closure == .exit)
        // The exit is the last fix within the boundary widened by its 10 m accuracy: 110 m out on the way away.
        let centre = TrackPoint(timeSeconds: 0, latitudeDegrees: 48.85, longitudeDegrees: 2.35)
        let lastBuffered = script.points.lastIndex { TrackPoint.distanceMeters($0, centre) <= 110 }!
        #expect(dwell.lastFix == lastBuffered && lastBuffered > lastInside + 70)
    }

    @Test func aPolygonsBufferedBoundaryIsMeasuredFromItsNearestEdge() {
        let square = TrackScript.square("sq", centre: SIMD2(0, 0), half: 100)
        let (latitude, longitude) = TrackScript.coordinates(SIMD2(130, 0))
        let outside = GeofenceContainment.distanceOutsideMeters(square, latitudeDegrees: latitude, longitudeDegrees: longitude)
        #expect(abs(outside - 30) < 0.5)
        let (cornerLatitude, cornerLongitude) = TrackScript.coordinates(SIMD2(130, 140))
        #expect(
            abs(GeofenceContainment.distanceOutsideMeters(square, latitudeDegrees: cornerLatitude, longitudeDegrees: cornerLongitude) - 50)
                < 0.5)
        #expect(GeofenceContainment.contains(square, latitudeDegrees: latitude, longitudeDegrees: longitude, bufferMeters: 31))
        #expect(!GeofenceContainment.contains(square, latitudeDegrees: latitude, longitudeDegrees: longitude, bufferMeters: 29))
    }
}
