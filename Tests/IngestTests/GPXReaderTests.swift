import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

@Suite struct GPXReaderTests {
    let start = Timestamp(secondsSince1970: 1_700_000_000)

    func read(_ text: String, name: String = "t.gpx") throws -> (GPXSummary, GPXCollector) {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, text)
        let collector = GPXCollector()
        return (try GPXReader(path: path).read(visitor: collector), collector)
    }

    @Test func countsTracksSegmentsPointsRoutesAndWaypoints() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 3), GPXBuilder.walk(count: 2)], [GPXBuilder.walk(count: 4)]]
        gpx.routes = [GPXBuilder.walk(count: 5)]
        gpx.waypoints = [GPXBuilder.Point(45, 7)]
        let (summary, collector) = try read(gpx.text)
        #expect(summary.tracks == 2 && summary.segments == 3 && summary.trackPoints == 9)
        #expect(summary.routes == 1 && summary.routePoints == 5 && summary.waypoints == 1)
        #expect(collector.fixes.map(\.1.segment) == [0, 0, 0, 1, 1, 0, 0, 0, 0])
        #expect(collector.fixes.map(\.1.track) == [0, 0, 0, 0, 0, 1, 1, 1, 1])
        #expect(collector.waypoints.filter { $0.kind == .routePoint }.count == 5)
    }

    @Test func readsTimeElevationAndDilution() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [
            [
                [
                    GPXBuilder.Point(
                        48.5, 2.25, time: start, elevation: 35.5, hdop: 1.5,
                        extra: "<pdop>2.5</pdop>")
                ]
            ]
        ]
        let (_, collector) = try read(gpx.text)
        let fix = try #require(collector.fixes.first?.0)
        #expect(fix.latitudeDegrees == 48.5 && fix.longitudeDegrees == 2.25)
        #expect(fix.time == start && fix.elevationMeters == 35.5 && fix.hdop == 1.5 && fix.pdop == 2.5)
    }

    @Test func readsGPX10SpeedAndCourse() throws {
        var gpx = GPXBuilder()
        gpx.version = "1.0"
        gpx.rootAttributes = #"xmlns="http://www.topografix.com/GPX/1/0""#
        gpx.tracks = [[[GPXBuilder.Point(1, 2, time: start, extra: "<course>90.5</course><speed>3.25</speed>")]]]
        let (summary, collector) = try read(gpx.text)
        #expect(summary.version == "1.0")
        #expect(collector.fixes[0].0.speedMetersPerSecond == 3.25 && collector.fixes[0].0.courseDegrees == 90.5)
    }

    @Test func readsGarminExtensionsEvenWithAnUndeclaredPrefix() throws {
        var gpx = GPXBuilder()
        let extensions =
            "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>142</gpxtpx:hr><gpxtpx:cad>88</gpxtpx:cad>"
            + "<gpxtpx:speed>4.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
        gpx.tracks = [[[GPXBuilder.Point(1, 2, time: start, extra: extensions)]]]
        let (_, collector) = try read(gpx.text)
        let fix = try #require(collector.fixes.first?.0)
        #expect(fix.heartRateBpm == 142 && fix.cadenceRpm == 88 && fix.speedMetersPerSecond == 4.5)
    }

    @Test func anExtensionTimeIsNotTheFixTime() throws {
        var gpx = GPXBuilder()
        gpx.routes = [[GPXBuilder.Point(1, 2, extra: "<extensions><gh:time>31151</gh:time></extensions>")]]
        let (_, collector) = try read(gpx.text)
        #expect(collector.rejected.isEmpty)
        #expect(collector.waypoints.first?.fix.time == nil)
    }

    @Test func keepsPointsWithoutTimesOrElevation() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[[GPXBuilder.Point(1, 2), GPXBuilder.Point(1.0001, 2)]]]
        let (summary, collector) = try read(gpx.text)
        #expect(collector.fixes.count == 2 && summary.pointsWithoutTime == 2)
        #expect(collector.fixes[0].0.elevationMeters == nil)
    }

    @Test func emptySegmentsAreCountedAndHarmless() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[[], GPXBuilder.walk(count: 2), []]]
        let (summary, collector) = try read(gpx.text)
        #expect(summary.segments == 3 && collector.fixes.count == 2)
        #expect(collector.fixes.allSatisfy { $0.1.segment == 1 })
    }

    @Test func readsWithBOMWithoutDeclarationAndInISO88591() throws {
        var plain = GPXBuilder()
        plain.declaration = false
        plain.waypoints = [GPXBuilder.Point(1, 2)]
        #expect(try read("\u{FEFF}" + plain.text).1.waypoints.count == 1)

        let folder = try TemporaryFolder()
        let latin1 =
            #"<?xml version="1.0" encoding="ISO-8859-1"?><gpx version="1.1"><wpt lat="1" lon="2"><name>Škofja Loka Café</name></wpt></gpx>"#
            .replacingOccurrences(of: "Š", with: "S")
        let path = try folder.write("latin1.gpx", latin1.data(using: .isoLatin1)!)
        let collector = GPXCollector()
        _ = try GPXReader(path: path).read(visitor: collector)
        #expect(collector.waypoints.first?.name == "Skofja Loka Café")
    }

    @Test func readsGzippedFiles() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 50)]]
        let folder = try TemporaryFolder()
        let path = try folder.writeGzip("t.gpx.gz", gpx.text)
        let collector = GPXCollector()
        #expect(try GPXReader(path: path).read(visitor: collector).trackPoints == 50)
    }

    @Test func malformedXMLNamesTheLineAndColumn() throws {
        let text = "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trkseg>\n</gpx>\n"
        #expect {
            _ = try read(text)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.code == .malformedXML && error.line == 3 && error.description.contains("t.gpx:3:")
        }
    }

    @Test func aDocumentThatIsNotGPXIsRejected() throws {
        #expect(throws: InputError.self) { _ = try read("<kml><Placemark/></kml>") }
        #expect(throws: InputError.self) { _ = try read("") }
    }

    @Test func pointsWithoutCoordinatesAreRejectedNotFatal() throws {
        let text = #"<gpx version="1.1"><trk><trkseg><trkpt lat="x" lon="2"/><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
        let (_, collector) = try read(text)
        #expect(collector.fixes.count == 1)
        #expect(collector.rejected.map(\.0) == [.malformedRow])
    }

    @Test func metadataAuthorNamesTheDevice() throws {
        var gpx = GPXBuilder()
        gpx.metadata = "<metadata><name>ride</name><author><name>alice-phone</name></author></metadata>"
        #expect(try read(gpx.text).0.authorName == "alice-phone")
        var old = GPXBuilder()
        old.version = "1.0"
        old.metadata = "<author>bob</author><name>x</name>"
        #expect(try read(old.text).0.authorName == "bob")
    }

    @Test func memoryDoesNotDependOnChunkBoundaries() throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 300)]]
        let folder = try TemporaryFolder()
        let path = try folder.write("t.gpx", gpx.text)
        for chunk in [7, 64, 4096] {
            var reader = GPXReader(path: path)
            reader.chunkBytes = chunk
            let collector = GPXCollector()
            _ = try reader.read(visitor: collector)
            #expect(collector.fixes.count == 300)
            #expect(collector.fixes.last?.0.time == GPXBuilder.walk(count: 300).last?.time)
        }
    }
}
