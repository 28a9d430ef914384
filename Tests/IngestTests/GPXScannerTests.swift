import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// The fast path's XML handling; each case is also read with expat and must agree.
@Suite struct GPXScannerTests {
    func both(_ text: String, encoding: String.Encoding = .utf8) throws -> [(
        summary: GPXSummary?, collector: GPXCollector, error: InputError?
    )] {
        let folder = try TemporaryFolder()
        let path = try folder.write("t.gpx", text.data(using: encoding)!)
        return [true, false].map { fast in
            var reader = GPXReader(path: path)
            reader.allowsFastScanner = fast
            let collector = GPXCollector()
            do { return (try reader.read(visitor: collector), collector, nil) } catch {
                return (nil, collector, error as? InputError)
            }
        }
    }

    @Test func entitiesCDATAAndCommentsDecodeAlike() throws {
        let text = """
            <?xml version="1.0"?>
            <!-- a comment -->
            <gpx version="1.1" creator="Tom &amp; Jerry">
            <wpt lat="1" lon="2"><name>Caf&#233; &lt;Nord&gt; &#x263A;</name><!-- <name>no</name> --></wpt>
            <wpt lat="3" lon="4"><name><![CDATA[a < b & c]]></name></wpt>
            </gpx>
            """
        let results = try both(text)
        for result in results {
            #expect(result.error == nil)
            #expect(result.collector.waypoints.map(\.name) == ["Café <Nord> ☺", "a < b & c"])
            #expect(result.summary?.creator == "Tom & Jerry")
        }
    }

    @Test func structuralErrorsAreMalformedWithTheirLine() throws {
        let cases = [
            "<gpx version=\"1.1\">\n<trk>\n</trkseg>\n</gpx>\n", // mismatched tag, line 3
            "<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\"/>\n</gpx>\n<gpx/>\n", // junk after the root, line 4
            "<gpx version=\"1.1\">\n<wpt lat=1 lon=\"2\"/>\n</gpx>\n", // unquoted attribute, line 2
            "<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\"><name>&nbsp;</name></wpt>\n</gpx>\n", // undefined entity
            "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">" // truncated
        ]
        let lines = [3, 4, 2, 2, 3]
        for (text, line) in zip(cases, lines) {
            for result in try both(text) {
                #expect(result.error?.code == .malformedXML, "\(text)")
                #expect(result.error?.line == line, "\(text): \(String(describing: result.error))")
            }
        }
    }

    @Test func utf16AndLatin1GoThroughExpat() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>Zürich</name></wpt></gpx>"
        for result in try both(text, encoding: .utf16) {
            #expect(result.collector.waypoints.first?.name == "Zürich")
        }
        let latin1 =
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>Zürich</name></wpt></gpx>"
        for result in try both(latin1, encoding: .isoLatin1) {
            #expect(result.collector.waypoints.first?.name == "Zürich")
        }
    }

    @Test func aRootThatIsNotGPXIsRejected() throws {
        for result in try both("<kml version=\"2\"><wpt lat=\"1\" lon=\"2\"/></kml>") {
            #expect(result.error?.code == .notGPX && result.collector.waypoints.isEmpty)
        }
    }
}
