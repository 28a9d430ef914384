import MobilityCore
import Testing

/// A leg's GeoJSON line scanned in pieces (`GeoJSONLineText.Scanner`, `Source`) gives the
/// pairs, count and failures of the whole text, wherever the pieces are cut.
@Suite struct GeoJSONLineTextTests {
    static let texts = [
        #"{"type":"LineString","coordinates":[[2.3522,48.8566],[-0.1276,51.5072],[1.5e-3,-12.25E+1],[139.6917,35.6895]]}"#,
        #"{"type":"LineString","coordinates":[]}"#,
        #"{"type": "LineString", "coordinates": [ [ 10, 20 ] ]}"#,
        // What scans as nothing: no key, a word that is not a number, an odd count of numbers.
        #"{"type":"LineString","coords":[[1,2],[3,4]]}"#,
        #"{"type":"LineString","coordinates":[[1,2],[3.4.5,6]]}"#,
        #"{"type":"LineString","coordinates":[[1,2],[3]]}"#,
        #"{"type":"LineString","coordinates":[[1,2],[3,4]]"#,
        #"{"type":"LineString","coordinates":[[1,2],[3,4"#,
        #""coordinates""#,
        ""
    ]

    static func whole(_ text: String) -> (pairs: [[Double]], count: Int?) {
        var pairs: [[Double]] = []
        let count = Array(text.utf8).withUnsafeBufferPointer { GeoJSONLineText.coordinates($0) { pairs.append([$0, $1]) } }
        return (pairs, count)
    }

    @Test func knownAnswers() {
        let first = Self.whole(Self.texts[0])
        #expect(first.count == 4)
        #expect(first.pairs == [[2.3522, 48.8566], [-0.1276, 51.5072], [0.0015, -122.5], [139.6917, 35.6895]])
        // A text cut after its last number still scans to its pairs (the store never cuts one).
        #expect(Self.texts.map { Self.whole($0).count } == [4, 0, 1, nil, nil, nil, 2, 2, 0, nil])
    }

    /// Every text cut into pieces of every length from 1 byte, fed to the scanner and read from a
    /// source in blocks: the same pairs and count as the whole text.
    @Test func piecesGiveTheWholeTextsAnswer() throws {
        for text in Self.texts {
            let bytes = Array(text.utf8), expected = Self.whole(text)
            for length in 1...max(1, bytes.count + 1) {
                var scanner = GeoJSONLineText.Scanner()
                var pairs: [[Double]] = []
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + length)
                    bytes[start..<end].withUnsafeBufferPointer { scanner.add($0) { pairs.append([$0, $1]) } }
                    start = end
                }
                let count = scanner.finish { pairs.append([$0, $1]) }
                #expect(count == expected.count && (count == nil || pairs == expected.pairs), "\(text) in pieces of \(length)")

                var reads = 0
                let source = BlockText(count: bytes.count) { buffer, offset in
                    reads += 1
                    bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + buffer.count])) }
                }
                var read: [[Double]] = []
                let sourced = try GeoJSONLineText.coordinates(source, blockBytes: length) { read.append([$0, $1]) }
                #expect(sourced == expected.count && (sourced == nil || read == expected.pairs), "\(text) read in blocks of \(length)")
                #expect(reads == (bytes.count + length - 1) / length)
            }
        }
    }
}
