import MobilityCore

/// The CSV of `pipeline export`: RFC 4180 with `\n` line ends, each value written exactly.
package enum ExportCSV {
    package static func appendHeader(_ names: [String], to text: inout [UInt8]) {
        for (index, name) in names.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            appendText(name, to: &text)
        }
        text.append(UInt8(ascii: "\n"))
    }

    /// Appends `value` as a field of a column of `type`; false when the value is of another type.
    package static func append(_ value: StoredValue, as type: ExportColumnType, to text: inout [UInt8]) -> Bool {
        switch (value, type) {
        case (.null, _): return true
        case (.integer(let integer), .long): text.append(contentsOf: String(integer).utf8)
        case (.real(let real), .double): appendDouble(real, to: &text)
        case (.integer(let integer), .double):
            guard let real = Double(exactly: integer) else { return false }
            appendDouble(real, to: &text)
        case (.text(let string), .string): appendText(string, to: &text)
        default: return false
        }
        return true
    }

    /// The shortest decimal text that reads back to the same double (Swift's `description`,
    /// which Java's `Double.parseDouble`, Python's `float` and C's `strtod` all read back
    /// exactly), and `Inf`, `-Inf`, `NaN` as Spark's CSV reader expects them by default.
    package static func appendDouble(_ value: Double, to text: inout [UInt8]) {
        if value.isNaN {
            text.append(contentsOf: "NaN".utf8)
        } else if value.isInfinite {
            text.append(contentsOf: (value > 0 ? "Inf" : "-Inf").utf8)
        } else {
            text.append(contentsOf: value.description.utf8)
        }
    }

    /// Text as stored, quoted as RFC 4180 asks, and `""` when empty (an empty field is NULL).
    package static func appendText(_ string: String, to text: inout [UInt8]) {
        CSVWriter.appendQuoted(string, quotingEmpty: true, to: &text)
    }

    /// `appendText` of a text read a block at a time (`BlockText`): read once to see whether it
    /// needs quotes, then again into `text`, which `flush` is handed after each block (to write
    /// out and empty when it likes). Text that is
    /// not UTF-8 is repaired as `String(decoding:as:)` repairs a value read whole.
    package static func appendText(
        _ stored: BlockText, blockBytes: Int = 1 << 20, to text: inout [UInt8], flush: (inout [UInt8]) throws -> Void
    ) throws {
        var (quoted, valid) = (stored.count == 0, true)
        try stored.forEachBlock(blockBytes: blockBytes) { block in
            quoted = quoted || block.contains(where: CSVWriter.needsQuotes)
            valid = valid && block.allSatisfy { $0 < 0x80 }
        }
        guard valid else {
            // Not ASCII: a UTF-8 sequence may be cut by a block's end. Such a value is not a leg's
            // line (the store writes them in ASCII); it is read whole.
            appendText(String(decoding: try stored.bytes(), as: UTF8.self), to: &text)
            return try flush(&text)
        }
        if quoted { text.append(UInt8(ascii: "\"")) }
        try stored.forEachBlock(blockBytes: blockBytes) { block in
            // Runs between quotes copied at once; inside quotes, each quote doubled.
            var start = 0
            while quoted, let quote = block[start...].firstIndex(of: UInt8(ascii: "\"")) {
                text.append(contentsOf: block[start...quote])
                text.append(UInt8(ascii: "\""))
                start = quote + 1
            }
            text.append(contentsOf: block[start...])
            try flush(&text)
        }
        if quoted { text.append(UInt8(ascii: "\"")) }
    }
}
