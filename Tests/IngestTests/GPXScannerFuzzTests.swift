import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// Mutated documents (truncations, stray markup, deleted bytes) must not crash the scanner;
/// whatever expat reads, the scanner reads the same way; it may accept a little more than
/// expat (it does not validate every byte of text it skips), never less.
@Suite struct GPXScannerFuzzTests {
    func read(_ path: String, fast: Bool) -> (GPXCollector, InputError?) {
        var reader = GPXReader(path: path)
        reader.allowsFastScanner = fast
        let collector = GPXCollector()
        do {
            _ = try reader.read(visitor: collector)
            return (collector, nil)
        } catch {
            return (collector, error as? InputError)
        }
    }

    func mutate(_ original: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var data = original
        let inserts: [[UInt8]] = [
            "<", ">", "\"", "'", "&", "/", "=", "!", " ", "\n", "?", "-", "x", "é", "<!--", "-->",
            "<![CDATA[", "]]>", "&amp;", "&bogus;", "</trkpt>", "<trkpt lat=\"1\" lon=\"2\">", "<?x?>"
        ]
        .map { Array($0.utf8) }
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !data.isEmpty {
            let position = Int.random(in: 0..<data.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: data.removeSubrange(position...)
            case 1: data.insert(contentsOf: inserts.randomElement(using: &generator)!, at: position)
            default: data.removeSubrange(position..<min(data.count, position + Int.random(in: 1...20, using: &generator)))
            }
        }
        return data
    }

    @Test func scannerNeverRejectsWhatExpatAcceptsAndAgreesOnWhatBothRead() throws {
        var sources: [[UInt8]] = []
        var builder = GPXBuilder()
        builder.tracks = [[GPXBuilder.walk(count: 40)]]
        builder.waypoints = [GPXBuilder.Point(45, 7, extra: "<name>Caf&#233; &amp; bar</name>")]
        sources.append(Array(builder.text.utf8))
        if SharedData.isAvailable {
            for path in SharedData.files(under: "gpx", extensions: ["gpx"]) where !path.contains("iso8859") {
                sources.append(Array((try Data(contentsOf: URL(fileURLWithPath: path))).prefix(30_000)))
            }
        }
        let folder = try TemporaryFolder()
        var generator = SeededGenerator(seed: 2026)
        var lenient = 0
        for index in 0..<1000 {
            let data = mutate(sources[index % sources.count], using: &generator)
            let path = try folder.write("case\(index).gpx", Data(data))
            let (fast, fastError) = read(path, fast: true)
            let (slow, slowError) = read(path, fast: false)
            if slowError == nil {
                #expect(fastError == nil, "case \(index): expat reads it, the scanner says \(String(describing: fastError))")
                #expect(fast.fixes.map(\.0) == slow.fixes.map(\.0), "case \(index)")
                #expect(fast.waypoints == slow.waypoints, "case \(index)")
            } else if fastError == nil {
                lenient += 1
            }
        }
        print("scanner accepted \(lenient) of 1000 mutated documents that expat rejected")
    }
}
