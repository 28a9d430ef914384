/// The text of a GeoJSON LineString as the store keeps it (`{"type":"LineString",
/// "coordinates":[[lon,lat],…]}`), read without decoding the JSON: legs hold thousands of
/// points, and both the GeoPackage (Reports) and the trackintel export (Store) read every leg's.
public enum GeoJSONLineText {
    /// Calls `body` with each longitude and latitude of a GeoJSON LineString's text, scanned
    /// rather than decoded; returns how many points, nil when the text is not pairs of numbers.
    public static func coordinates(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Double, Double) -> Void) -> Int? {
        guard let start = bytes.firstRange(of: Self.coordinatesKey) else { return nil }
        var (longitude, points): (Double?, Int) = (nil, 0)
        var index = start.upperBound
        while index < bytes.count {
            guard Self.isNumberByte(bytes[index]) else { index += 1; continue }
            var end = index + 1
            while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
            // NumberParser, not strtod: 6.3 M coordinates at 1,600 device-days took
            // strtod 0.6 s (its slow multi-precision path); the parser rounds as strtod does.
            guard let number = NumberParser.double(UnsafeBufferPointer(rebasing: bytes[index..<end])) else { return nil }
            if let x = longitude {
                body(x, number)
                (longitude, points) = (nil, points + 1)
            } else {
                longitude = number
            }
            index = end
        }
        return longitude == nil ? points : nil
    }

    private static let coordinatesKey = Array("\"coordinates\"".utf8)

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
    }
}
