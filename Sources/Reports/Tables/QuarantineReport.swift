import MobilityCore
import Store

/// `quarantine.csv`: every input the store holds as quarantined, with where and why, and the
/// stage that set it aside (`ingest`, or `classify` / `comfort` for a file that stage failed on).
public enum QuarantineReport {
    public static var columns: [String] { OutputSchema.quarantine.names }

    /// Paths are shown below the folder given to the run (`QuarantineEntry.shownPath`). A file
    /// that already holds these rows is left as it is.
    public static func write(_ entries: [QuarantineEntry], to path: String) throws {
        var csv = CSVWriter(columns: columns)
        for entry in entries {
            csv.append([
                entry.shownPath, entry.format, entry.line.map(String.init), entry.column.map(String.init), entry.code,
                entry.reason, entry.contentSHA256, ISO8601.formatMillis(entry.runStarted),
                String(format: "%.3f", entry.runStarted.secondsSince1970), entry.stage
            ])
        }
        try csv.write(to: path, unlessUnchanged: true)
    }
}
