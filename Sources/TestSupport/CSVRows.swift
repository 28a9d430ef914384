import MobilityCore

/// The rows of a CSV file (RFC 4180, as the pipeline writes it), each by column name; an empty
/// field is "".
public enum CSVRows {
    public static func read(_ path: String) throws -> [[String: String]] {
        let table = try CSVTable.read(path: path)
        return table.rows.map { row in Dictionary(uniqueKeysWithValues: zip(table.columns, row.map { $0 ?? "" })) }
    }
}
