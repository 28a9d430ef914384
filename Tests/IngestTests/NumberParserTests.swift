import Foundation
@testable import Ingest
import Testing

@Suite struct NumberParserTests {
    func parse(_ text: String) -> Double? { NumberParser.double(text) }

    @Test func agreesWithStrtodOnTheShapesSensorsWrite() {
        let samples = ["0", "-0.0", "12.5", "-1.5504753767742476", "6.1513367E-4", "7.4768066E-4", "9.80665", "1e10",
                       "1657534605376", "123456789012345678901234", "0.1", "3.141592653589793238", "+4.5", "2.5e-300"]
        for text in samples {
            #expect(parse(text) == strtod(text, nil), "\(text)")
        }
    }

    @Test func trimsBlanksQuotesAndCarriageReturns() {
        #expect(parse(" 1.25 ") == 1.25)
        #expect(parse("\"1.25\"") == 1.25)
        #expect(parse("1.25\r") == 1.25)
        #expect(parse("\n48.25\n") == 48.25, "an XML attribute value may hold line breaks")
    }

    @Test func rejectsText() {
        for text in ["", "abc", "1.2.3", "1e", "--1", "SEATED", "1,5"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }

    @Test func readsNaNAsNaN() {
        #expect(parse("nan")?.isNaN == true)
        #expect(parse("inf") == .infinity)
    }
}
