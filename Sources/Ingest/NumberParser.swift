import Foundation

/// Decimal text to numbers, on bytes, without allocating.
///
/// Hand-written because every CSV field and GPX attribute goes through it: the common shapes
/// (`-12.345678`, `6.1513367E-4`) take Clinger's exact fast path (an integer mantissa under
/// 2^53 scaled by an exactly representable power of ten), and anything else falls back to
/// `strtod`, so results are always correctly rounded.
public enum NumberParser {
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    public static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        // Blanks (including line breaks, which XML attribute values may hold) and quotes around
        // the number are not part of it.
        func isPadding(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x22 }
        var start = 0, end = bytes.count
        while start < end, isPadding(bytes[start]) { start += 1 }
        while end > start, isPadding(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        var index = start
        var negative = false
        if bytes[index] == 0x2D || bytes[index] == 0x2B { negative = bytes[index] == 0x2D; index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while index < end, bytes[index] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)
            digits += mantissa == 0 ? 0 : 1
            sawDigit = true
            index += 1
        }
        if index < end, bytes[index] == 0x2E {
            index += 1
            while index < end, bytes[index] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)
                digits += mantissa == 0 ? 0 : 1
                exponent -= 1
                sawDigit = true
                index += 1
            }
        }
        guard sawDigit else { return slow(bytes, start, end) }
        if index < end, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            var expNegative = false
            if index < end, bytes[index] == 0x2D || bytes[index] == 0x2B { expNegative = bytes[index] == 0x2D; index += 1 }
            var value = 0, expDigits = 0
            while index < end, bytes[index] &- 0x30 < 10, expDigits < 6 {
                value = value * 10 + Int(bytes[index] &- 0x30)
                expDigits += 1
                index += 1
            }
            guard expDigits > 0 else { return nil }
            exponent += expNegative ? -value : value
        }
        guard index == end else { return slow(bytes, start, end) }
        guard digits <= 15, mantissa < (1 << 53), exponent >= -22, exponent <= 22 else {
            return slow(bytes, start, end)
        }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }

    /// `nan`, `inf`, long mantissas and other rare shapes, through the C library.
    private static func slow(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let length = end - start
        guard length < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            for i in 0..<length { text[i] = CChar(bitPattern: bytes[start + i]) }
            text[length] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &stop)
            return stop == text.baseAddress! + length ? value : nil
        }
    }

    public static func double(_ text: Substring) -> Double? {
        var copy = String(text)
        return copy.withUTF8 { double($0) }
    }

    public static func double(_ text: String) -> Double? { double(Substring(text)) }
}
