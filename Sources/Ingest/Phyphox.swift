import Foundation

/// A phyphox export: a folder (or zip) per recording with one CSV per sensor
/// (`Accelerometer.csv`, `Gyroscope.csv`, `Linear Accelerometer.csv`, `Location.csv`,
/// `Proximity.csv` …, times in seconds since the experiment began) and `meta/time.csv` (when
/// the experiment started and resumed, in Unix seconds), `meta/device.csv` (the phone).
public enum Phyphox {
    /// True when `folder` holds `meta/time.csv` beside CSV files.
    public static func isExport(folder: String, fileNames names: [String]) -> Bool {
        names.contains("meta") && names.contains { $0.lowercased().hasSuffix(".csv") }
            && FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("meta/time.csv"))
    }

    /// True when a zip's entry paths hold a phyphox export.
    static func isExport(zipEntries paths: [String]) -> Bool {
        paths.contains { $0 == "meta/time.csv" || $0.hasSuffix("/meta/time.csv") }
    }

    /// The clock of `meta/time.csv`: header `"event","experiment time","system time","system
    /// time text"` (separator comma, semicolon or tab, as exported), a `START` row per start.
    static func clock(timeFile path: String) throws -> ExperimentClock {
        let lines = try LineReader.head(path: path, limit: 10_000)
        guard let header = lines.first else { throw InputError(.noData, "meta/time.csv is empty", path: path, line: 1) }
        let delimiter = IMUDialect.guessDelimiter(header)
        let names = CSVFields.split(header, delimiter: delimiter).map { $0.lowercased() }
        guard let event = names.firstIndex(of: "event"), let experiment = names.firstIndex(where: { $0.hasPrefix("experiment time") }),
              let system = names.firstIndex(where: { $0.hasPrefix("system time") && !$0.contains("text") }) else {
            throw InputError(.badHeader, "meta/time.csv: expected the columns event, experiment time and system time; found [\(names.joined(separator: ", "))]",
                             path: path, line: 1)
        }
        let starts = lines.dropFirst().compactMap { line -> (experiment: Double, system: Double)? in
            let fields = CSVFields.split(line, delimiter: delimiter)
            guard fields.count > max(event, experiment, system), fields[event].uppercased() == "START",
                  let e = NumberParser.double(fields[experiment]), let s = NumberParser.double(fields[system]) else { return nil }
            return (e, s)
        }
        guard let clock = ExperimentClock(starts: starts) else {
            throw InputError(.noData, "meta/time.csv has no START row with a system time, so the recording's absolute time is unknown",
                             path: path, line: 2)
        }
        return clock
    }

    /// The phone, from `meta/device.csv` (`"property","value"` rows: deviceBrand, deviceModel).
    static func phoneModel(deviceFile path: String) -> String? {
        guard let lines = try? LineReader.head(path: path, limit: 200), let header = lines.first else { return nil }
        let delimiter = IMUDialect.guessDelimiter(header)
        var properties: [String: String] = [:]
        for line in lines.dropFirst() {
            let fields = CSVFields.split(line, delimiter: delimiter)
            if fields.count >= 2 { properties[fields[0]] = fields[1] }
        }
        let parts = [properties["deviceBrand"], properties["deviceModel"]].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
