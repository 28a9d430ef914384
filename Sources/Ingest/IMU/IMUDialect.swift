import Foundation
import MobilityCore

/// Recognises the IMU table dialects from a file's header and name.
///
/// - Sensor Logger (one file per sensor, header `time,seconds_elapsed,z,y,x`, Unix ns;
///   `Accelerometer.csv` is gravity-free, `TotalAcceleration.csv` includes gravity);
/// - phyphox, seconds since the experiment began, in two header families: Android's
///   (`"Time (s)","Acceleration x (m/s^2)",…`, `"Gyroscope x (rad/s)"`, `"Linear Acceleration x
///   (m/s^2)"`, `"Gravity x (m/s^2)"`, `"Magnetic field x (µT)"`) and iPhone's bare axes
///   (`"Time (s)","X (m/s^2)","Y (m/s^2)","Z (m/s^2)"`), whose sensor only the file name says
///   (`Accelerometer.csv`, `Linear Accelerometer.csv`, `Gyroscope.csv` …; `PhyphoxSensor`);
/// - generic and labelled research recordings: a time column and axis columns under any of
///   the usual names (`ax`, `acc_x`, `x_acc` …; `gx`, `gyro_x`, `x_gyro` …), an optional
///   `label` column.
public enum IMUDialect {
    static let timeNames = [
        "time", "timestamp", "t", "ts", "unix_time", "datetime", "date_time", "time_s", "time_ms",
        "time_us", "time_ns", "timestamp_s", "timestamp_ms", "timestamp_ns", "epoch", "epoch_ms"
    ]
    static let labelNames = ["label", "mode", "activity", "class"]
    static let axisNames: [(IMUSensor, [[String]])] = [
        (
            .accelerometer,
            [
                ["ax", "acc_x", "accel_x", "x_acc", "accx", "acceleration_x"],
                ["ay", "acc_y", "accel_y", "y_acc", "accy", "acceleration_y"],
                ["az", "acc_z", "accel_z", "z_acc", "accz", "acceleration_z"]
            ]
        ),
        (
            .gyroscope,
            [
                ["gx", "gyro_x", "x_gyro", "gyrx", "gyr_x", "gyroscope_x"],
                ["gy", "gyro_y", "y_gyro", "gyry", "gyr_y", "gyroscope_y"],
                ["gz", "gyro_z", "z_gyro", "gyrz", "gyr_z", "gyroscope_z"]
            ]
        )
    ]

    /// The mapping for a file with this header line, or nil when no dialect matches.
    public static func mapping(headerLine: String, fileName: String) -> ColumnMapping? {
        let delimiter = guessDelimiter(headerLine)
        let header = CSVFields.split(headerLine, delimiter: delimiter)
        let mapping = sensorLogger(header, fileName: fileName) ?? phyphox(header, fileName: fileName) ?? generic(header, fileName: fileName)
        return mapping.map { found in
            var mapping = found
            mapping.delimiter = delimiter
            mapping.header = header
            return mapping
        }
    }

    /// The most frequent of comma, semicolon and tab in the header (comma on a tie).
    public static func guessDelimiter(_ headerLine: String) -> UInt8 {
        let counts = [
            (UInt8(0x2C), headerLine.filter { $0 == "," }.count),
            (UInt8(0x3B), headerLine.filter { $0 == ";" }.count),
            (UInt8(0x09), headerLine.filter { $0 == "\t" }.count)
        ]
        return counts.max { $0.1 < $1.1 }.flatMap { $0.1 > 0 ? $0.0 : nil } ?? 0x2C
    }

    static func sensorLogger(_ header: [String], fileName: String) -> ColumnMapping? {
        let lower = header.map { $0.lowercased() }
        guard lower.starts(with: ["time", "seconds_elapsed"]),
            let z = lower.firstIndex(of: "z"), let y = lower.firstIndex(of: "y"), let x = lower.firstIndex(of: "x")
        else { return nil }
        let sensors: [String: IMUSensor] = [
            "accelerometer": .linearAcceleration, "totalacceleration": .accelerometer,
            "gyroscope": .gyroscope, "gravity": .gravity
        ]
        let stem = SensorLogger.stem(fileName)
        guard let sensor = sensors[stem] else { return nil }
        var mapping = ColumnMapping(dialect: "sensor_logger")
        mapping.timeColumn = 0
        mapping.timeUnit = .nanoseconds
        mapping.streams = [.init(sensor: sensor, columns: [x, y, z])]
        return mapping
    }

    /// A phyphox sensor table (either header family, any column order), or nil. A
    /// magnetometer table is recognised but has no stream the product keeps: see `PhyphoxSensor`.
    static func phyphox(_ header: [String], fileName: String = "") -> ColumnMapping? {
        guard let time = header.firstIndex(where: { $0.lowercased().hasPrefix("time (") }) else { return nil }
        var mapping = ColumnMapping(dialect: "phyphox")
        mapping.timeColumn = time
        mapping.timeUnit = TimeUnit.stated(inColumnName: header[time]) ?? .seconds
        let lower = header.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        let kinds: [(String, IMUSensor)] = [
            ("linear acceleration", .linearAcceleration), ("acceleration", .accelerometer),
            ("gyroscope", .gyroscope), ("gravity", .gravity)
        ]
        var taken = Set<Int>()
        for (prefix, sensor) in kinds { // Android: the sensor in every column name
            let columns = ["x", "y", "z"].compactMap { axis in
                lower.indices.first { !taken.contains($0) && lower[$0].hasPrefix("\(prefix) \(axis)") }
            }
            guard columns.count == 3 else { continue }
            taken.formUnion(columns)
            mapping.streams.append(.init(sensor: sensor, columns: columns, toSI: phyphoxScale(lower[columns[0]], sensor: sensor)))
        }
        if mapping.streams.isEmpty, case .stream(let sensor)? = PhyphoxSensor(fileName: fileName) { // iPhone: bare X, Y, Z
            let columns = ["x", "y", "z"].compactMap { axis in lower.firstIndex { stripUnit($0) == axis } }
            if columns.count == 3 {
                mapping.streams.append(.init(sensor: sensor, columns: columns, toSI: phyphoxScale(lower[columns[0]], sensor: sensor)))
            }
        }
        return mapping.streams.isEmpty ? nil : mapping
    }

    /// The factor to SI of a phyphox column by the unit in its name: `(m/s^2)` and `(rad/s)`
    /// are SI already; `(g)` and `(deg/s)` / `(°/s)` are converted.
    static func phyphoxScale(_ column: String, sensor: IMUSensor) -> Double {
        if sensor == .gyroscope { return column.contains("deg/s") || column.contains("°/s") ? Double.pi / 180 : 1 }
        return column.hasSuffix("(g)") ? standardGravity : 1
    }

    static func generic(_ header: [String], fileName: String = "") -> ColumnMapping? {
        let lower = header.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        guard
            let time = lower.firstIndex(where: { timeNames.contains(stripUnit($0)) || timeNames.contains($0) })
                ?? lower.firstIndex(where: {
                    let name = compact($0); return name.hasSuffix("time") || name.contains("timestamp")
                })
        else { return nil }
        var mapping = ColumnMapping(dialect: "generic")
        mapping.timeColumn = time
        mapping.timeUnit = TimeUnit.stated(inColumnName: lower[time])
        for (sensor, axes) in axisNames {
            var columns = axes.compactMap { names in lower.firstIndex { names.contains(stripUnit($0)) } }
            if columns.count != 3 { columns = keywordAxes(lower, sensor: sensor, fileName: fileName) }
            guard columns.count == 3 else { continue }
            let inG = lower[columns[0]].contains("(g)") || lower[columns[0]].hasSuffix("_g") || lower[columns[0]].hasSuffix("[g]")
            let inDegrees = lower[columns[0]].contains("deg")
            let scale = sensor == .accelerometer ? (inG ? standardGravity : 1) : (inDegrees ? Double.pi / 180 : 1)
            mapping.streams.append(.init(sensor: sensor, columns: columns, toSI: scale))
        }
        mapping.labelColumn = lower.firstIndex { labelNames.contains($0) }
        if mapping.streams.contains(where: { $0.sensor == .accelerometer }), header.contains(where: { $0.lowercased().hasPrefix("x_acc") })
        {
            mapping.dialect = "labelled_research"
        }
        return mapping.streams.isEmpty ? nil : mapping
    }

    /// Axis columns named by a keyword and a final axis letter, as loggers write them
    /// (`accelerometerAccelerationX(G)`, `gyroRotationX(rad/s)`, `acc x`), or a bare `x,y,z`
    /// when the file name says which sensor it holds (`Gyroscope.csv`).
    static func keywordAxes(_ lower: [String], sensor: IMUSensor, fileName: String) -> [Int] {
        let keywords: [String] =
            sensor == .accelerometer ? ["accelerometer", "acceleration", "accel", "acc"] : ["gyroscope", "gyro", "rotationrate"]
        let excluded = ["linear", "user", "gravity", "uncalibrated", "magnet"]
        let axes = ["x", "y", "z"].compactMap { axis in
            lower.firstIndex { column in
                let name = compact(column)
                return name.hasSuffix(axis) && keywords.contains { name.contains($0) } && !excluded.contains { name.contains($0) }
            }
        }
        if axes.count == 3 { return axes }
        let stem = compact((fileName as NSString).lastPathComponent.lowercased())
        let hinted = sensor == .accelerometer ? stem.contains("acc") && !excluded.contains { stem.contains($0) } : stem.contains("gyro")
        guard hinted else { return [] }
        return ["x", "y", "z"].compactMap { axis in lower.firstIndex { stripUnit($0) == axis } }
    }

    /// Letters and digits of a column name, unit in brackets removed: `Acc X (g)` → `accx`.
    static func compact(_ name: String) -> String {
        String(stripUnit(name.lowercased()).unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    /// `ax (m/s^2)` → `ax`, `time_ms` stays (the unit is read separately).
    static func stripUnit(_ name: String) -> String {
        var name = name
        if let open = name.firstIndex(where: { $0 == "(" || $0 == "[" }) { name = String(name[..<open]) }
        return name.trimmingCharacters(in: .whitespaces)
    }

    /// True when some column is named like a time or a sensor axis: such a file is meant as
    /// sensor data, and failing to read it is an error rather than a skip.
    public static func mentionsTimeOrAxes(_ header: [String]) -> Bool {
        let axes = Set(axisNames.flatMap { $0.1.flatMap { $0 } })
        return header.contains { column in
            let name = stripUnit(column.lowercased())
            return timeNames.contains(name) || axes.contains(name) || name.hasPrefix("time") || name.hasPrefix("acc")
                || name.hasPrefix("gyr") || ["x", "y", "z"].contains(name)
        }
    }

    /// What a user sees when no dialect matches: the columns seen, and a mapping for this file
    /// guessed from them (a time-like column, axes named x, y, z, a label column) to start from.
    public static func noMatchMessage(header: [String], fileName: String = "NAME") -> String {
        let lower = header.map { stripUnit($0.lowercased()) }
        let time = lower.firstIndex { $0.contains("time") || $0.contains("stamp") || $0 == "t" || $0 == "ts" }
        var axes = ["x", "y", "z"].compactMap { axis in lower.firstIndex(of: axis).map { header[$0] } }
        if axes.count != 3 { axes = (1...3).map { String((time ?? 0) + 1 + $0) } }
        var example =
            "files=\(fileName); " + (time.map { "time=\(header[$0])" } ?? "rate=HZ; start=TIME") + "; acc=" + axes.joined(separator: ",")
        if let label = lower.firstIndex(where: { labelNames.contains($0) }) { example += "; label=\(header[label])" }
        return "no IMU dialect matches the columns [\(header.joined(separator: ", "))]; expected a time column "
            + "(time, timestamp, time_ms …) and accelerometer columns (ax,ay,az or acc_x… or x_acc…), a "
            + "Sensor Logger or phyphox export, or an Android event log; or describe this file with --columns, "
            + "e.g. --columns '\(example)' (columns by name or 1-based number; add :ms or :s to the time column for its unit, "
            + ":g to acc= for values in g; files= is a glob of the file names it is for), or a columns column in manifest.csv; "
            + "see `pipeline ingest --help`"
    }

    /// Why a table file was not read as a trace: its first line names no time or sensor
    /// column, with what to give if it is sensor data after all.
    public static func notATraceMessage(firstLine: String) -> String {
        let shown = firstLine.count > 80 ? String(firstLine.prefix(80)) + "…" : firstLine
        return "its first line names no time or sensor column ([\(shown)]), so it is not read as a trace; if it is sensor "
            + "data, describe it with --columns, e.g. --columns 'files=NAME; delimiter=space; header=0; time=1:ms; acc=2,3,4' "
            + "(NAME a glob of the file names it is for; or dt=COLUMN:ms with start=, for a logger that writes the time between samples)"
    }
}
