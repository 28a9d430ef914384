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

    /// A ride that changes buses at a stop without a staypoint (a minute's wait) is cut there,
    /// each part its line, and each a bus: it stopped at both ends of its line.
    @Test func aRideThatChangesLinesIsCutAtTheStopEachPartItsLine() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeCrossing(folder.file("feed"))
        let transit = TransitIndex(try GTFSFeed.load(path: folder.file("feed")))
        var points: [TrackPoint] = [], clock = 1_700_000_000.0
        func at(_ east: Double, _ north: Double) {
            let (lat, lon) = SyntheticGTFS.position(east: east, north: north)
            points.append(TrackPoint(timeSeconds: clock, latitudeDegrees: lat, longitudeDegrees: lon))
            clock += 2
        }
        for step in 0..<60 { at(0, Double(step) * 20) } // north at 10 m/s
        for _ in 0..<30 { at(0, 1_200) } // a minute at C
        for step in 1...60 { at(Double(step) * 20, 1_200) } // east
        let track = DeviceTrack(device: "eve", points: points)
        var legs = [
            Tripleg(
                device: "eve", firstFix: 0, lastFix: points.count - 1, startSeconds: points[0].timeSeconds,
                endSeconds: points.last!.timeSeconds, distanceMeters: 2_400, mode: .car, modeSource: .gpsRules)
        ]
        LegFusion(legModel: nil, imuClasses: [], transit: transit).apply(track, legs: &legs, imuSpans: [])
        #expect(legs.count == 2, "\(legs.map { ($0.firstFix, $0.lastFix, $0.mode) })")
        let lines = legs.map { $0.evidence?.transit?.line }
        #expect(lines.map { $0?.routeID } == ["N", "E"], "\(lines)")
        #expect(lines[0]?.board.stopID == "N0" && lines[0]?.alight.stopID == "C" && lines[1]?.board.stopID == "C")
        #expect(lines[1]?.alight.stopID == "E2" && legs.allSatisfy { $0.mode == .bus && $0.modeSource == .transit }, "\(legs)")
        #expect(legs[0].lastFix == legs[1].firstFix && legs[0].lastFix > 60 && legs[0].lastFix < 90, "cut within the stop at C")
        #expect(abs(legs.map(\.distanceMeters).reduce(0, +) - 2_400) < 5, "the parts add up to the ride")
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
