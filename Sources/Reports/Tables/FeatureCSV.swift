import Features
import MobilityCore

/// `features.csv`: one row per window with its trace, device, start and end (ISO 8601 UTC and
/// Unix seconds), label and mode when known, and every feature of `FeatureSchema` (units in
/// the column names). A feature that could not be computed is an empty field, which pandas
/// reads as NaN.
public enum FeatureCSV {
    public static func write(_ table: FeatureTable, to path: String) throws {
        var writer = CSVWriter(columns: OutputSchema.features.names)
        for (index, window) in table.windows.enumerated() {
            let info: [String?] = [
                window.trace, window.device, ISO8601.formatMillis(window.start), format(window.start.secondsSince1970),
                ISO8601.formatMillis(window.end), format(window.end.secondsSince1970),
                window.labelName, window.mode?.rawValue
            ]
            writer.append(info + table.row(index).map { $0.isNaN ? nil : format($0) })
        }
        try writer.write(to: path)
    }

    /// Shortest text that reads back to the same Double.
    static func format(_ value: Double) -> String { "\(value)" }
}
