import Foundation
import Fusion
import MobilityCore
import TestSupport
import Testing
import Transit
import Trips

/// What a transit feed may decide about a leg (`LegFusion`), on `SyntheticGTFS`'s feed.
@Suite struct TransitFusionTests {

    @Test func aMotorisedRideIsTrainOrBusOnlyWithTheFeedsEvidence() {
        let fusion = LegFusion(legModel: nil, imuClasses: [], transit: nil)
        var match = TransitMatch()
        match.corridorShare = [.rail: 0.1, .bus: 0.95]
        match.stoppedAt = [.rail: 0, .bus: 6]
        match.stops = 8
        match.startMeters = [.rail: 1500, .bus: 20]
        match.endMeters = [.rail: 1800, .bus: 25]
        #expect(fusion.transitMode(match) == .bus)
        match.stops = 14 // most stops are not at bus stops: a car at lights along a bus route
        #expect(fusion.transitMode(match) == nil)
        match.stops = 8
        match.stoppedAt[.bus] = 1
        #expect(fusion.transitMode(match) == nil, "one stop at a bus stop is not a bus")
        // Underground: both ends at stations, no fixes for four minutes between.
        var metro = TransitMatch()
        metro.corridorShare = [.rail: 0, .bus: 0]
        metro.startMeters = [.rail: 120, .bus: 600]
        metro.endMeters = [.rail: 80, .bus: 700]
        metro.longestGapSeconds = 240
        #expect(fusion.transitMode(metro) == .train)
        metro.longestGapSeconds = 30
        #expect(fusion.transitMode(metro) == nil)
        metro.corridorShare[.rail] = 0.9
        #expect(fusion.transitMode(metro) == .train, "along rail and starting at a station")
    }

    /// The IMU windows name only the family (their types do not transfer between people), so a
    /// feed types the leg they know to be a vehicle, however sure they were of car.
    @Test func aFeedTypesALegTheIMUKnowsOnlyToBeAVehicle() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("feed"))
        let transit = TransitIndex(try GTFSFeed.load(path: folder.file("feed")))
        // The bus ride along Main St: 10 m/s, 30 s at each of its stops.
        var points: [TrackPoint] = [], clock = 1_700_000_000.0, east = 0.0
        while east < 4000 {
            let (lat, lon) = SyntheticGTFS.position(east: east)
            points.append(TrackPoint(timeSeconds: clock, latitudeDegrees: lat, longitudeDegrees: lon))
            clock += 2
            let next = east + 20
            if Int(next) % 400 == 0 {
                for _ in 0..<15 {
                    let (lat, lon) = SyntheticGTFS.position(east: next)
                    points.append(TrackPoint(timeSeconds: clock, latitudeDegrees: lat, longitudeDegrees: lon))
                    clock += 2
                }
            }
            east = next
        }
        let track = DeviceTrack(device: "eve", points: points)
        func decide(_ windows: [Mode]) -> Tripleg {
            let spans = stride(from: points[0].timeSeconds, to: points.last!.timeSeconds, by: 30).enumerated().map { index, t in
                ModeSpan(startSeconds: t, endSeconds: t + 30, mode: windows[index % windows.count], source: .model)
            }
            var legs = [
                Tripleg(
                    device: "eve", firstFix: 0, lastFix: points.count - 1, startSeconds: points[0].timeSeconds,
                    endSeconds: points.last!.timeSeconds, distanceMeters: 4000, mode: windows[0], modeSource: .model)
            ]
            LegFusion(legModel: nil, imuClasses: [.still, .walk, .car, .bus, .train], transit: transit).apply(
                track, legs: &legs, imuSpans: spans)
            return legs[0]
        }
        // The IMU windows say car, which names only the family (no GPS leg model): the feed's
        // bus types it, and the note that explained `vehicle` goes with it.
        let confident = decide([.car])
        #expect(confident.mode == .bus && confident.modeSource == .transit && confident.evidence?.transit != nil)
        #expect(confident.modeNote == nil, "\(confident.modeNote ?? "")")
        // Car and train in turn: a vehicle, not which (no GPS leg model); the feed says bus.
        let vehicle = decide([.car, .train])
        #expect(
            vehicle.mode == .bus && vehicle.modeSource == .transit,
            "\(String(describing: vehicle.mode)) \(String(describing: vehicle.modeSource))")
    }
}
