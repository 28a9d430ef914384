import Foundation
import MobilityCore
import Testing

/// The byte writers give exactly the text of the String ones they stand in for.
@Suite struct ASCIITextTests {
    @Test func fixedPointBytesAreFixedPointText() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1e-9, -1e-9, 2.5, -2.5, 0.05, 0.15, 48.8600897509825, -122.4194155, 180, 999_999.99995,
            1714953600.0005, .nan, .infinity, -.infinity
        ]
        for _ in 0..<20_000 { values.append(Double.random(in: -1e7...1e7, using: &generator)) }
        for _ in 0..<20_000 { values.append(Double.random(in: -1...1, using: &generator)) }
        for value in values {
            for digits in 0...7 {
                var bytes: [UInt8] = []
                FixedPoint.append(value, digits: digits, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == FixedPoint.text(value, digits: digits), "\(value), \(digits) digits")
            }
        }
    }

    /// C's printf, through Foundation, is the independent source: every value the fast path
    /// writes must come out as `%.<digits>f` does, ties (2.5 → "2"), near-ties and the sign of a
    /// negative that rounds to zero included.
    @Test func printfTextIsStringFormat() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.0000005, 0.0000015, -1e-9, 1e-9, 48.8600895, 2.3558145, -122.4194155,
            1714953600.0005, 999_999.99999995, 1e15, 1e15 - 1, 9.5e15, 1e300, .nan, .infinity, -.infinity,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2
        ]
        for _ in 0..<20_000 { values.append(Double.random(in: -180...180, using: &generator)) }
        for _ in 0..<20_000 { values.append(Double.random(in: -1e9...1e9, using: &generator)) }
        // Halves in the last written digit, as decimal text gives them: the near-ties.
        for _ in 0..<20_000 {
            let digits = Int.random(in: 0...7, using: &generator)
            let whole = Double(Int.random(in: -100_000_000...100_000_000, using: &generator))
            values.append((whole + 0.5) / pow(10, Double(digits)))
        }
        for value in values {
            for digits in 0...7 {
                #expect(FixedPoint.printf(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value), \(digits) digits")
            }
        }
    }

    @Test func isoBytesAreFormatMillis() {
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = [
            0, -1, -0.0005, 0.9995, 1714953600, 1714953599.9996, 951_782_400 /* 2000-02-29 */, -62_135_596_800, 253_402_300_799,
            253_402_300_800, -70_000_000_000
        ]
        for _ in 0..<50_000 { times.append(Double.random(in: -3e9...5e9, using: &generator)) }
        for seconds in times {
            var bytes: [UInt8] = []
            ISO8601.appendMillis(Timestamp(secondsSince1970: seconds), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ISO8601.formatMillis(Timestamp(secondsSince1970: seconds)), "\(seconds)")
        }
        var digits: [UInt8] = []
        for value in [0, 7, 10, 99, 1_234_567, Int.max] {
            digits.removeAll(); ASCIIDigits.append(value, to: &digits); #expect(String(decoding: digits, as: UTF8.self) == String(value))
        }
    }
}
