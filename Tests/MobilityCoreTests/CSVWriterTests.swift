import Foundation
import MobilityCore
import TestSupport
import Testing

/// CSV injection (OWASP): what a spreadsheet would run as a formula is written as text.
@Suite struct CSVWriterTests {
    func written(_ cells: [String]) throws -> [String] {
        let folder = try TemporaryFolder()
        var csv = CSVWriter(columns: ["value"])
        for cell in cells { csv.append([cell]) }
        try csv.write(to: folder.file("t.csv"))
        let text = try String(contentsOfFile: folder.file("t.csv"), encoding: .utf8)
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().map(String.init))
    }

    @Test func formulasAreNeutralisedWithALeadingQuote() throws {
        let payloads = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1:A2)", "-2+3+cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]
        let lines = try written(payloads)
        #expect(lines[0] == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")
        #expect(lines[1] == "'+cmd|' /C calc'!A0")
        #expect(lines[2] == "'@SUM(A1:A2)")
        #expect(lines[3] == "'-2+3+cmd|' /C calc'!A0")
        #expect(lines[4] == "'\t=1+1")
        #expect(lines[5] == "\"'\r=1+1\"")
    }

    @Test func numbersStayNumbers() throws {
        let numbers = ["-12.5", "+3", "-1e-06", "0.25", "48.1234567", "-0"]
        #expect(try written(numbers) == numbers)
        #expect(try written(["a-b", "ok, fine", "2024-05-06T07:00:00Z"]) == ["a-b", "\"ok, fine\"", "2024-05-06T07:00:00Z"])
    }

    /// A Windows line end inside a field is quoted like a bare `\n` (Swift reads `\r\n` as one
    /// `Character`, which a per-character check for `\n` misses), and empty and nil fields stay empty.
    @Test func fieldsWithLineEndsAreQuoted() throws {
        let folder = try TemporaryFolder()
        var csv = CSVWriter(columns: ["a", "b", "c"])
        csv.append(["x\r\ny", "", nil])
        csv.append(["naïve café", "say \"hi\"", "3"])
        try csv.write(to: folder.file("t.csv"))
        let text = try String(contentsOfFile: folder.file("t.csv"), encoding: .utf8)
        #expect(text == "a,b,c\n\"x\r\ny\",,\nnaïve café,\"say \"\"hi\"\"\",3\n")
    }
}
