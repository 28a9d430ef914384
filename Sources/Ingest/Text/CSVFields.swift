import Foundation
import MobilityCore

/// Splits one CSV line into field ranges without copying, honouring double quotes.
///
/// Quoted fields may contain the delimiter; a doubled quote inside is kept as two bytes (the
/// text helpers below undo it). A quoted field spanning lines is not supported: no sensor
/// format writes one, and such a row is reported as malformed.
public struct CSVFields {
    public private(set) var ranges: [Range<Int>] = []
    public let delimiter: UInt8

    public init(delimiter: UInt8 = 0x2C) {
        self.delimiter = delimiter
        ranges.reserveCapacity(32)
    }

    public var count: Int { ranges.count }

    /// Splits `line`. Space as a delimiter means any run of spaces or tabs (as in
    /// whitespace-aligned logger output).
    public mutating func split(_ line: UnsafeBufferPointer<UInt8>) {
        ranges.removeAll(keepingCapacity: true)
        if delimiter == 0x20 { return splitOnWhitespace(line) }
        var start = 0, index = 0, quoted = false
        let delimiters = UInt64(delimiter) &* Self.everyByte
        while index < line.count {
            // Eight bytes at a time up to the next delimiter or quote (SWAR): a sensor row is
            // mostly digits, so most words have none.
            if line.count - index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(line.baseAddress! + index).loadUnaligned(as: UInt64.self))
                let hits = Self.zeroBytes(word ^ delimiters) | Self.zeroBytes(word ^ Self.quotes)
                guard hits != 0 else { index += 8; continue }
                index += hits.trailingZeroBitCount >> 3
            }
            let byte = line[index]
            if byte == 0x22 {
                quoted.toggle()
            } else if byte == delimiter, !quoted {
                ranges.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        ranges.append(start..<line.count)
    }

    private static let everyByte: UInt64 = 0x0101_0101_0101_0101
    private static let quotes: UInt64 = 0x22 &* everyByte

    /// The high bit of each byte of `word` that is zero; exact up to and including the lowest
    /// such byte (a borrow can only mark bytes above it), which is all `split` reads.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- everyByte) & ~word & 0x8080_8080_8080_8080
    }

    private mutating func splitOnWhitespace(_ line: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < line.count {
            while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            guard index < line.count else { break }
            let start = index
            while index < line.count, line[index] != 0x20, line[index] != 0x09 { index += 1 }
            ranges.append(start..<index)
        }
    }

    public func bytes(_ field: Int, in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[ranges[field]])
    }

    /// The field as a number; with a delimiter other than the comma, a decimal comma
    /// (`9,81`, as European spreadsheet exports write) is read too.
    public func double(_ field: Int, in line: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = bytes(field, in: line)
        if let value = NumberParser.double(text) { return value }
        guard delimiter != 0x2C, text.count < 64, let comma = text.firstIndex(of: 0x2C) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { copy in
            _ = copy.initialize(from: text)
            copy[comma] = 0x2E
            return NumberParser.double(UnsafeBufferPointer(copy))
        }
    }

    /// The field as text, unquoted and trimmed.
    public func string(_ field: Int, in line: UnsafeBufferPointer<UInt8>) -> String {
        let text = bytes(field, in: line)
        // A field that starts and ends with a printable ASCII byte other than a quote has
        // nothing to trim or unquote: made straight from its bytes (a GTFS feed's millions of
        // ids spent most of their reading time in Unicode whitespace tests otherwise).
        if let first = text.first, let last = text.last, Self.isPlain(first), Self.isPlain(last) {
            return String(decoding: text, as: UTF8.self)
        }
        return CSVFields.unquote(String(decoding: text, as: UTF8.self))
    }

    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F && byte != 0x22 }

    public static func unquote(_ text: String) -> String {
        var text = text.trimmingWhitespace()
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return text
    }

    /// Splits a header or small line given as text.
    public static func split(_ text: String, delimiter: UInt8 = 0x2C) -> [String] {
        var fields = CSVFields(delimiter: delimiter)
        var copy = text
        return copy.withUTF8 { line in
            fields.split(line)
            return (0..<fields.count).map { fields.string($0, in: line) }
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
