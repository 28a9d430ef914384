import Foundation

/// A small CSV table whose columns are found by header name, in any order, extra columns
/// ignored: the shape of geofence circles, check-ins, label and manifest files. The
/// delimiter (comma, semicolon or tab) is guessed from the header.
enum NamedColumnsCSV {
    struct Row {
        let fields: [String]
        let columns: [String: Int]
        /// 1-based line in the file.
        let line: Int

        /// The field under `name` (lower-case header name), nil when absent or empty.
        func value(_ name: String) -> String? {
            columns[name].flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }
        }
    }

    /// Calls `header` with the header's column names, then `body` with each non-empty row.
    static func forEachRow(path: String, header: ([String]) throws -> Void = { _ in }, _ body: (Row) throws -> Void) throws {
        var columns: [String: Int] = [:]
        var delimiter: UInt8 = 0x2C
        try LineReader(path: path).forEachLine { line, number in
            let text = String(decoding: line, as: UTF8.self)
            if number == 1 {
                delimiter = IMUDialect.guessDelimiter(text)
                let names = CSVFields.split(text, delimiter: delimiter)
                for (index, name) in names.enumerated() { columns[name.lowercased()] = index }
                try header(names)
                return true
            }
            guard !line.isEmpty else { return true }
            try body(Row(fields: CSVFields.split(text, delimiter: delimiter), columns: columns, line: number))
            return true
        }
    }
}
