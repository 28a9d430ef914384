import Foundation

/// Decimal text to numbers, on bytes, without allocating.
///
/// Hand-written because every CSV field and GPX attribute goes through it: short shapes
/// (`-12.345678`, `6.1513367E-4`) take Clinger's exact fast path (an integer mantissa under
/// 2^53 scaled by an exactly representable power of ten), long ones (`37.24173816852271556854248046875`,
/// `-1.5504753767742476`) `EiselLemire`, and what neither can decide (subnormals, `nan`, `inf`,
/// a truncated significand exactly between two doubles) falls back to `strtod`, so results are
/// always correctly rounded.
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
        // Up to 19 significant digits go into the significand (they always fit in 64 bits);
        // further digits only move the decimal exponent and mark the significand truncated.
        var significand: UInt64 = 0
        var significant = 0
        var exponent = 0
        var truncated = false
        var sawDigit = false
        while index < end, bytes[index] &- 0x30 < 10 {
            if significand != 0, significant <= 11, end - index >= 8, let eight = eightDigits(bytes, at: index) {
                significand = significand &* 100_000_000 &+ eight
                significant += 8
                index += 8
                continue
            }
            let digit = bytes[index] &- 0x30
            if significant < 19 {
                significand = significand &* 10 &+ UInt64(digit)
                if significand != 0 { significant += 1 }
            } else {
                exponent += 1
                truncated = truncated || digit != 0
            }
            sawDigit = true
            index += 1
        }
        if index < end, bytes[index] == 0x2E {
            index += 1
            while index < end, bytes[index] &- 0x30 < 10 {
                if significand != 0, significant <= 11, end - index >= 8, let eight = eightDigits(bytes, at: index) {
                    significand = significand &* 100_000_000 &+ eight
                    significant += 8
                    exponent -= 8
                    index += 8
                    sawDigit = true
                    continue
                }
                let digit = bytes[index] &- 0x30
                if significant < 19 {
                    significand = significand &* 10 &+ UInt64(digit)
                    if significand != 0 { significant += 1 }
                    exponent -= 1
                } else {
                    truncated = truncated || digit != 0
                }
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
        let magnitude: Double
        if !truncated, significand < (1 << 53), exponent >= -22, exponent <= 22 {
            // Clinger's fast path: both factors exact, so one correctly rounded operation.
            let value = Double(significand)
            magnitude = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        } else if let value = EiselLemire.double(significand: significand, exponent: exponent) {
            // A truncated significand lies between w and w + 1 (times 10^q): when both round to
            // the same double, so does the number itself.
            if truncated, EiselLemire.double(significand: significand + 1, exponent: exponent) != value {
                return slow(bytes, start, end)
            }
            magnitude = value
        } else {
            return slow(bytes, start, end)
        }
        return negative ? -magnitude : magnitude
    }

    /// The eight bytes from `index` as one number when all are ASCII digits, nil otherwise:
    /// eight digits in three multiplications instead of eight (SWAR, as `parse_eight_digits_unrolled`
    /// in fast_float and simdjson). Sensor CSVs write 16–20 digits a value (`-0.013896775431931019`),
    /// so most digits go this way. Little-endian: the first byte is the lowest.
    @inline(__always)
    private static func eightDigits(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64? {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
        // Every byte 0x30...0x39: its high nibble is 3, and adding 6 does not carry into it.
        let allDigits = (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
        guard allDigits == 0x3333_3333_3333_3333 else { return nil }
        var value = word &- 0x3030_3030_3030_3030
        value = value &* 10 &+ (value >> 8) // pairs of digits
        let low = (value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
        let high = ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
        return ((low &+ high) >> 32) & 0xFFFF_FFFF
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
