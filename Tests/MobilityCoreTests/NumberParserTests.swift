import Foundation
@testable import MobilityCore
import Testing

@Suite struct NumberParserTests {
    func parse(_ text: String) -> Double? { NumberParser.double(text) }

    @Test func agreesWithStrtodOnTheShapesSensorsWrite() {
        let samples = [
            "0", "-0.0", "12.5", "-1.5504753767742476", "6.1513367E-4", "7.4768066E-4", "9.80665", "1e10",
            "1657534605376", "123456789012345678901234", "0.1", "3.141592653589793238", "+4.5", "2.5e-300",
            // eight digits at a time, and windows that end in an exponent, a point or a lone digit
            "1.2345678e5", "12345678.87654321", "0.000000012345678901234", "9.9999999", "1.23456789", "123456789012"
        ]
        for text in samples {
            #expect(parse(text) == strtod(text, nil), "\(text)")
        }
    }

    /// Bit for bit what glibc's `strtod` (correctly rounded) gives: the independent reference.
    func expectSameAsStrtod(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = strtod(text, nil)
        #expect(
            parse(text)?.bitPattern == reference.bitPattern, "\(text): \(String(describing: parse(text))) vs \(reference)",
            sourceLocation: sourceLocation)
    }

    @Test func longRealCoordinatesAndFloatsAreExact() {
        // Garmin Connect exports (georust's garmin-activity.gpx), GeoTecINIT's float32 printed in full.
        for text in [
            "37.24173816852271556854248046875", "-121.9723242335021495819091796875",
            "103.40000152587890625", "3.1441688537597656", "-0.002061609411612153",
            "-9.369096755981445", "0.041232191026210785", "47.4844814278"
        ] {
            expectSameAsStrtod(text)
        }
    }

    @Test func hardRoundingCasesAreExact() {
        let cases = [
            "9007199254740993", "9007199254740993.0000000000001", "9007199254740995", // 2^53 + 1, + 3: halfway
            "2.00000000000000011102230246251565404236316680908203125", // exactly halfway: to even
            "2.00000000000000011102230246251565404236316680908203124",
            "2.00000000000000011102230246251565404236316680908203126",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", // the largest, then inf
            "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9e-324", "2.4703282292062328e-324",
            "1e-400", "1e400", "0.000000000000000000000000000000000000001", "123456789012345678901234567890e-30",
            "7.2057594037927933e16", "0.1e-22", "0.1e23", "1e-27", "1e55", "1e56", "8.988465674311579e307",
            "4.35679671e-10", "1448997445238699", "18446744073709551615", "18446744073709551616",
            "99999999999999999999", "0.30000000000000004", "2.5e-300"
        ]
        for text in cases {
            expectSameAsStrtod(text)
            expectSameAsStrtod("-" + text)
        }
    }

    @Test func randomDecimalsAgreeWithStrtodBitForBit() {
        var generator = SeededGenerator(seed: 18)
        let digits = Array("0123456789")
        for _ in 0..<200_000 {
            let length = Int.random(in: 1...30, using: &generator)
            var text = String((0..<length).map { _ in digits[Int.random(in: 0...9, using: &generator)] })
            if Bool.random(using: &generator) {
                text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0...length, using: &generator)))
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                text += "e\(Int.random(in: -330...310, using: &generator))"
            }
            if text.first == "." && text.count == 1 { continue }
            expectSameAsStrtod(text)
        }
    }

    @Test func eiselLemireDecidesAlmostEverythingItselfAndExactly() {
        var generator = SeededGenerator(seed: 1_802)
        var undecided = 0
        let trials = 100_000
        for _ in 0..<trials {
            let significand = UInt64.random(in: 1...9_999_999_999_999_999_999, using: &generator)
            let exponent = Int.random(in: -307...288, using: &generator)
            let reference = strtod("\(significand)e\(exponent)", nil)
            if let value = EiselLemire.double(significand: significand, exponent: exponent) {
                #expect(value.bitPattern == reference.bitPattern, "\(significand)e\(exponent)")
            } else {
                undecided += 1
            }
        }
        // Inside 10^-307...10^288 it decides every one of them itself; outside, where a result
        // may be subnormal or infinite, it declines by design and strtod decides.
        #expect(undecided == 0, "\(undecided) of \(trials) left to strtod")
        #expect(EiselLemire.double(significand: 1, exponent: -308) == nil)
        #expect(EiselLemire.double(significand: 1, exponent: 289) == nil)
    }

    @Test func trimsBlanksQuotesAndCarriageReturns() {
        #expect(parse(" 1.25 ") == 1.25)
        #expect(parse("\"1.25\"") == 1.25)
        #expect(parse("1.25\r") == 1.25)
        #expect(parse("\n48.25\n") == 48.25, "an XML attribute value may hold line breaks")
    }

    @Test func rejectsText() {
        for text in ["", "abc", "1.2.3", "1e", "--1", "SEATED", "1,5", "1234567a89", "1.234567:8901"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }

    @Test func readsNaNAsNaN() {
        #expect(parse("nan")?.isNaN == true)
        #expect(parse("inf") == .infinity)
    }
}
