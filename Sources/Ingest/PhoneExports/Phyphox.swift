import Foundation
import MobilityCore

/// A phyphox export: a folder (or zip) per recording with one CSV per sensor
/// (`Accelerometer.csv`, `Gyroscope.csv`, `Linear Accelerometer.csv`, `Location.csv`,
/// `Proximity.csv` …, times in seconds since the experiment began) and `meta/time.csv` (when
/// the experiment started and resumed, in Unix seconds), `meta/device.csv` (the phone).
public enum Phyphox {
    /// True when `folder` is a phyphox export: a `meta` folder beside CSV files, or (a partial
    /// export, whose `meta/` was lost) a sensor file whose header starts with phyphox's
    /// `"Time (s)"`. Such a folder is never taken for another app's export: without
    /// `meta/time.csv` it is quarantined with what to do (`clock`).
    public static func isExport(folder: String, fileNames names: [String]) -> Bool {
        let tables = names.filter { $0.lowercased().hasSuffix(".csv") }
        guard !tables.isEmpty else { return false }
        if names.contains("meta"), FileKind(path: (folder as NSString).appendingPathComponent("meta")).isFolder { return true }
        guard let sensor = tables.sorted().first(where: { PhyphoxSensor(fileName: $0) != nil || SensorLogger.stem($0) == "location" }),
            let first = try? LineReader.head(path: (folder as NSString).appendingPathComponent(sensor), limit: 1).first
        else { return false }
        return isTimeColumn(CSVFields.split(first, delimiter: IMUDialect.guessDelimiter(first)).first ?? "")
    }

    /// phyphox's first column: `Time (s)` (quoted in the file).
    static func isTimeColumn(_ name: String) -> Bool {
        name.lowercased().trimmingCharacters(in: .whitespaces).hasPrefix("time (")
    }

    /// True when a zip's entry paths hold a phyphox export (a `meta/` folder among them).
    static func isExport(zipEntries paths: [String]) -> Bool {
        paths.contains { $0.hasPrefix("meta/") || $0.contains("/meta/") }
    }

    /// What a user can do about an export whose start is unknown.
    static let startHint =
        "export the experiment again with its meta data, or give the time the recording started: a start column "
        + "in manifest.csv (path,device,start) or --columns 'files=NAME; start=2024-05-01T08:00:00Z' (NAME the folder or zip)"

    /// The clock of `meta/time.csv`: header `"event","experiment time","system time","system
    /// time text"` (separator comma, semicolon or tab, as exported), a `START` row per start.
    static func clock(timeFile path: String) throws -> ExperimentClock {
        guard FileKind(path: path) == .regular else {
            throw InputError(
                .noData,
                "meta/time.csv is missing (a partial export?), so the recording's times, seconds since the "
                    + "experiment began, cannot be made absolute; " + startHint, path: path)
        }
        let lines = try LineReader.head(path: path, limit: 10_000)
        guard let header = lines.first else { throw InputError(.noData, "meta/time.csv is empty", path: path, line: 1) }
        let delimiter = IMUDialect.guessDelimiter(header)
        let names = CSVFields.split(header, delimiter: delimiter).map { $0.lowercased() }
        guard let event = names.firstIndex(of: "event"), let experiment = names.firstIndex(where: { $0.hasPrefix("experiment time") }),
            let system = names.firstIndex(where: { $0.hasPrefix("system time") && !$0.contains("text") })
        else {
            throw InputError(
                .badHeader,
                "meta/time.csv: expected the columns event, experiment time and system time; found [\(names.joined(separator: ", "))]",
                path: path, line: 1)
        }
        let starts = lines.dropFirst().compactMap { line -> (experiment: Double, system: Double)? in
            let fields = CSVFields.split(line, delimiter: delimiter)
            guard fields.count > max(event, experiment, system), fields[event].uppercased() == "START",
                let e = NumberParser.double(fields[experiment]), let s = NumberParser.double(fields[system])
            else { return nil }
            return (e, s)
        }
        guard let clock = ExperimentClock(starts: starts) else {
            throw InputError(
                .noData,
                "meta/time.csv has no START row with a system time, so the recording's absolute time is unknown; "
                    + startHint, path: path, line: 2)
        }
        return clock
    }

    /// The phone, from `meta/device.csv` (`"property","value"` rows: deviceBrand, deviceModel).
    static func phoneModel(deviceFile path: String) -> String? {
        guard let lines = try? LineReader.head(path: path, limit: 200) else { return nil }
        return phoneModel(lines: lines)
    }

    /// The phone of an export (a folder, or a zip holding `meta/device.csv`), or nil.
    static func phoneModel(export path: String) -> String? {
        if path.lowercased().hasSuffix(".zip") {
            guard let data = ZipExtraction.smallEntry(path, endingWith: "meta/device.csv") else { return nil }
            return phoneModel(lines: String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init))
        }
        return phoneModel(deviceFile: (path as NSString).appendingPathComponent("meta/device.csv"))
    }

    static func phoneModel(lines: [String]) -> String? {
        guard let header = lines.first else { return nil }
        let delimiter = IMUDialect.guessDelimiter(header)
        var properties: [String: String] = [:]
        for line in lines.dropFirst() {
            let fields = CSVFields.split(line, delimiter: delimiter)
            // The iPhone writes `deviceModel,iPhone13,2` unquoted: the value is the rest of the line.
            if fields.count >= 2 { properties[fields[0]] = fields[1...].joined(separator: String(UnicodeScalar(delimiter))) }
        }
        let parts = [properties["deviceBrand"], properties["deviceModel"]].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
