import Foundation

/// A CSV file as `CSVWriter` writes it (RFC 4180: comma, double quotes, `\n` line ends), read
/// back whole: its header and rows. An empty field is nil. For the pipeline's own outputs
/// (the GeoPackage and the trackintel export are built from the published CSVs, so they
/// carry the same rows and ids whether one process or Spark wrote them), not for inputs:
/// those go through the readers in `Ingest`, which report bad lines.
public struct CSVTable: Sendable {
    public var columns: [String]
    public var rows: [[String?]]

    public init(columns: [String], rows: [[String?]]) { (self.columns, self.rows) = (columns, rows) }

    public static func read(path: String) throws -> CSVTable {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var records: [[String?]] = []
        var record: [String?] = []
        var field: [UInt8] = []
        var quoted = false, inQuotes = false
        var index = 0, line = 1
        func endField() {
            record.append(field.isEmpty && !quoted ? nil : String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte); index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\""), field.isEmpty, !quoted {
                inQuotes = true
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                endField()
            } else if byte == 0x0A {
                endField()
                records.append(record)
                record.removeAll(keepingCapacity: true)
                line += 1
            } else {
                field.append(byte)
            }
            index += 1
        }
        if inQuotes { throw PipelineError(.malformedTable, path: path, line: line, reason: "a quoted field is not closed") }
        if !field.isEmpty || quoted || !record.isEmpty { endField(); records.append(record) }
        guard let header = records.first else { throw PipelineError(.malformedTable, path: path, line: 1, reason: "no header") }
        let columns = header.map { $0 ?? "" }
        for (offset, row) in records.dropFirst().enumerated() where row.count != columns.count {
            throw PipelineError(
                .malformedTable, path: path, line: offset + 2, reason: "\(row.count) fields, the header has \(columns.count)")
        }
        return CSVTable(columns: columns, rows: Array(records.dropFirst()))
    }
}
