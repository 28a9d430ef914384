import MobilityCore
import Testing
@testable import Trips

/// Invariants over random days: stays at random places, moves in random modes, gaps.
@Suite struct TripPropertyTests {
    static func randomDay(seed: UInt64) -> TrackScript {
        var random = SeededGenerator(seed: seed)
        var script = TrackScript()
        script.generator = SeededGenerator(seed: seed &+ 1)
        let modes: [(Mode, Double)] = [(.walk, 1.4), (.bike, 4.5), (.car, 11)]
        for _ in 0..<8 {
            script.stay(60 + random.nextUnit() * 2400)
            if random.nextUnit() < 0.2 { script.gap(300 + random.nextUnit() * 3000) }
            for _ in 0..<(1 + Int(random.nextUnit() * 3)) {
                let (mode, speed) = modes[Int(random.nextUnit() * 3)]
                let target = script.position + SIMD2(random.nextUnit() * 4000 - 2000, random.nextUnit() * 4000 - 2000)
                script.move(to: target, speedMetersPerSecond: speed, mode: mode)
            }
        }
        return script
    }

    static let fences = [TrackScript.circle("a", at: SIMD2(0, 0), radius: 150), TrackScript.square("b", centre: SIMD2(800, 800), half: 400)]

    struct Summary: Equatable {
        var staypoints: [[Double]], dwells: [[Double]], legs: [[Double]], modes: [Mode?], trips: [[Double]]

        init(_ result: DeviceTrips) {
            staypoints = result.staypoints.map { [$0.startSeconds, $0.endSeconds, $0.latitudeDegrees, $0.longitudeDegrees] }
            dwells = result.dwells.map { [$0.entrySeconds, $0.exitSeconds, Double($0.fixesUsed)] }
            legs = result.triplegs.map { [$0.startSeconds, $0.endSeconds, $0.distanceMeters] }
            modes = result.triplegs.map(\.mode)
            trips = result.trips.map { [$0.startSeconds, $0.endSeconds, $0.distanceMeters, Double($0.legs.count)] }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func shuffledFixesGiveTheSameResults(seed: UInt64) {
        let script = Self.randomDay(seed: seed)
        var random = SeededGenerator(seed: seed)
        let shuffled = DeviceTrack(device: "d1", points: script.points.shuffled(using: &random))
        let analysis = TripAnalysis()
        let sorted = analysis.analyse(script.track(), geofences: Self.fences, modes: script.timeline)
        #expect(Summary(sorted) == Summary(analysis.analyse(shuffled, geofences: Self.fences, modes: script.timeline)))
        #expect(!sorted.staypoints.isEmpty && !sorted.trips.isEmpty)
    }

    @Test func eachDevicesResultsIgnoreTheOtherDevices() {
        let days = (1...4).map { Self.randomDay(seed: UInt64($0)) }
        let tracks = days.enumerated().map { $1.track("device\($0)") }
        let timelines = Dictionary(uniqueKeysWithValues: days.enumerated().map { ("device\($0)", $1.timeline) })
        let together = TripAnalysis().run(tracks: tracks, geofences: Self.fences, modes: timelines)
        for (index, track) in tracks.enumerated() {
            let alone = TripAnalysis().run(tracks: [track], geofences: Self.fences, modes: timelines)
            #expect(Summary(alone.devices[0]) == Summary(together.devices[index]))
            #expect(alone.devices[0].staypoints.map(\.location).count == together.devices[index].staypoints.count)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func legsLieBetweenStaypointsOrBoundariesAndEverythingAddsUp(seed: UInt64) {
        let script = Self.randomDay(seed: seed)
        let result = TripAnalysis().analyse(script.track(), geofences: Self.fences, modes: script.timeline)
        let points = result.track.points
        for leg in result.triplegs {
            #expect(leg.durationSeconds >= 0 && leg.distanceMeters >= 0 && leg.fixCount >= 2)
            // No leg fix lies inside a staypoint.
            #expect(!result.staypoints.contains { $0.firstFix <= leg.lastFix && leg.firstFix < $0.endFix })
            if let previous = leg.previousStaypoint { #expect(result.staypoints[previous].endFix == leg.firstFix) }
            if let next = leg.nextStaypoint { #expect(result.staypoints[next].firstFix == leg.lastFix + 1) }
        }
        // A movement starts after a staypoint, the track's start or a gap, and ends likewise.
        for (index, leg) in result.triplegs.enumerated() where leg.previousStaypoint == nil {
            let continues = index > 0 && result.triplegs[index - 1].lastFix == leg.firstFix
            #expect(
                continues || leg.firstFix == 0 || points[leg.firstFix].timeSeconds - points[leg.firstFix - 1].timeSeconds > 900
                    || result.staypoints.contains { $0.endFix == leg.firstFix })
        }
        for trip in result.trips {
            let legs = trip.legs.map { result.triplegs[$0] }
            #expect(abs(trip.distanceMeters - legs.reduce(0) { $0 + $1.distanceMeters }) < 1e-6)
            #expect(trip.durationSeconds >= legs.reduce(0) { $0 + $1.durationSeconds } - 1e-6)
            #expect(trip.startSeconds <= legs[0].startSeconds && trip.endSeconds >= legs.last!.endSeconds)
        }
        // Every leg belongs to exactly one trip; trips do not overlap.
        #expect(result.triplegs.allSatisfy { $0.trip != nil })
        for (a, b) in zip(result.trips, result.trips.dropFirst()) { #expect(a.endSeconds <= b.startSeconds) }
        for dwell in result.dwells { #expect(dwell.durationSeconds >= 300 && dwell.fixesUsed >= 1) }
    }
}
