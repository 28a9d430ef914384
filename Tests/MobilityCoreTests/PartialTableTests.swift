import Foundation
import MobilityCore
import Testing

/// A distributed run's partial groups as JSON lines (`PartialTable`): what the reducer in
/// spark/pipeline_spark/reductions.py reads back with Python's `json`.
@Suite struct PartialTableTests {
    let columns: [PartialTable.Column] = [
        .init("origin", .key), .init("trips", .sum), .init("persons", .distinctCount), .init("dwell_s", .orderedSum),
        .init("modes", .joined), .init("alone", .any), .init("cell_m", .same)
    ]

    @Test func nullAndTheEmptyTextAreTwoKeysAndRowsComeInKeyOrder() throws {
        var table = PartialTable(name: "t", columns: columns)
        for origin in ["b", "", nil, "a"] as [String?] {
            table.append([.text(origin), .integer(1), .names(["z", "a"]), .numbers([]), .texts([]), .flag(false), .number(100)])
        }
        let lines = table.sorted().jsonLines().split(separator: "\n").map(String.init)
        #expect(lines[0] == #"["origin","trips","persons","dwell_s","modes","alone","cell_m"]"#)
        #expect(lines[1...].map { $0.prefix(while: { $0 != "," }) } == ["[null", #"["""#, #"["a""#, #"["b""#])
        #expect(lines[1] == #"[null,1,["a","z"],[],[],false,100.0]"#, "names sorted: the same bytes on every run")
    }

    @Test func numbersAndTextsReadBackExactly() throws {
        let awkward: [Double] = [0.1, 1e16, 1e-7, -0.0, 5e-324, .greatestFiniteMagnitude, 1.0 / 3]
        var table = PartialTable(name: "t", columns: columns)
        let text = "tab\tquote\" back\\slash\nline \u{1}control ünïcode"
        table.append([.text(text), .integer(-3), .names([text]), .numbers(awkward), .texts(["walk", "car"]), .flag(true), .number(0.5)])
        let line = table.jsonLines().split(separator: "\n")[1]
        let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
        #expect(row[0] as? String == text && (row[2] as? [String]) == [text])
        let numbers = try #require(row[3] as? [NSNumber]).map(\.doubleValue)
        #expect(numbers.map(\.bitPattern) == awkward.map(\.bitPattern), "shortest round-trip text reads back to the same double")
        #expect(row[5] as? Bool == true && row[1] as? Int == -3)
    }

    @Test func nonFiniteNumbersAreWrittenAsPythonsJSONReadsThem() {
        var table = PartialTable(name: "t", columns: [.init("dwell_s", .orderedSum)])
        table.append([.numbers([.nan, .infinity, -.infinity])])
        #expect(table.jsonLines().split(separator: "\n")[1] == "[[NaN,Infinity,-Infinity]]")
    }

    @Test func everyMergeSaysWhatItDoes() {
        #expect(Set(PartialTable.Merge.allCases.map(\.about)).count == PartialTable.Merge.allCases.count)
    }
}
