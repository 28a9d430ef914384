import MobilityCore

/// Streams GPS fixes from a delimited table of positions, whatever wrote it, recognised by its
/// header:
///
/// - a time column: `time`, `timestamp`, `tracked_at` (trackintel), `datetime`, `time_ms` …, or
///   phyphox's `"Time (s)"`; Unix seconds, milliseconds, microseconds or nanoseconds (the unit
///   from the name, else from the magnitude), ISO 8601 text, or seconds since a start (phyphox's
///   `meta/time.csv`, made absolute by `clock`, or a start the user gave, `startSeconds`);
/// - the position: `latitude`/`longitude` (also `lat`, `lon`, `lng`, `long`, phyphox's
///   `"Latitude (°)"`), or one WKT column (`geom`, `geometry`, `wkt`) holding `POINT (lon lat)`
///   as trackintel and GeoPandas write it;
/// - optionally accuracy (`accuracy`, `horizontalAccuracy`, `"Horizontal Accuracy (m)"`, m),
///   elevation (`altitude`, `ele`, `elevation`, `height`, m), speed (`speed`, `velocity`, m/s),
///   course (`bearing`, `course`, `direction`, degrees); `NaN` or empty is missing;
/// - optionally a person (`user_id`, `user`, `person`, `participant`) or device (`device`,
///   `device_id`) column: the identity of every row (`DeviceResolver` names the file by its
///   first row), so a table holding several people's rows is an error that says how to split
///   it, never one device made of several people.
///
/// Sensor Logger's and phyphox's `Location.csv` are such tables.
public struct PositionTableReader {
    public let path: String
    /// Maps relative times to absolute ones (phyphox); nil for absolute times.
    public var clock: ExperimentClock?
    /// The offset of ISO 8601 times written without one, seconds east of UTC (`utc_offset=`).
    public var defaultUTCOffsetSeconds = 0
    /// Whether `utc_offset` was given (a time without an offset is then in it, not a guess).
    public var offsetGiven = false

    public init(path: String, clock: ExperimentClock? = nil) {
        self.path = path
        self.clock = clock
    }

    /// Unix seconds of time 0, for a table whose times are seconds since its start.
    public init(path: String, startSeconds: Double?) {
        self.path = path
        self.clock = startSeconds.flatMap { ExperimentClock(starts: [(0, $0)]) }
    }

    struct Columns {
        enum Position { case degrees(latitude: Int, longitude: Int), wkt(Int) }
        var time: Int, position: Position
        var timeUnit: TimeUnit?
        var altitude: Int?, accuracy: Int?, speed: Int?, bearing: Int?
        /// The activity the phone recognised (Google's activity recognition, its top guess:
        /// `activity` or `activity_1`), read as a motion source (`IMUVisitor.activityRun`).
        var activity: Int?
        /// The column naming each row's person or device, with its name as the header has it.
        var identity: (column: Int, name: String, isPerson: Bool)?

        static let timeNames = [
            "time", "timestamp", "ts", "tracked_at", "trackedat", "datetime", "date_time", "unix_time", "epoch",
            "time_s", "time_ms", "time_us", "time_ns", "timestamp_s", "timestamp_ms", "timestamp_ns", "utc_time", "gps_time"
        ]

        init?(header: [String]) {
            // phyphox names carry their unit: "Latitude (°)", "Horizontal Accuracy (m)", "Time (s)".
            let lower = header.map { name in
                let base = name.lowercased().split(separator: "(").first.map(String.init) ?? name.lowercased()
                return base.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            }
            func index(_ names: [String]) -> Int? { lower.firstIndex { names.contains($0) } }
            func index(_ names: String...) -> Int? { index(names) }
            guard let time = index(Self.timeNames) else { return nil }
            if let latitude = index("latitude", "lat"), let longitude = index("longitude", "lon", "lng", "long") {
                position = .degrees(latitude: latitude, longitude: longitude)
            } else if let wkt = index("geom", "geometry", "wkt", "the_geom") {
                position = .wkt(wkt)
            } else {
                return nil
            }
            self.time = time
            timeUnit = TimeUnit.stated(inColumnName: header[time])
            altitude = index("altitude", "ele", "elevation", "height", "alt", "altitude_m")
            accuracy = index("horizontalaccuracy", "accuracy", "accuracy_m", "horizontal_accuracy", "hacc")
            speed = index("speed", "speed_mps", "velocity", "speed_m_s")
            bearing = index("bearing", "course", "direction", "heading")
            activity = index("activity", "activity_1", "activity_type", "detected_activity")
            if let person = index("user_id", "userid", "user", "person", "person_id", "participant", "participant_id") {
                identity = (person, header[person], true)
            } else if let device = index("device", "device_id", "deviceid") {
                identity = (device, header[device], false)
            }
        }

        var required: Int {
            switch position {
            case .degrees(let latitude, let longitude): max(time, latitude, longitude)
            case .wkt(let column): max(time, column)
            }
        }
    }

    /// True when a table with this header is read as positions.
    public static func matches(header: [String]) -> Bool { Columns(header: header) != nil }

    /// The person or device the first data row names, and whether it is a person, when the
    /// table has such a column (`DeviceResolver` names the file by it).
    public static func identity(path: String) -> (name: String, isPerson: Bool)? {
        guard let lines = try? LineReader.head(path: path, limit: 2), lines.count == 2 else { return nil }
        let delimiter = IMUDialect.guessDelimiter(lines[0])
        guard let columns = Columns(header: CSVFields.split(lines[0], delimiter: delimiter)), let identity = columns.identity else {
            return nil
        }
        let values = CSVFields.split(lines[1], delimiter: delimiter)
        guard identity.column < values.count, !values[identity.column].isEmpty else { return nil }
        return (values[identity.column], identity.isPerson)
    }

    public func read(visitor: IMUVisitor) throws {
        var fields = CSVFields()
        var columns: Columns?
        var unit: TimeUnit?
        var firstIdentity: String?
        var checkedOffset = false
        var activities = LabelRunTracker()
        activities.isActivity = true
        defer { activities.finish(visitor: visitor) }
        try LineReader(path: path).forEachLine { line, number in
            guard !line.isEmpty else { return true }
            if number == 1 {
                let header = String(decoding: line, as: UTF8.self)
                let delimiter = IMUDialect.guessDelimiter(header)
                fields = CSVFields(delimiter: delimiter)
                columns = Columns(header: CSVFields.split(header, delimiter: delimiter))
                guard columns != nil else {
                    throw InputError(
                        .badHeader,
                        "expected a time column and latitude and longitude (or a WKT geom) columns; found ["
                            + CSVFields.split(header, delimiter: delimiter).joined(separator: ", ") + "]", path: path, line: 1)
                }
                unit = columns?.timeUnit
                return true
            }
            guard let columns else { return false }
            fields.split(line)
            guard fields.count > columns.required else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: nil)
                return true
            }
            if let identity = columns.identity {
                let value = fields.string(identity.column, in: line)
                if firstIdentity == nil {
                    firstIdentity = value
                } else if value != firstIdentity {
                    throw InputError(
                        .badHeader,
                        "this table holds the rows of more than one \(identity.isPerson ? "person" : "device") "
                            + "(\(identity.name) \(firstIdentity!) in the first row, \(value) here); an input is one device's "
                            + "recording: split it into one file per \(identity.name) (in pandas: for key, rows in "
                            + "df.groupby('\(identity.name)'): rows.to_csv(f'\(identity.name)-{key}.csv', index=False)) and run on the folder",
                        path: path, line: number)
                }
            }
            guard let (latitude, longitude) = position(columns.position, line: line, fields: fields),
                let seconds = time(fields.bytes(columns.time, in: line), unit: &unit)
            else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: nil)
                return true
            }
            if unit == .iso8601, !offsetGiven, !checkedOffset {
                checkedOffset = true
                if !ISO8601.hasOffset(fields.bytes(columns.time, in: line)) { visitor.timeWithoutOffset(line: number) }
            }
            let optional = { (column: Int?) in
                // phyphox writes NaN for an accuracy or height it does not have: missing, not a number.
                column.flatMap { $0 < fields.count ? fields.double($0, in: line) : nil }.flatMap { $0.isFinite ? $0 : nil }
            }
            let fix = PositionFix(
                time: Timestamp(secondsSince1970: seconds),
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                elevationMeters: optional(columns.altitude), accuracyMeters: optional(columns.accuracy),
                speedMetersPerSecond: optional(columns.speed).flatMap { $0 < 0 ? nil : $0 },
                courseDegrees: optional(columns.bearing).flatMap { $0 < 0 ? nil : $0 })
            try visitor.fix(fix, line: number)
            if let column = columns.activity, column < fields.count {
                activities.observe(
                    fields.bytes(column, in: line), time: Timestamp(secondsSince1970: seconds), line: number, visitor: visitor)
            }
            return true
        }
    }

    /// Unix seconds of a time field: a number in `unit` (guessed from the first value when the
    /// header does not say; relative to `clock` when set), or ISO 8601 text.
    private func time(_ bytes: UnsafeBufferPointer<UInt8>, unit: inout TimeUnit?) -> Double? {
        if unit != .iso8601, let value = NumberParser.double(bytes), value.isFinite {
            if unit == nil { unit = clock == nil ? TimeUnit.guessed(fromValue: value) : .seconds }
            let seconds = value * unit!.secondsPerUnit
            return clock.map { $0.absolute(seconds) } ?? seconds
        }
        var text = CSVFields.unquote(String(decoding: bytes, as: UTF8.self))
        guard let time = text.withUTF8({ ISO8601.parse($0, defaultOffsetSeconds: defaultUTCOffsetSeconds) }) else { return nil }
        unit = .iso8601
        return time.secondsSince1970 // a date-time says when it was: no start applies
    }

    private func position(_ position: Columns.Position, line: UnsafeBufferPointer<UInt8>, fields: CSVFields) -> (Double, Double)? {
        switch position {
        case .degrees(let latitude, let longitude):
            guard let lat = fields.double(latitude, in: line), let lon = fields.double(longitude, in: line) else { return nil }
            return (lat, lon)
        case .wkt(let column):
            return Self.point(wkt: fields.string(column, in: line))
        }
    }

    /// Latitude and longitude of a WKT point, `POINT (lon lat)` (also `POINT Z (lon lat h)` and
    /// an EWKT `SRID=4326;` prefix), or nil.
    static func point(wkt text: String) -> (Double, Double)? {
        var body = Substring(text.trimmingWhitespace())
        if body.uppercased().hasPrefix("SRID="), let semicolon = body.firstIndex(of: ";") { body = body[body.index(after: semicolon)...] }
        guard body.uppercased().hasPrefix("POINT"), let open = body.firstIndex(of: "("), let close = body.lastIndex(of: ")"), open < close
        else { return nil }
        let numbers = body[body.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap {
            NumberParser.double(String($0))
        }
        guard numbers.count >= 2 else { return nil }
        return (numbers[1], numbers[0])
    }
}
