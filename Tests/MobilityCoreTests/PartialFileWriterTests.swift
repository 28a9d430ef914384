import Foundation
import MobilityCore
import TestSupport
import Testing

/// A file written as it is made (`PartialFileWriter`): in place only when finished, every byte
/// across its 1 MiB blocks, and no half-written file left when it is dropped.
@Suite struct PartialFileWriterTests {
    @Test func theFileAppearsWholeOnlyWhenFinished() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("lines.geojson")
        let writer = try PartialFileWriter(path: path)
        // 3.4 MiB in pieces of every length, non-ASCII included: several blocks, one piece across each boundary.
        var expected = ""
        for index in 0..<120_000 {
            let piece = "[\(index),é\(String(repeating: "x", count: index % 37))]"
            writer.write(piece)
            expected += piece
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing in place before finish")
        #expect(FileManager.default.fileExists(atPath: path + ".partial"))
        try writer.finish()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected.utf8))
        #expect(expected.utf8.count > 3 * PartialFileWriter.blockBytes)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    @Test func aWriterDroppedUnfinishedLeavesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("dropped.geojson")
        do {
            let writer = try PartialFileWriter(path: path)
            writer.write(String(repeating: "y", count: 2 * PartialFileWriter.blockBytes))
        }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".partial"))
        // A folder that is not there: an error naming the file, not a crash.
        #expect(throws: (any Error).self) { try PartialFileWriter(path: folder.file("missing/x.geojson")) }
    }
}
