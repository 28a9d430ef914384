import Foundation

/// Writes RFC 4180 CSV that spreadsheets and pandas open as-is: a header row, fields quoted
/// when they hold a comma, quote or newline, `\n` line ends, UTF-8. Written to a temporary
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
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
