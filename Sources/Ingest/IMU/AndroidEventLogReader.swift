import Foundation
import MobilityCore

/// Streams an Android sensor event log in long format: `time_ms,sensor_name,v1,v2,v3[,…]`,
/// one row per sensor event, sensors interleaved at their own irregular rates (the TMD data
/// set of Carpineti et al. 2018).
///
/// Keeps `android.sensor.accelerometer`, `gyroscope`, `gravity` and `linear_acceleration`;
/// every other sensor (and the unnamed all-zero rows these logs contain) is counted by name.
/// `time_ms` counts from the recording's start; the absolute start comes from `startTime`,
/// by default the epoch milliseconds at the end of the file name (`…_1480485018989.csv`).
public struct AndroidEventLogReader {
    public let path: String
    public var start: Timestamp

    public init(path: String, start: Timestamp? = nil) {
        self.path = path
        self.start = start ?? AndroidEventLogReader.startTime(fromFileName: path) ?? Timestamp(secondsSince1970: 0)
    }

    /// Epoch milliseconds at the end of a file name, as TMD names its files.
    public static func startTime(fromFileName path: String) -> Timestamp? {
        var name = (path as NSString).lastPathComponent
        for suffix in [".gz", ".csv", ".txt"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        let digits = name.reversed().prefix { $0.isNumber }
        guard digits.count >= 12, digits.count <= 14, let millis = Double(String(digits.reversed())) else { return nil }
        return Timestamp(secondsSince1970: millis / 1000)
    }

    /// The first lines look like this format: most rows are a number, then a sensor name (or
    /// nothing), then values. A damaged row among them (TMD has a first row `r2,…`) is tolerated.
    public static func matches(lines: [String]) -> Bool {
        let rows = lines.filter { !$0.isEmpty }
        let matching = rows.filter { line in
            let fields = CSVFields.split(line)
            guard fields.count >= 3, NumberParser.double(fields[0]) != nil, NumberParser.double(fields[1]) == nil else { return false }
            return fields[1].isEmpty || fields[1].allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        }
        return !rows.isEmpty && matching.count * 2 > rows.count
    }

    private static let kept: [String: IMUSensor] = [
        "android.sensor.accelerometer": .accelerometer,
        "android.sensor.gyroscope": .gyroscope,
        "android.sensor.gravity": .gravity,
        "android.sensor.linear_acceleration": .linearAcceleration
    ]

    @discardableResult
    public func read(visitor: IMUVisitor) throws -> Int {
        var fields = CSVFields()
        var names = SensorNameCache()
        var rows = 0
        try LineReader(path: path).forEachLine { line, number in
            guard !line.isEmpty else { return true }
            fields.split(line)
            rows += 1
            guard fields.count >= 2 else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: nil)
                return true
            }
            let (name, sensor) = names.resolve(fields.bytes(1, in: line), kept: Self.kept)
            guard let sensor else {
                visitor.otherSensor(name, line: number)
                return true
            }
            guard fields.count >= 5, let millis = fields.double(0, in: line) else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: sensor)
                return true
            }
            guard let x = fields.double(2, in: line), let y = fields.double(3, in: line), let z = fields.double(4, in: line),
                x.isFinite, y.isFinite, z.isFinite, millis.isFinite
            else {
                visitor.rejectedRow(.notANumber, line: number, sensor: sensor)
                return true
            }
            try visitor.sample(IMUSample(time: start.adding(seconds: millis / 1000), x: x, y: y, z: z), sensor: sensor, line: number)
            return true
        }
        return rows
    }
}

/// Resolves sensor-name bytes to a name and kept sensor, allocating a string once per name.
struct SensorNameCache {
    private var entries: [(bytes: [UInt8], name: String, sensor: IMUSensor?)] = []

    mutating func resolve(_ bytes: UnsafeBufferPointer<UInt8>, kept: [String: IMUSensor]) -> (String, IMUSensor?) {
        for entry in entries where entry.bytes.count == bytes.count && entry.bytes.elementsEqual(bytes) {
            return (entry.name, entry.sensor)
        }
        var name = CSVFields.unquote(String(decoding: bytes, as: UTF8.self))
        if name.isEmpty { name = "(unnamed)" }
        let entry = (Array(bytes), name, kept[name])
        entries.append(entry)
        return (entry.1, entry.2)
    }
}
