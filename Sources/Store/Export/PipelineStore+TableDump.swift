import Foundation
import MobilityCore

extension PipelineStore {
    /// Streams one table to the CSV at `path` (`pipeline export`'s exact form, `ExportCSV`)
    /// through a temporary file beside it, moved into place; returns its row count.
    package func dump(_ table: StoredTable, types: [ExportColumnType], toCSV path: String) throws -> Int {
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw PipelineError(.cannotWrite, "cannot write \(partial)")
        }
        var text: [UInt8] = []
        var rows = 0
        do {
            defer { try? handle.close() }
            ExportCSV.appendHeader(table.columns.map(\.name), to: &text)
            func flushWhenFull(_ text: inout [UInt8]) throws {
                if text.count >= 1 << 20 {
                    try handle.write(contentsOf: text)
                    text.removeAll(keepingCapacity: true)
                }
            }
            // A long text column (a leg's line) is written as it is read, the file flushed
            // between blocks, so a year-long leg's 650 MB line is never held.
            try forEachRow(of: table) { values, long in
                rows += 1
                for (index, value) in values.enumerated() {
                    if index > 0 { text.append(UInt8(ascii: ",")) }
                    if let long, long.index == index, let streamed = long.text {
                        guard types[index] == .string else {
                            throw PipelineError(
                                .cannotExport,
                                "\(table.name).\(table.columns[index].name), row \(rows) in key order: "
                                    + "text is not a \(table.columns[index].declaredType) value; the export writes each column as its declared type"
                            )
                        }
                        try ExportCSV.appendText(streamed, to: &text, flush: flushWhenFull)
                        continue
                    }
                    guard ExportCSV.append(value, as: types[index], to: &text) else {
                        throw PipelineError(
                            .cannotExport,
                            "\(table.name).\(table.columns[index].name), row \(rows) in key order: "
                                + "\(value) is not a \(table.columns[index].declaredType) value; the export writes each column as its declared type"
                        )
                    }
                }
                text.append(UInt8(ascii: "\n"))
                try flushWhenFull(&text)
            }
            try handle.write(contentsOf: text)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        guard rename(partial, path) == 0 else { // replaces the previous export's file in one step
            throw PipelineError(.cannotWrite, "cannot move \(partial) to \(path): \(String(cString: strerror(errno)))")
        }
        return rows
    }
}
