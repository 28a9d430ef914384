import Foundation

/// Writes RFC 4180 CSV that spreadsheets and pandas open as-is: a header row, fields quoted
/// when they hold a comma, quote or newline, `\n` line ends, UTF-8; cells a spreadsheet would
/// run as a formula are neutralised (`neutralised(_:)`). Written to a temporary
/// file and moved into place, so a reader never sees half a file.
public struct CSVWriter {
    public let columns: [String]
    private var lines: [String]

    public init(columns: [String]) {
        self.columns = columns
        lines = [columns.map(CSVWriter.escape).joined(separator: ",")]
    }

    public mutating func append(_ fields: [String?]) {
        precondition(fields.count == columns.count, "a CSV row needs \(columns.count) fields, got \(fields.count)")
        lines.append(fields.map { $0.map(CSVWriter.escape) ?? "" }.joined(separator: ","))
    }

    public func write(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let text = lines.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func escape(_ field: String) -> String {
        let cell = neutralised(field)
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The field made safe from CSV (formula) injection, as OWASP's "CSV Injection" page
    /// recommends: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is
    /// read by spreadsheets as a formula (`=HYPERLINK(…)`, `+cmd|' /C calc'!A0`), so it gets a
    /// leading single quote, which makes them show it as text. Numbers (`-12.5`, `+3`, `-1e-6`)
    /// stay numbers: every number this project writes begins with a digit or a minus sign.
    static func neutralised(_ field: String) -> String {
        guard let first = field.utf8.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"),
                                             0x09, 0x0D].contains(first) else { return field }
        if (first == UInt8(ascii: "-") || first == UInt8(ascii: "+")), isNumber(field) { return field }
        return "'" + field
    }

    /// A decimal number as pandas and spreadsheets read one: sign, digits, point, exponent.
    private static func isNumber(_ field: String) -> Bool {
        guard let value = Double(field), value.isFinite else { return false }
        return field.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                                                                        UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
        }
    }
}
