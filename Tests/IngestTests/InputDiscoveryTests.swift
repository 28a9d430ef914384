import Foundation
import Ingest
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Only regular files are read; every other path under the inputs is listed with what it is,
/// and reading is bounded in line length, token length and inflation.
@Suite struct InputDiscoveryTests {
    func problems(_ inputs: [DiscoveredInput]) -> [String: DiscoveryProblem] {
        Dictionary(
            uniqueKeysWithValues: inputs.compactMap { input in input.problem.map { ((input.path as NSString).lastPathComponent, $0) } })
    }

    @Test func fifosDevicesDanglingLinksAndLinkLoopsAreListedNotRead() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/walk.gpx", "<gpx version=\"1.1\"></gpx>")
        #expect(mkfifo(folder.file("traces/x.gpx"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.file("traces/zero.csv"), withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: folder.file("traces/gone.gpx"), withDestinationPath: folder.file("nowhere.gpx"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("traces/loop"), withDestinationPath: folder.file("traces"))
        try FileManager.default.createDirectory(atPath: folder.file("traces/a"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("traces/a/up"), withDestinationPath: folder.file("traces/a"))
        let inputs = try InputDiscovery.discover([folder.file("traces")])
        let found = problems(inputs)
        #expect(inputs.filter { $0.problem == nil }.map { ($0.path as NSString).lastPathComponent } == ["walk.gpx"])
        #expect(found["x.gpx"] == .notRegular("a FIFO (named pipe)"))
        // Given directly (as `inspect x.gpx` does), it is refused, not opened (which would block).
        let direct = try #require(throws: InputError.self) { try FormatDetector().detect(path: folder.file("traces/x.gpx")) }
        #expect(direct.code == .unreadable && direct.message.contains("FIFO"))
        #expect(found["zero.csv"] == .notRegular("a character device"))
        if case .notRegular(let text)? = found["gone.gpx"] {
            #expect(text.contains("link to nothing"))
        } else {
            Issue.record("gone.gpx: \(String(describing: found["gone.gpx"]))")
        }
        if case .notRegular(let text)? = found["loop"] {
            #expect(text.contains("already walked"))
        } else {
            Issue.record("loop: \(String(describing: found["loop"]))")
        }
        if case .notRegular(let text)? = found["up"] {
            #expect(text.contains("already walked"))
        } else {
            Issue.record("up: \(String(describing: found["up"]))")
        }
    }

    @Test func aNameThatIsNotUTF8IsReportedWithItsBytesEscaped() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/ok.gpx", "<gpx version=\"1.1\"></gpx>")
        let bad = Array(folder.file("traces/caf").utf8) + [0xE9] + Array(".gpx".utf8) + [0]
        let descriptor = bad.withUnsafeBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bad.count) { open($0, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let inputs = try InputDiscovery.discover([folder.file("traces")])
        let escaped = try #require(inputs.first { $0.path.hasSuffix("caf\\xE9.gpx") })
        if case .unreadable(let reason)? = escaped.problem {
            #expect(reason.contains("not valid UTF-8"))
        } else {
            Issue.record("\(escaped)")
        }
    }

    @Test func aHugeHeaderLineIsABadHeaderNotAMinuteOfWork() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("wide.csv", String(repeating: "column,", count: 1_500_000) + "\n1,2\n")
        let error = try #require(throws: InputError.self) { try FormatDetector().detect(path: path) }
        #expect(error.code == .badHeader && error.line == 1 && error.message.contains("longer than 64 KiB"))
    }

    @Test func aFileWithoutLineEndsIsRefusedBeforeMemoryGrowsWithIt() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("flat.csv", "time,ax,ay,az\n" + String(repeating: "1", count: 3 << 20))
        let error = try #require(throws: InputError.self) { try ingestFile(path) }
        #expect(error.code == .malformedRecord && error.line == 2)
    }

    @Test func aGPXOfZerosIsRefusedAsOneEndlessToken() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("zeros.gpx", Data([0x3C]) + Data(count: 20 << 20))
        let error = try #require(throws: InputError.self) { try ingestFile(path) }
        #expect(error.code == .malformedXML)
    }

    @Test func aGzipBombIsRefusedWithItsRatio() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("bomb.csv.gz")
        try Gzip.write(Data(repeating: 0x0A, count: 80 << 20), to: path) // 80 MiB of line ends, about 80 KB packed
        let source = try ByteSource(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let error = try #require(throws: InputError.self) { while try source.read(into: buffer) > 0 {} }
        #expect(error.code == .tooLarge && error.message.contains("decompression bomb"), "\(error)")
    }

    /// An upload cut short: zlib gives what came before the cut, then says the stream ended early.
    @Test func aTruncatedGzipIsRefusedNotReadUpToTheCut() throws {
        let folder = try TemporaryFolder()
        let whole = folder.file("whole.csv.gz"), cut = folder.file("cut.csv.gz")
        let text = "time,ax,ay,az\n" + (0..<5_000).map { "\(1_700_000_000 + $0),0,0,9.8" }.joined(separator: "\n") + "\n"
        try Gzip.write(Data(text.utf8), to: whole)
        let packed = try Data(contentsOf: URL(fileURLWithPath: whole))
        try packed.prefix(packed.count / 2).write(to: URL(fileURLWithPath: cut))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        let source = try ByteSource(path: whole)
        while case let count = try source.read(into: buffer), count > 0 { total += count }
        #expect(total == text.utf8.count, "a whole file reads to its end")
        let error = try #require(throws: InputError.self) {
            let source = try ByteSource(path: cut); while try source.read(into: buffer) > 0 {}
        }
        #expect(error.code == .unreadable && error.message.contains("ends early"), "\(error)")
    }
}
