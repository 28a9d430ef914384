/// The text of a GeoJSON LineString as the store keeps it (`{"type":"LineString",
/// "coordinates":[[lon,lat],…]}`), read without decoding the JSON: legs hold thousands of
/// points, and both the GeoPackage (Reports) and the trackintel export (Store) read every leg's.
public enum GeoJSONLineText {
    /// Calls `body` with each longitude and latitude of a GeoJSON LineString's text, scanned
    /// rather than decoded; returns how many points, nil when the text is not pairs of numbers.
    public static func coordinates(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Double, Double) -> Void) -> Int? {
        var scanner = Scanner()
        scanner.add(bytes, body)
        return scanner.finish(body)
    }

    /// `coordinates(_:_:)` of a text kept elsewhere, read in blocks of `blockBytes`.
    public static func coordinates(_ source: BlockText, blockBytes: Int = 1 << 20, _ body: (Double, Double) -> Void) throws -> Int? {
        var scanner = Scanner()
        try source.forEachBlock(blockBytes: blockBytes) { scanner.add($0, body) }
        return scanner.finish(body)
    }

    /// The scan fed a piece of the text at a time: the key or a number cut by a piece's end is
    /// carried into the next piece, so the pairs and the count are those of the whole text.
    public struct Scanner {
        /// Before the key, the text's last bytes (fewer than the key's); after it, a number
        /// the last piece ended in.
        private var carry: [UInt8] = []
        private var afterKey = false
        private var longitude: Double?
        private var points = 0
        private var failed = false

        public init() {}

        public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Double, Double) -> Void) {
            guard !failed, !bytes.isEmpty else { return }
            var index = 0
            if !afterKey {
                let key = GeoJSONLineText.coordinatesKey
                let joined = carry + bytes.prefix(key.count - 1)
                if let found = joined.firstRange(of: key) {
                    index = found.upperBound - carry.count
                } else if let found = bytes.firstRange(of: key) {
                    index = found.upperBound
                } else {
                    carry = Array((carry + bytes).suffix(key.count - 1))
                    return
                }
                (afterKey, carry) = (true, [])
            } else if !carry.isEmpty {
                while index < bytes.count, GeoJSONLineText.isNumberByte(bytes[index]) { index += 1 }
                carry += bytes[0..<index]
                guard index < bytes.count else { return }
                take(carry, body)
                carry = []
            }
            while index < bytes.count, !failed {
                guard GeoJSONLineText.isNumberByte(bytes[index]) else { index += 1; continue }
                var end = index + 1
                while end < bytes.count, GeoJSONLineText.isNumberByte(bytes[end]) { end += 1 }
                guard end < bytes.count else {
                    carry = Array(bytes[index..<end])
                    return
                }
                take(UnsafeBufferPointer(rebasing: bytes[index..<end]), body)
                index = end
            }
        }

        /// The count of pairs, nil when the text had no key, a word that is not a number, or
        /// an odd count of numbers.
        public mutating func finish(_ body: (Double, Double) -> Void) -> Int? {
            if afterKey, !carry.isEmpty {
                take(carry, body)
                carry = []
            }
            return afterKey && !failed && longitude == nil ? points : nil
        }

        private mutating func take(_ token: [UInt8], _ body: (Double, Double) -> Void) {
            token.withUnsafeBufferPointer { take($0, body) }
        }

        private mutating func take(_ token: UnsafeBufferPointer<UInt8>, _ body: (Double, Double) -> Void) {
            // NumberParser, not strtod: 6.3 M coordinates at 1,600 device-days took
            // strtod 0.6 s (its slow multi-precision path); the parser rounds as strtod does.
            guard let number = NumberParser.double(token) else {
                failed = true
                return
            }
            if let x = longitude {
                body(x, number)
                (longitude, points) = (nil, points + 1)
            } else {
                longitude = number
            }
        }
    }

    private static let coordinatesKey = Array("\"coordinates\"".utf8)

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
    }
}
