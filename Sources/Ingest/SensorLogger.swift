import Foundation

/// Names of the Sensor Logger app's export (a folder or zip of CSV files).
public enum SensorLogger {
    /// `Accelerometer.csv.gz` → `accelerometer`.
    static func stem(_ fileName: String) -> String {
        var name = (fileName as NSString).lastPathComponent.lowercased()
        for suffix in [".gz", ".csv"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name
    }

    /// True when `names` (file names in a folder or zip) look like a Sensor Logger export.
    public static func isExport(fileNames names: [String]) -> Bool {
        let stems = Set(names.map(stem))
        return stems.contains("metadata") && !stems.isDisjoint(with: ["accelerometer", "totalacceleration", "gyroscope"])
            || stems.isSuperset(of: ["accelerometer", "gyroscope"]) && stems.contains("location")
    }
}
