@testable import Ingest
import MobilityCore
import Testing

/// `CSVFields.split` scans eight bytes at a time; these hold it to a byte-by-byte reference.
@Suite struct CSVFieldsTests {
    /// The fields of `line` as the byte-at-a-time rule gives them: split at each delimiter outside quotes.
    func reference(_ line: [UInt8], delimiter: UInt8) -> [[UInt8]] {
        var fields: [[UInt8]] = [], field: [UInt8] = [], quoted = false
        for byte in line {
            if byte == 0x22 { quoted.toggle() }
            if byte == delimiter, !quoted { fields.append(field); field = [] } else { field.append(byte) }
        }
        return fields + [field]
    }

    func split(_ line: [UInt8], delimiter: UInt8) -> [[UInt8]] {
        var fields = CSVFields(delimiter: delimiter)
        return line.withUnsafeBufferPointer { buffer in
            fields.split(buffer)
            return (0..<fields.count).map { Array(fields.bytes($0, in: buffer)) }
        }
    }

    @Test func sensorRowsSplitIntoTheirFields() {
        let row = Array("-4.160221099853516,-1.1829516887664795,-8.990732192993164,0.0028251686599105597,1700000000000,SEATED".utf8)
        let fields = split(row, delimiter: 0x2C).map { String(decoding: $0, as: UTF8.self) }
        #expect(
            fields == [
                "-4.160221099853516", "-1.1829516887664795", "-8.990732192993164", "0.0028251686599105597",
                "1700000000000", "SEATED"
            ])
        #expect(split(Array("\"a,b\",,\"c\"\"d\",é;ü,".utf8), delimiter: 0x2C).count == 5)
        #expect(split([], delimiter: 0x2C) == [[]])
    }

    @Test func randomLinesAgreeWithTheByteByByteRule() {
        var generator = SeededGenerator(seed: 2_024)
        let alphabet = Array("0123456789.-eE,;\" \tabcé".utf8)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...70, using: &generator)
            let line = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09] {
                #expect(
                    split(line, delimiter: delimiter) == reference(line, delimiter: delimiter),
                    "\(String(decoding: line, as: UTF8.self))")
            }
        }
    }
}
