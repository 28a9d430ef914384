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
            try forEachRow(of: table) { values in
                rows += 1
                for (index, value) in values.enumerated() {
                    if index > 0 { text.append(UInt8(ascii: ",")) }
                    guard ExportCSV.append(value, as: types[index], to: &text) else {
                        throw PipelineError(
                            .cannotExport,
                            "\(table.name).\(table.columns[index].name), row \(rows) in key order: "
                                + "\(value) is not a \(table.columns[index].declaredType) value; the export writes each column as its declared type"
                        )
                    }
                }
                text.append(UInt8(ascii: "\n"))
                if text.count >= 1 << 20 {
                    try handle.write(contentsOf: text)
                    text.removeAll(keepingCapacity: true)
                }
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
