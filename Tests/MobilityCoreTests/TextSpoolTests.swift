import Foundation
import MobilityCore
import TestSupport
import Testing

/// The legs' lines wait in a `TextSpool` between the trip stage and the store: every text must
/// come back as written, whole or a block at a time, however many threads wrote at once.
@Suite struct TextSpoolTests {
    /// A text of `count` bytes or a little more, numbered so that a misplaced block shows,
    /// with two- and three-byte characters that a block's end may cut.
    static func text(_ number: Int, bytes count: Int) -> String {
        var text = "\(number):"
        var index = 0
        while text.utf8.count < count {
            text += index % 7 == 0 ? "é\(index)," : index % 11 == 0 ? "€\(index)," : "[\(number).\(index)],"
            index += 1
        }
        return text
    }

    @Test func textsWrittenByManyThreadsAtOnceComeBackAsWritten() throws {
        let folder = try TemporaryFolder()
        let spool = try TextSpool(directory: folder.path)
        // Four writers, each with short texts and texts of several blocks, pieces of uneven size.
        let sizes = [0, 10, 5_000, 3 * TextSpool.blockBytes + 17, 200, TextSpool.blockBytes, 1]
        let slots = ConcurrentSlots<[(String, SpooledText)]>(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { writerNumber in
            var writer = TextSpool.Writer(spool)
            var written: [(String, SpooledText)] = []
            for (index, size) in sizes.enumerated() {
                let text = Self.text(writerNumber * 100 + index, bytes: size)
                var rest = Substring(text)
                var piece = 1 + index * 37
                while !rest.isEmpty {
                    writer.write(String(rest.prefix(piece)))
                    rest = rest.dropFirst(piece)
                    piece = piece * 3 % 70_001 + 1
                }
                written.append((text, .spooled(spool, writer.end())))
            }
            slots.store(written, at: writerNumber)
        }
        // And, for certain, a text whose blocks another writer's block came between.
        // (One block's bytes exactly, so the first writer writes it before the second's.)
        var (first, second) = (TextSpool.Writer(spool), TextSpool.Writer(spool))
        let head = String(repeating: "a", count: TextSpool.blockBytes), tail = Self.text(900, bytes: 100)
        let long = head + tail, between = Self.text(901, bytes: TextSpool.blockBytes)
        first.write(head)
        second.write(between)
        first.write(tail)
        let parted: [(String, SpooledText)] = [(between, .spooled(spool, second.end())), (long, .spooled(spool, first.end()))]
        if case let .spooled(_, stored) = parted[1].1 {
            #expect(stored.ranges.count == 2, "the long text's blocks were parted by the other writer's")
        }
        try spool.check()
        for (text, spooled) in slots.values.flatMap({ $0 }) + parted {
            #expect(try spooled.string() == text)
            var copied = ""
            try spooled.write(to: &copied)
            #expect(copied == text, "written a block at a time, characters cut by a block's end joined again")
            if case let .spooled(_, stored) = spooled {
                #expect(stored.count == text.utf8.count)
            }
        }
        // The file was unlinked when it was made: nothing is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aFolderThatCannotTakeTheFileIsNamed() {
        let error = #expect(throws: PipelineError.self) { _ = try TextSpool(directory: "/nonexistent-folder-for-the-spool") }
        #expect(error?.message.contains("/nonexistent-folder-for-the-spool") == true && error?.message.contains("legs' lines") == true)
    }

    @Test func aBlockEndingInsideACharacterKeepsItsFirstBytes() {
        let euro = Array("a€".utf8) // 0x61 0xE2 0x82 0xAC
        #expect(SpooledText.wholeCharacters(euro) == 4)
        #expect(SpooledText.wholeCharacters(Array(euro[0..<3])) == 1)
        #expect(SpooledText.wholeCharacters(Array(euro[0..<2])) == 1)
        #expect(SpooledText.wholeCharacters(Array("abc".utf8)) == 3)
        #expect(SpooledText.wholeCharacters([]) == 0)
    }
}
