import Foundation

/// Names of the Sensor Logger app's export (a folder or zip of CSV files).
public enum SensorLogger {
    /// `Accelerometer.csv.gz` → `accelerometer`.
    static func stem(_ fileName: String) -> String {
        var name = (fileName as NSString).lastPathComponent.lowercased()
        for suffix in [".gz", ".csv"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name
    }

    /// The phone an export (folder or zip) names in its `Metadata.csv`: `device name` and the
    /// app's `device id` (an identifier of the app's install, the same in every export of one
    /// phone), or nil when it has none.
    public static func phone(export path: String) -> (name: String, id: String)? {
        let text: String?
        if path.lowercased().hasSuffix(".zip") {
            text = ZipExtraction.smallEntry(path, endingWith: "Metadata.csv").map { String(decoding: $0, as: UTF8.self) }
        } else {
            let metadata = (path as NSString).appendingPathComponent("Metadata.csv")
            text =
                FileManager.default.fileExists(atPath: metadata)
                ? (try? LineReader.head(path: metadata, limit: 2))?.joined(separator: "\n") : nil
        }
        let lines = (text ?? "").split(whereSeparator: \.isNewline).prefix(2).map { String($0) }
        guard lines.count == 2 else { return nil }
        let header = CSVFields.split(lines[0]).map { $0.lowercased() }, values = CSVFields.split(lines[1])
        func value(_ name: String) -> String? {
            header.firstIndex(of: name).flatMap { $0 < values.count && !values[$0].isEmpty ? values[$0] : nil }
        }
        guard let id = value("device id") else { return nil }
        return (value("device name") ?? "phone", id)
    }

    /// True when `names` (file names in a folder or zip) look like a Sensor Logger export.
    public static func isExport(fileNames names: [String]) -> Bool {
        let stems = Set(names.map(stem))
        return stems.contains("metadata") && !stems.isDisjoint(with: ["accelerometer", "totalacceleration", "gyroscope"])
            || stems.isSuperset(of: ["accelerometer", "gyroscope"]) && stems.contains("location")
    }
}
