import MobilityCore

/// Streams a GeoLife PLT trajectory (Zheng et al., Microsoft Research Asia, 2011).
///
/// Six header lines, then `lat,lon,0,altitude_ft,days_since_1899-12-30,date,time` in GMT;
/// altitude -777 means missing. Time comes from the date and time columns (exact to the
/// second); the fractional-day column, which carries only about 10 µs of precision, is the
/// fallback when they are absent, rounded to the millisecond.
public struct PLTReader {
    public let path: String
    /// Days from 1899-12-30 (the OLE automation epoch) to 1970-01-01.
    static let oleEpochOffsetDays = 25_569.0
    static let feetToMeters = 0.3048

    public init(path: String) {
        self.path = path
    }

    static func time(_ fields: CSVFields, line: UnsafeBufferPointer<UInt8>, days: Double) -> Timestamp {
        if fields.count >= 7 {
            // "date" "T" "time" in a stack buffer: no String per fix (it was a fifth of ingest).
            let date = fields.bytes(5, in: line), clock = fields.bytes(6, in: line)
            let length = date.count + 1 + clock.count
            let parsed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { text -> Timestamp? in
                _ = text.initialize(from: date)
                text[date.count] = 0x54
                _ = UnsafeMutableBufferPointer(rebasing: text[(date.count + 1)...]).initialize(from: clock)
                return ISO8601.parse(UnsafeBufferPointer(text))
            }
            if let parsed { return parsed }
        }
        let seconds = (days - oleEpochOffsetDays) * 86_400
        return Timestamp(secondsSince1970: (seconds * 1000).rounded() / 1000)
    }

    public static func matches(firstLine: String) -> Bool {
        firstLine.lowercased().hasPrefix("geolife trajectory")
    }

    /// Reads every fix into `visitor.trackPoint` as track 0, segment 0.
    @discardableResult
    public func read(visitor: GPXVisitor) throws -> Int {
        var fields = CSVFields()
        var rows = 0
        try LineReader(path: path).forEachLine { line, number in
            if number == 1, !PLTReader.matches(firstLine: String(decoding: line, as: UTF8.self)) {
                throw InputError(.badHeader, "expected the GeoLife header line 'Geolife trajectory'", path: path, line: 1)
            }
            guard number > 6, !line.isEmpty else { return true }
            rows += 1
            fields.split(line)
            guard fields.count >= 5 else {
                visitor.rejectedPoint(.malformedRow, line: number)
                return true
            }
            guard let latitude = fields.double(0, in: line), let longitude = fields.double(1, in: line),
                let days = fields.double(4, in: line)
            else {
                visitor.rejectedPoint(.malformedRow, line: number)
                return true
            }
            let altitudeFeet = fields.double(3, in: line)
            let fix = PositionFix(
                time: PLTReader.time(fields, line: line, days: days),
                latitudeDegrees: latitude, longitudeDegrees: longitude,
                elevationMeters: altitudeFeet.flatMap { $0 == -777 ? nil : $0 * PLTReader.feetToMeters })
            try visitor.trackPoint(fix, at: FixPosition(track: 0, segment: 0, line: number))
            return true
        }
        return rows
    }
}
