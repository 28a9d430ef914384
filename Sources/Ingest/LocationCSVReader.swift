import MobilityCore

/// Streams GPS fixes from a CSV with `latitude`/`longitude` (or `lat`/`lon`) columns and a
/// time column, such as Sensor Logger's `Location.csv` (`time` in Unix ns,
/// `horizontalAccuracy` in metres, `speed` m/s, `bearing` degrees, `altitude` m) or phyphox's
/// (`"Time (s)","Latitude (°)","Longitude (°)","Height (m)","Velocity (m/s)","Direction (°)",
/// "Horizontal Accuracy (m)"…`, seconds since the experiment began, made absolute by `clock`).
public struct LocationCSVReader {
    public let path: String
    /// Maps relative times to absolute ones (phyphox); nil for absolute times.
    public var clock: ExperimentClock?

    public init(path: String, clock: ExperimentClock? = nil) {
        self.path = path
        self.clock = clock
    }

    struct Columns {
        var time: Int, latitude: Int, longitude: Int
        var altitude: Int?, accuracy: Int?, speed: Int?, bearing: Int?

        init?(header: [String]) {
            // phyphox names carry their unit: "Latitude (°)", "Horizontal Accuracy (m)", "Time (s)".
            let lower = header.map { name in
                let base = name.lowercased().split(separator: "(").first.map(String.init) ?? name.lowercased()
                return base.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            }
            func index(_ names: String...) -> Int? { lower.firstIndex { names.contains($0) } }
            guard let time = index("time", "timestamp"), let latitude = index("latitude", "lat"),
                  let longitude = index("longitude", "lon", "lng") else { return nil }
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            altitude = index("altitude", "ele", "elevation", "height")
            accuracy = index("horizontalaccuracy", "accuracy", "accuracy_m")
            speed = index("speed", "speed_mps", "velocity")
            bearing = index("bearing", "course", "direction")
        }
    }

    public func read(visitor: IMUVisitor) throws {
        var fields = CSVFields()
        var columns: Columns?
        var delimiter: UInt8 = 0x2C
        var unit: TimeUnit?
        try LineReader(path: path).forEachLine { line, number in
            guard !line.isEmpty else { return true }
            if number == 1 {
                let header = String(decoding: line, as: UTF8.self)
                delimiter = IMUDialect.guessDelimiter(header)
                fields = CSVFields(delimiter: delimiter)
                columns = Columns(header: CSVFields.split(header, delimiter: delimiter))
                guard columns != nil else {
                    throw InputError(.badHeader, "expected time, latitude and longitude columns", path: path, line: 1)
                }
                return true
            }
            guard let columns else { return false }
            fields.split(line)
            guard fields.count > max(columns.time, columns.latitude, columns.longitude),
                  let rawTime = fields.double(columns.time, in: line), let latitude = fields.double(columns.latitude, in: line),
                  let longitude = fields.double(columns.longitude, in: line) else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: nil)
                return true
            }
            if unit == nil { unit = clock == nil ? TimeUnit.guessed(fromValue: rawTime) : .seconds }
            let seconds = rawTime * unit!.secondsPerUnit
            // phyphox writes NaN for an accuracy or height it does not have: missing, not a number.
            let optional = { (column: Int?) in column.flatMap { $0 < fields.count ? fields.double($0, in: line) : nil }.flatMap { $0.isFinite ? $0 : nil } }
            let fix = PositionFix(
                time: Timestamp(secondsSince1970: clock.map { $0.absolute(seconds) } ?? seconds),
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                elevationMeters: optional(columns.altitude), accuracyMeters: optional(columns.accuracy),
                speedMetersPerSecond: optional(columns.speed).flatMap { $0 < 0 ? nil : $0 },
                courseDegrees: optional(columns.bearing).flatMap { $0 < 0 ? nil : $0 })
            try visitor.fix(fix, line: number)
            return true
        }
    }
}
