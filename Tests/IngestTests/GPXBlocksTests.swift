import Foundation
import MobilityCore
import TestSupport
import Testing

@testable import Ingest

/// A GPX file read in blocks scanned ahead on other threads (`GPXBlocks`) gives exactly what
/// one scan from the start gives: the same points with the same tracks, segments and lines,
/// the same counts, and the same error with its line and column. Blocks of a few hundred bytes
/// put the cuts everywhere a real file's 2 MiB blocks could put them.
@Suite struct GPXBlocksTests {
    struct Reading: Equatable {
        var fixes: [PositionFix] = []
        var positions: [FixPosition] = []
        var waypoints: [Waypoint] = []
        var rejected: [String] = []
        var summary: GPXSummary?
        var error: String?

        /// Where `other` first differs from this reading, in a line (a failure prints this,
        /// not two readings of thousands of points).
        func difference(from other: Reading) -> String {
            if let index = (0..<min(fixes.count, other.fixes.count)).first(where: { fixes[$0] != other.fixes[$0] }) {
                return "fix \(index): \(fixes[index]) against \(other.fixes[index])"
            }
            if let index = (0..<min(positions.count, other.positions.count)).first(where: { positions[$0] != other.positions[$0] }) {
                return "position \(index): \(positions[index]) against \(other.positions[index])"
            }
            return "fixes \(fixes.count) against \(other.fixes.count), waypoints \(waypoints.count) against \(other.waypoints.count), "
                + "rejected \(rejected.prefix(3)) against \(other.rejected.prefix(3)), summary \(String(describing: summary)) against "
                + "\(String(describing: other.summary)), error \(String(describing: error)) against \(String(describing: other.error))"
        }
    }

    /// Expects the reading in blocks to equal the reading from the start.
    func expectSame(_ blocks: Reading, _ whole: Reading, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let same = blocks == whole
        #expect(same, "\(what): \(same ? "" : blocks.difference(from: whole))", sourceLocation: sourceLocation)
    }

    /// Keeps what a reader reports; throws at the `failAt`th track point, as a sink's write may.
    final class Recorder: GPXVisitor {
        var reading = Reading()
        let failAt: Int?
        init(failAt: Int? = nil) { self.failAt = failAt }

        func trackPoint(_ fix: PositionFix, at position: FixPosition) throws {
            if reading.fixes.count + 1 == failAt { throw InputError(.unreadable, "the sink is full", path: "sink", line: position.line) }
            reading.fixes.append(fix)
            reading.positions.append(position)
        }
        func waypoint(_ waypoint: Waypoint, line: Int) throws { reading.waypoints.append(waypoint) }
        func rejectedPoint(_ reason: DropReason, line: Int) { reading.rejected.append("\(reason) \(line)") }
    }

    /// `path` read on one thread, and in blocks of `blockBytes` with two workers; and how many
    /// blocks the second reading took over.
    func readBothWays(_ path: String, blockBytes: Int, failAt: Int? = nil) -> (whole: Reading, blocks: Reading, takenOver: Int) {
        var takenOver = 0
        let readings = [0, 2].map { workers -> Reading in
            var reader = GPXReader(path: path)
            reader.blockWorkers = workers
            reader.blockBytes = blockBytes
            let recorder = Recorder(failAt: failAt)
            do {
                recorder.reading.summary = try reader.read(visitor: recorder, blocksTakenOver: &takenOver)
            } catch let error as InputError {
                recorder.reading.error = "\(error.code) \(error.line ?? -1):\(error.column ?? -1) \(error.message)"
            } catch {
                recorder.reading.error = "\(error)"
            }
            return recorder.reading
        }
        return (readings[0], readings[1], takenOver)
    }

    /// Tracks of several segments, points without a time or with a bad one, extensions, comments
    /// and CDATA that hold `<trkpt` text, a point outside a segment, then routes and waypoints.
    func awkwardDocument(points: Int) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<gpx version="1.1" creator="blocks" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">"# + "\n"
        xml += "<metadata><author><name>Ana</name></author></metadata>\n"
        for track in 0..<3 {
            xml += "<trk><name>t\(track)</name>\n"
            for segment in 0..<3 {
                xml += "<trkseg>\n"
                for index in 0..<points {
                    let seconds = 1_700_000_000 + track * 100_000 + segment * 10_000 + index
                    let time = ISO8601.format(Timestamp(secondsSince1970: Double(seconds)))
                    switch index % 23 {
                    case 3: xml += "<!-- <trkpt lat=\"9\" lon=\"9\"><time>\(time)</time></trkpt> -->\n"
                    case 7: xml += "  <trkpt lat=\"48.\(index)\" lon=\"2.\(index)\"><ele>35</ele></trkpt>\n" // no time
                    case 11: xml += "  <trkpt lat=\"48.\(index)\" lon=\"2.\(index)\"><time>not a time</time></trkpt>\n"
                    case 13:
                        xml += "  <trkpt lat=\"48.\(index)\" lon=\"2.\(index)\"><time>\(time)</time><extensions>"
                        xml += "<gpxtpx:TrackPointExtension><gpxtpx:hr>1\(index % 90)</gpxtpx:hr></gpxtpx:TrackPointExtension>"
                        xml += "</extensions><desc><![CDATA[ <trkpt lat=\"1\" lon=\"1\"> ]]></desc></trkpt>\n"
                    case 17: xml += "  <trkpt\nlat=\"48.\(index)\"\nlon=\"2.\(index)\"\n><time>\(time)</time></trkpt>\n"
                    default: xml += "  <trkpt lat=\"48.\(index)\" lon=\"2.\(index)\"><time>\(time)</time></trkpt>\n"
                    }
                }
                xml += "</trkseg>\n"
            }
            xml += "<trkpt lat=\"47\" lon=\"1\"><time>2023-11-14T22:13:20Z</time></trkpt>\n</trk>\n"
        }
        xml += "<rte><rtept lat=\"1\" lon=\"2\"><name>a</name></rtept><rtept lat=\"3\" lon=\"4\"/></rte>\n"
        xml += "<wpt lat=\"5\" lon=\"6\"><name>Caf&#233;</name></wpt>\n</gpx>\n"
        return xml
    }

    @Test func cutsAnywhereReadAsOneScan() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("awkward.gpx", Data(awkwardDocument(points: 400).utf8))
        for blockBytes in [97, 256, 1_000, 4_096] {
            let (whole, blocks, takenOver) = readBothWays(path, blockBytes: blockBytes)
            #expect(whole.error == nil)
            #expect(whole.fixes.count > 3_000 && whole.rejected.count > 100)
            expectSame(blocks, whole, "blocks of \(blockBytes) bytes")
            #expect(takenOver > 10, "blocks of \(blockBytes) bytes: \(takenOver) taken over")
        }
    }

    @Test func anErrorInALaterBlockHasItsTrueLineAndColumn() throws {
        let folder = try TemporaryFolder()
        var text = awkwardDocument(points: 300)
        let broken = text.range(of: "lon=\"2.250\"><time>")!
        text.replaceSubrange(broken, with: "lon=\"2.250\"><tme>") // <tme>…</time>: mismatched
        let path = try folder.write("broken.gpx", Data(text.utf8))
        let (whole, blocks, _) = readBothWays(path, blockBytes: 512)
        #expect(whole.error?.hasPrefix("malformedXML") == true, "\(String(describing: whole.error))")
        expectSame(blocks, whole, "an error at line \(whole.error ?? "")")
    }

    @Test func aVisitorErrorStopsAtTheSamePoint() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("points.gpx", Data(awkwardDocument(points: 300).utf8))
        let (whole, blocks, _) = readBothWays(path, blockBytes: 512, failAt: 700)
        #expect(whole.fixes.count == 699 && whole.error?.contains("the sink is full") == true)
        expectSame(blocks, whole, "the sink's error")
    }

    @Test func realFilesReadAsOneScan() throws {
        guard SharedData.isAvailable else {
            print(SharedData.skipMessage)
            return
        }
        var takenOver = 0, points = 0
        for path in SharedData.files(under: "gpx", extensions: ["gpx"]) {
            let (whole, blocks, count) = readBothWays(path, blockBytes: 1_024)
            expectSame(blocks, whole, path)
            takenOver += count
            points += whole.fixes.count
        }
        #expect(points > 10_000 && takenOver > 100, "\(takenOver) blocks taken over, \(points) points")
    }

    /// Mutated real documents (truncated, stray markup, bytes deleted), each repeated past a few
    /// blocks: whatever one scan makes of them, error or not, the blocks make the same.
    @Test func mutatedDocumentsReadAsOneScan() throws {
        var sources: [[UInt8]] = [Array(awkwardDocument(points: 60).utf8)]
        if SharedData.isAvailable {
            for path in SharedData.files(under: "gpx", extensions: ["gpx"]) where !path.contains("iso8859") {
                sources.append(Array((try Data(contentsOf: URL(fileURLWithPath: path))).prefix(20_000)))
            }
        }
        let folder = try TemporaryFolder()
        var generator = SeededGenerator(seed: 55)
        let fuzz = GPXScannerFuzzTests()
        var takenOver = 0
        for index in 0..<300 {
            let data = fuzz.mutate(sources[index % sources.count], using: &generator)
            let path = try folder.write("case\(index).gpx", Data(data))
            let (whole, blocks, count) = readBothWays(path, blockBytes: 300)
            expectSame(blocks, whole, "case \(index)")
            takenOver += count
        }
        #expect(takenOver > 100)
    }
}
