import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing
import Trips

/// Staypoints on the real GPX tracks of ../shared/data against trackintel 1.4's
/// `generate_staypoints` on the same fixes (one track per file, four parameter sets), as
/// recorded by scripts/data/make_trackintel_reference.sh in Fixtures/trackintel-staypoints.json.
@Suite struct TrackintelStaypointTests {
    struct Reference: Decodable {
        struct ParameterSet: Decodable {
            var name: String
            var dist_threshold: Double
            var time_threshold: Double
            var gap_threshold: Double
            var include_last: Bool
        }
        struct File: Decodable {
            var fixes: Int
            var staypoints: [String: [[Double]]]
        }
        var parameter_sets: [ParameterSet]
        var files: [String: File]
    }

    static func reference() throws -> Reference {
        let url = URL(fileURLWithPath: SharedData.projectRoot + "/Tests/RealDataTests/Fixtures/trackintel-staypoints.json")
        return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func staypointsMatchTrackintelOnEveryRealTrack() throws {
        let reference = try Self.reference()
        let folder = try TemporaryFolder()
        var options = IngestOptions(paths: [SharedData.path("gpx")], storePath: folder.file("store.sqlite"))
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        // Stored paths are standardised (symbolic links resolved), so strip either spelling.
        let prefixes = [SharedData.folder, URL(fileURLWithPath: SharedData.folder).resolvingSymlinksInPath().path].map { $0 + "/" }
        let tracks = try PipelineStore(path: folder.file("store.sqlite")).tracks(groupedBy: .file)
        // Every fix of these is dated 1901-12-13T20:45:52Z (−2³¹ s, a corrupt 32-bit time): all
        // are dropped as implausible_time, so they have no track (trackintel kept one fix each).
        let corruptTimes: Set = [
            "gpx/gpxgo/Mojstrovka.gpx", "gpx/gpxgo/gpx-without-root-attributes.gpx",
            "gpx/gpxgo/gpx-without-xml-declaration.gpx", "gpx/gpxpy/Mojstrovka.gpx"
        ]
        #expect(corruptTimes.allSatisfy { reference.files[$0]?.staypoints.values.allSatisfy(\.isEmpty) ?? false })
        #expect(tracks.count == reference.files.count - corruptTimes.count)
        var compared = 0
        var largestOffset = 0.0
        for track in tracks {
            let prefix = prefixes.first { track.device.hasPrefix($0) } ?? ""
            let name = String(track.device.dropFirst(prefix.count))
            let expected = try #require(reference.files[name], "no trackintel reference for \(name)")
            #expect(track.points.count == expected.fixes, "\(name): fixes")
            for set in reference.parameter_sets {
                var parameters = StaypointParameters()
                parameters.distanceMeters = set.dist_threshold
                parameters.timeSeconds = set.time_threshold * 60
                parameters.gapSeconds = set.gap_threshold * 60
                parameters.includeLast = set.include_last
                let ours = StaypointDetector(parameters: parameters).detect(track)
                let theirs = expected.staypoints[set.name] ?? []
                #expect(ours.count == theirs.count, "\(name) \(set.name): \(ours.count) staypoints, trackintel \(theirs.count)")
                for (a, b) in zip(ours, theirs) {
                    #expect(
                        abs(a.startSeconds - b[0]) < 1e-3 && abs(a.endSeconds - b[1]) < 1e-3,
                        "\(name) \(set.name): \(a.startSeconds)–\(a.endSeconds) vs trackintel \(b)")
                    // Positions differ by design (mean of all fixes vs of distinct positions; see StaypointDetector).
                    let offset = TrackPoint.distanceMeters(
                        TrackPoint(timeSeconds: 0, latitudeDegrees: a.latitudeDegrees, longitudeDegrees: a.longitudeDegrees),
                        TrackPoint(timeSeconds: 0, latitudeDegrees: b[2], longitudeDegrees: b[3]))
                    largestOffset = max(largestOffset, offset)
                }
                compared += theirs.count
            }
        }
        #expect(compared == 826)
        #expect(largestOffset < 1)
    }
}
