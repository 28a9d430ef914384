import Ingest
import TestSupport
import Testing

@Suite struct LineReaderTests {
    func lines(_ path: String, chunkBytes: Int = 1 << 18) throws -> [String] {
        var lines: [String] = []
        try LineReader(path: path, chunkBytes: chunkBytes).forEachLine { line, number in
            #expect(number == lines.count + 1)
            lines.append(String(decoding: line, as: UTF8.self))
            return true
        }
        return lines
    }

    @Test func handlesCRLFAndAMissingFinalNewline() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("a.txt", "one\r\ntwo\r\n\r\nthree")
        #expect(try lines(path) == ["one", "two", "", "three"])
    }

    @Test func skipsAUTF8ByteOrderMark() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bom.csv", "\u{FEFF}time,ax\n1,2\n")
        #expect(try lines(path) == ["time,ax", "1,2"])
    }

    @Test func linesLongerThanTheBufferAreWhole() throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "x", count: 5000)
        let path = try folder.write("long.txt", "a\n\(long)\nb\n")
        #expect(try lines(path, chunkBytes: 64) == ["a", long, "b"])
    }

    @Test func readsGzipTransparently() throws {
        let folder = try TemporaryFolder()
        let path = try folder.writeGzip("a.csv.gz", "h\n1\n2\n")
        #expect(try lines(path) == ["h", "1", "2"])
    }
}
