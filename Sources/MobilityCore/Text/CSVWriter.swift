import Foundation

/// Writes RFC 4180 CSV that spreadsheets and pandas open as-is: a header row, fields quoted
/// when they hold a comma, quote or newline, `\n` line ends, UTF-8; cells a spreadsheet would
/// run as a formula are neutralised (`neutralised(_:)`). Written to a temporary
/// file and moved into place, so a reader never sees half a file.
public struct CSVWriter {
    public let columns: [String]
    /// The file so far, as UTF-8. Rows are appended as bytes, not as a `String` per line: the
    /// 1 h features table (129 columns × 1,439 windows) spent 13 % of `pipeline features` in
    /// per-field `String` joins and `Character` scans before.
    private var text: [UInt8] = []

    public init(columns: [String]) {
        self.columns = columns
        appendRow(columns)
    }

    public mutating func append(_ fields: [String?]) {
        precondition(fields.count == columns.count, "a CSV row needs \(columns.count) fields, got \(fields.count)")
        appendRow(fields)
    }

    public func write(to path: String) throws {
        try write(to: path, unlessUnchanged: false)
    }

    /// Appends a row whose fields `build` writes as bytes, commas between them and each text
    /// field as `encoded(_:)` gives it, without the line end. For tables of millions of rows.
    public mutating func appendEncodedRow(_ build: (inout [UInt8]) -> Void) {
        build(&text)
        text.append(UInt8(ascii: "\n"))
    }

    /// Appends bytes to the row being written, without ending it (`endRow`): a field too long
    /// to hold (a leg's line of a year at 1 Hz) is written a piece at a time, with `flush`
    /// between the pieces.
    public mutating func appendToRow(_ build: (inout [UInt8]) -> Void) {
        build(&text)
    }

    /// Ends the row `appendToRow` wrote.
    public mutating func endRow() {
        text.append(UInt8(ascii: "\n"))
    }

    /// Bytes appended and not yet flushed.
    public var pendingBytes: Int { text.count }

    /// A field as `append` writes it (neutralised, quoted when it must be; nil is empty).
    public static func encoded(_ field: String?) -> [UInt8] {
        var bytes: [UInt8] = []
        if let field { appendQuoted(field.utf8.first.map(formulaStarts.contains) == true ? neutralised(field) : field, to: &bytes) }
        return bytes
    }

    /// Appends the rows so far to `handle` and forgets them: a table too big to hold (1.4 M
    /// positionfixes) is written as it is made. The caller renames a `.partial` file into place.
    public mutating func flush(to handle: FileHandle) throws {
        try handle.write(contentsOf: text)
        text.removeAll(keepingCapacity: true)
    }

    /// Writes the file, or (with `unlessUnchanged`) leaves a file holding exactly these bytes
    /// untouched, so a run that changed nothing rewrites nothing. Returns whether it wrote.
    @discardableResult
    public func write(to path: String, unlessUnchanged: Bool) throws -> Bool {
        if unlessUnchanged, let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(text) {
            try? FileManager.default.removeItem(atPath: path + ".partial") // a killed run's half-written copy
            return false
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data(text).writeThroughPartial(to: URL(fileURLWithPath: path))
        return true
    }

    private mutating func appendRow(_ fields: [String?]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            if let field { appendEscaped(field) }
        }
        text.append(UInt8(ascii: "\n"))
    }

    /// The field neutralised (`neutralised(_:)`) and quoted as RFC 4180 asks.
    private mutating func appendEscaped(_ field: String) {
        let first = field.utf8.first
        Self.appendQuoted(first.map(Self.formulaStarts.contains) == true ? Self.neutralised(field) : field, to: &text)
    }

    /// Appends `field` as an RFC 4180 field: as it is, or in quotes (inner quotes doubled) when
    /// it holds a comma, quote or line end, or when it is empty and `quotingEmpty` (so that an
    /// empty string differs from an empty field). The one quoting rule of every CSV the
    /// project writes, for spreadsheets (`CSVWriter`) and for other engines (`pipeline export`).
    public static func appendQuoted(_ field: String, quotingEmpty: Bool = false, to text: inout [UInt8]) {
        let bytes = field.utf8
        guard bytes.contains(where: needsQuotes) || (quotingEmpty && bytes.isEmpty) else {
            text.append(contentsOf: bytes)
            return
        }
        text.append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { text.append(byte) }
            text.append(byte)
        }
        text.append(UInt8(ascii: "\""))
    }

    /// A comma, quote or line end (either byte of `\r\n`) makes a field quoted.
    public static func needsQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
    }

    private static let formulaStarts: [UInt8] = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

    /// The field made safe from CSV (formula) injection, as OWASP's "CSV Injection" page
    /// recommends: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is
    /// read by spreadsheets as a formula (`=HYPERLINK(…)`, `+cmd|' /C calc'!A0`), so it gets a
    /// leading single quote, which makes them show it as text. Numbers (`-12.5`, `+3`, `-1e-6`)
    /// stay numbers: every number this project writes begins with a digit or a minus sign.
    static func neutralised(_ field: String) -> String {
        guard let first = field.utf8.first, formulaStarts.contains(first) else { return field }
        if (first == UInt8(ascii: "-") || first == UInt8(ascii: "+")), isNumber(field) { return field }
        return "'" + field
    }

    /// A decimal number as pandas and spreadsheets read one: sign, digits, point, exponent.
    private static func isNumber(_ field: String) -> Bool {
        guard let value = Double(field), value.isFinite else { return false }
        return field.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [
                    UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                    UInt8(ascii: "e"), UInt8(ascii: "E")
                ].contains(byte)
        }
    }
}
