import Foundation
import MobilityCore
import TestSupport
import Testing
import Transit
import ZIPFoundation

/// A GTFS feed read from a folder and a zip, and its index against brute force
/// (`SyntheticGTFS`).
@Suite struct GTFSFeedTests {

    @Test func aFeedGivesStopKindsAndCorridorsFromAFolderOrAZip() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("feed"))
        let feed = try GTFSFeed.load(path: folder.file("feed"))
        #expect(feed.routes == 3 && feed.routesWithoutKind == 1, "the gondola has no kind")
        #expect(feed.skippedRows == 1, "the stop without coordinates")
        let kinds = Dictionary(uniqueKeysWithValues: feed.stops.map { ($0.id, $0.kinds) })
        #expect(kinds["B3"] == TransitKinds(.bus) && kinds["S1P"] == TransitKinds(.rail))
        #expect(kinds["S1"] == TransitKinds(.rail) && kinds["S1E"] == TransitKinds(.rail), "up to the station, down to its entrance")
        #expect(feed.stopsPerKind == [.bus: 14, .rail: 7], "3 stations, their 3 platforms and an entrance")
        // The metro's shape (13 points, read in sequence order) and the bus's stop pattern.
        #expect(feed.shapesUsed == 1 && feed.stopPatterns == 1 && feed.corridors.count == 2)
        let rail = try #require(feed.corridors.first { $0.kinds == TransitKinds(.rail) })
        #expect(rail.points.count == 13 && rail.points.first!.1 < rail.points.last!.1)

        let zip = folder.file("feed.zip")
        let archive = try Archive(url: URL(fileURLWithPath: zip), accessMode: .create, pathEncoding: nil)
        try FileManager.default.createDirectory(atPath: folder.file("wrapped"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.file("feed"), toPath: folder.file("wrapped/gtfs"))
        for name in ["stops.txt", "stop_times.txt", "routes.txt", "trips.txt", "shapes.txt"] { // in one folder, as some agencies zip it
            try archive.addEntry(
                with: "gtfs/" + name, relativeTo: URL(fileURLWithPath: folder.file("wrapped")), compressionMethod: .deflate)
        }
        let zipped = try GTFSFeed.load(path: zip)
        #expect(zipped.stops.count == feed.stops.count && zipped.corridors.count == 2 && zipped.summary == feed.summary)

        try FileManager.default.removeItem(atPath: folder.file("feed/trips.txt"))
        let thrown1 = #expect(throws: PipelineError.self) { try GTFSFeed.load(path: folder.file("feed")) }
        #expect(thrown1?.code == .invalidTransitFeed)
        do { _ = try GTFSFeed.load(path: folder.file("feed")) } catch { #expect("\(error)".contains("needs trips.txt")) }
    }

    /// The grid's answers against brute force over every stop, with haversine distances.
    @Test func theIndexFindsWhatBruteForceFinds() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("feed"))
        let feed = try GTFSFeed.load(path: folder.file("feed"))
        let index = TransitIndex(feed)
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<300 {
            let east = Double(generator.next() % 8000) - 1000, north = Double(generator.next() % 3000) - 500
            let (lat, lon) = SyntheticGTFS.position(east: east, north: north)
            for kind in [TransitKind.bus, .rail] {
                let brute = feed.stops.filter { $0.kinds.contains(kind) }
                    .map {
                        Geodesy.haversineMeters(
                            latitude1: lat, longitude1: lon, latitude2: $0.latitudeDegrees, longitude2: $0.longitudeDegrees)
                    }.min()!
                let found = index.nearestStopMeters(lat, lon, kind: kind)
                #expect(
                    abs(found - min(brute, TransitIndex.maxSearchMeters)) <= 0.005 * brute + 0.01,
                    "\(kind) at \(east), \(north): \(found) vs \(brute)")
            }
            // Within 30 m of the metro's line (north = 2000 from east 0 to 6000), and only there.
            let nearRail = abs(north - 2000) <= 29.9 && east >= 0 && east <= 6000
            let farRail = abs(north - 2000) >= 30.1 || east < -30.1 || east > 6030.1
            let kinds = index.corridorKinds(lat, lon, within: 30)
            if nearRail { #expect(kinds.contains(.rail)) }
            if farRail { #expect(!kinds.contains(.rail)) }
        }
    }
}
