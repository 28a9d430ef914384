/// Numbers and times appended to a byte buffer as the text `FixedPoint.text` and
/// `ISO8601.formatMillis` make, without a `String` per field: the trackintel export writes
/// 1.4 M positionfixes of 12 fields, and half its time went to building those strings
/// (`perf record`, 52 % in libswiftCore).
public enum ASCIIDigits {
    /// A non-negative integer in decimal.
    public static func append(_ value: Int, to bytes: inout [UInt8]) {
        var buffer:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, rest = value
        withUnsafeMutableBytes(of: &buffer) { digits in
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: digits[(20 - count)...])
        }
    }

    /// A non-negative integer below 10^width, zero-padded to `width` digits.
    public static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

extension FixedPoint {
    /// `text(value, digits:)`, appended to `bytes`.
    public static func append(_ value: Double, digits: Int, to bytes: inout [UInt8]) {
        let scale = scales[digits]
        let scaled = (abs(value) * scale).rounded()
        guard value.isFinite, scaled < 9e15 else { return bytes.append(contentsOf: text(value, digits: digits).utf8) }
        let whole = (scaled / scale).rounded(.down), fraction = Int(scaled - whole * scale)
        if value < 0 && scaled > 0 { bytes.append(UInt8(ascii: "-")) }
        ASCIIDigits.append(Int(whole), to: &bytes)
        guard digits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        ASCIIDigits.append(fraction, width: digits, to: &bytes)
    }
}

extension ISO8601 {
    /// `formatMillis(time)`, appended to `bytes`.
    public static func appendMillis(_ time: Timestamp, to bytes: inout [UInt8]) {
        let total = time.secondsSince1970
        guard formattableSeconds.contains(total) else { return bytes.append(contentsOf: formatMillis(time).utf8) }
        var seconds = total.rounded(.down)
        var millis = Int(((total - seconds) * 1000).rounded())
        if millis == 1000 { millis = 0; seconds += 1 }
        let whole = Int(seconds)
        let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return bytes.append(contentsOf: formatMillis(time).utf8) }
        ASCIIDigits.append(year, width: 4, to: &bytes)
        for (separator, value) in [
            (UInt8(ascii: "-"), month), (UInt8(ascii: "-"), day), (UInt8(ascii: "T"), secondOfDay / 3600),
            (UInt8(ascii: ":"), secondOfDay / 60 % 60), (UInt8(ascii: ":"), secondOfDay % 60)
        ] {
            bytes.append(separator)
            ASCIIDigits.append(value, width: 2, to: &bytes)
        }
        bytes.append(UInt8(ascii: "."))
        ASCIIDigits.append(millis, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }
}
