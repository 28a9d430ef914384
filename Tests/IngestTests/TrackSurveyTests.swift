import Foundation
@testable import Ingest
import MobilityCore
import TestSupport
import Testing

/// `TrackSurvey` reads a track's time extent from its ends: checked against reading it whole,
/// on real GPX files recorded by others and on known fixtures.
@Suite struct TrackSurveyTests {
    @Test func theExtentFromAFilesEndsIsTheExtentOfItsPoints() throws {
        guard SharedData.isAvailable else { return print(SharedData.skipMessage) }
        let files = SharedData.files(under: "gpx").filter { FormatDetector.familyExtension($0) == "gpx" && !$0.hasSuffix(".gz") }
        var compared = 0
        for path in files {
            let whole = TrackSurvey.thinnedFixes(of: path)
            guard let first = whole.first, let last = whole.last, let ends = TrackSurvey.extent(of: path) else { continue }
            // Only files whose points are in time order: the ends of any other say nothing (documented).
            var inOrder = true
            let times = CollectingVisitor()
            _ = try? GPXReader(path: path).read(visitor: times)
            for (a, b) in zip(times.times, times.times.dropFirst()) where b < a { inOrder = false }
            guard inOrder, let lastTime = times.times.last else { continue }
            compared += 1
            #expect(ends.start == first.seconds, "\(path): \(ends.start) vs \(first.seconds)")
            #expect(ends.end == lastTime && last.seconds <= lastTime, "\(path): \(ends.end) vs \(lastTime)")
        }
        #expect(compared >= 10, "\(compared) real tracks with times compared")
    }

    @Test func aDocumentsOwnTimeIsNotItsFirstPointsAndAPLTsRowsAreRead() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "a.gpx",
            """
            <?xml version="1.0"?><gpx version="1.1" creator="t"><metadata><time>2020-01-01T00:00:00Z</time></metadata>
            <trk><trkseg><trkpt lat="48" lon="2"><time>2024-05-06T07:00:00Z</time></trkpt>
            <trkpt lat="48.001" lon="2"><time>2024-05-06T07:10:00Z</time></trkpt></trkseg></trk></gpx>
            """)
        let gpx = try #require(TrackSurvey.extent(of: folder.file("a.gpx")))
        #expect(gpx.start == ISO8601.parse("2024-05-06T07:00:00Z")!.secondsSince1970)
        #expect(gpx.end == ISO8601.parse("2024-05-06T07:10:00Z")!.secondsSince1970)
        let rows = (0..<5000).map { i in
            let t = Date(timeIntervalSince1970: 1_199_145_600 + Double(i) * 5) // 2008-01-01, every 5 s
            let parts = ISO8601.format(Timestamp(secondsSince1970: t.timeIntervalSince1970)).dropLast().split(separator: "T")
            return "39.9,116.3,0,492,\(39_448.0 + Double(i) * 5 / 86_400),\(parts[0]),\(parts[1])"
        }
        try folder.write(
            "b.plt",
            "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"
                + rows.joined(separator: "\r\n") + "\r\n")
        let plt = try #require(TrackSurvey.extent(of: folder.file("b.plt")))
        #expect(plt.start == 1_199_145_600 && plt.end == 1_199_145_600 + 4999 * 5, "\(plt)")
    }

    @Test func separationNeedsMomentsInCommon() {
        let a = (0..<10).map { TrackSurvey.ThinnedFix(seconds: Double($0) * 10, latitude: 48, longitude: 2) }
        let near = a.map { TrackSurvey.ThinnedFix(seconds: $0.seconds + 3, latitude: 48.0001, longitude: 2) }
        let far = a.map { TrackSurvey.ThinnedFix(seconds: $0.seconds, latitude: 48.1, longitude: 2) }
        let later = a.map { TrackSurvey.ThinnedFix(seconds: $0.seconds + 1_000, latitude: 48.1, longitude: 2) }
        #expect(TrackSurvey.separation(a, near) == .together)
        #expect(TrackSurvey.separation(a, far) == .farApart)
        #expect(TrackSurvey.separation(a, later) == .unknown)
    }
}

private final class CollectingVisitor: GPXVisitor {
    var times: [Double] = []
    func trackPoint(_ fix: PositionFix, at position: FixPosition) throws { if let t = fix.time?.secondsSince1970 { times.append(t) } }
    func waypoint(_ waypoint: Waypoint, line: Int) throws {}
    func rejectedPoint(_ reason: DropReason, line: Int) {}
}
