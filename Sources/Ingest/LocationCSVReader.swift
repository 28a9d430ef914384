import MobilityCore

/// Streams GPS fixes from a CSV with `latitude`/`longitude` (or `lat`/`lon`) columns and a
/// time column, such as Sensor Logger's `Location.csv` (`time` in Unix ns,
/// `horizontalAccuracy` in metres, `speed` m/s, `bearing` degrees, `altitude` m).
public struct LocationCSVReader {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    struct Columns {
        var time: Int, latitude: Int, longitude: Int
        var altitude: Int?, accuracy: Int?, speed: Int?, bearing: Int?

        init?(header: [String]) {
            let lower = header.map { $0.lowercased() }
            func index(_ names: String...) -> Int? { lower.firstIndex { names.contains($0) } }
            guard let time = index("time", "timestamp"), let latitude = index("latitude", "lat"),
                  let longitude = index("longitude", "lon", "lng") else { return nil }
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            altitude = index("altitude", "ele", "elevation")
            accuracy = index("horizontalaccuracy", "accuracy", "accuracy_m")
            speed = index("speed", "speed_mps")
            bearing = index("bearing", "course")
        }
    }

    public func read(visitor: IMUVisitor) throws {
        var fields = CSVFields()
        var columns: Columns?
        var unit: TimeUnit?
        try LineReader(path: path).forEachLine { line, number in
            guard !line.isEmpty else { return true }
            if number == 1 {
                columns = Columns(header: CSVFields.split(String(decoding: line, as: UTF8.self)))
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
            if unit == nil { unit = TimeUnit.guessed(fromValue: rawTime) }
            let optional = { (column: Int?) in column.flatMap { $0 < fields.count ? fields.double($0, in: line) : nil } }
            let fix = PositionFix(
                time: Timestamp(secondsSince1970: rawTime * unit!.secondsPerUnit),
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                elevationMeters: optional(columns.altitude), accuracyMeters: optional(columns.accuracy),
                speedMetersPerSecond: optional(columns.speed).flatMap { $0 < 0 ? nil : $0 },
                courseDegrees: optional(columns.bearing).flatMap { $0 < 0 ? nil : $0 })
            try visitor.fix(fix, line: number)
            return true
        }
    }
}
