import Foundation
import MobilityCore

/// A user's explicit description of an IMU table the readers do not recognise, so nobody with
/// an unknown logger is stuck.
///
/// Written as `key=value` entries separated by `;` or newlines (`#` starts a comment), given
/// with `--columns` or in a file with `--columns-file`:
///
///     delimiter=tab        comma (default), semicolon, tab, space (any run of blanks), pipe, or one character
///     header=1             lines before the first data row (default 1; 0 for none)
///     time=stamp:ms        time column and unit: s, ms, us, ns or iso8601 (unit guessed when left out)
///     dt=interval:ms       or a column of the time since the previous row (unit required: s, ms, us, ns)
///     rate=50              or a sample rate in Hz, for files with no time column at all
///     start=2024-05-01T08:00:00Z   added to relative times; the time of the first row with dt= or rate=
///     start=name[+HH:MM]   the same, from the date and time in the file's name (`…2024-05-01_08-00-00…`),
///                          in UTC or at the offset given (the name's local time, e.g. name+02:00)
///     acc=ax,ay,az:g       accelerometer columns, unit m/s2 (default) or g
///     gyro=gx,gy,gz:deg/s  gyroscope columns, unit rad/s (default) or deg/s
///     linear=…  gravity=…  the other kept streams, in m/s2 or g
///     label=activity       per-sample label column
///
/// Columns are named as in the header, or by 1-based number. `dt=` and `rate=` give times
/// relative to the first row, so they need `start=`; a relative `time=` without it is dropped as
/// `implausible_time` and the file quarantined with a message naming `start=`.
///
/// A mapping is a property of the files read with it: ingest stores its `text` with each such
/// file, and every later stage (classify, comfort, re-runs without `--columns`) reads the file
/// with that stored mapping.
public struct ColumnMappingSpec: Hashable, Sendable {
    public var entries: [String: String]

    public init(text: String) throws {
        var entries: [String: String] = [:]
        for raw in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let entry = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingWhitespace() ?? ""
            guard !entry.isEmpty else { continue }
            guard let equals = entry.firstIndex(of: "=") else {
                throw SpecError("'\(entry)' is not key=value")
            }
            let key = String(entry[..<equals]).trimmingWhitespace().lowercased()
            guard ColumnMappingSpec.keys.contains(key) else {
                throw SpecError("unknown key '\(key)'; expected one of \(ColumnMappingSpec.keys.sorted().joined(separator: ", "))")
            }
            entries[key] = String(entry[entry.index(after: equals)...]).trimmingWhitespace()
        }
        let clocks = ["time", "dt", "rate"].filter { entries[$0] != nil }
        guard clocks.count == 1 else {
            throw SpecError(clocks.isEmpty ? "give time=COLUMN[:UNIT], dt=COLUMN:UNIT or rate=HZ"
                                           : "give only one of time=, dt=, rate= (got \(clocks.joined(separator: ", ")))")
        }
        if let relative = ["dt", "rate"].first(where: { entries[$0] != nil }), entries["start"] == nil {
            throw SpecError("\(relative)= gives times relative to the first row: add start=YYYY-MM-DDTHH:MM:SSZ, the time of the first row")
        }
        if let dt = entries["dt"] {
            let parts = dt.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let unit = TimeUnit(rawValue: parts[1].lowercased()), unit != .iso8601 else {
                throw SpecError("dt=\(dt) needs a unit of time between samples: dt=COLUMN:s, :ms, :us or :ns")
            }
        }
        guard entries["acc"] != nil || entries["gyro"] != nil || entries["linear"] != nil || entries["gravity"] != nil else {
            throw SpecError("give at least one of acc=, gyro=, linear=, gravity=")
        }
        self.entries = entries
    }

    /// A mistake in the mapping text itself (reported before any file is read).
    public struct SpecError: Error, CustomStringConvertible {
        public let description: String
        init(_ message: String) { description = "invalid column mapping: " + message }
    }

    static let keys: Set<String> = ["delimiter", "header", "time", "dt", "rate", "start", "acc", "gyro", "linear", "gravity", "label"]

    /// The mapping in one canonical line (`key=value` sorted by key, joined by `;`): what the
    /// store keeps with each file read with it, and what `init(text:)` reads back.
    public var text: String {
        entries.keys.sorted().map { "\($0)=\(entries[$0]!)" }.joined(separator: ";")
    }

    public var delimiter: UInt8 {
        switch entries["delimiter"]?.lowercased() {
        case nil, "comma", ",": 0x2C
        case "semicolon", ";": 0x3B
        case "tab", "\\t": 0x09
        case "space", " ": 0x20
        case "pipe", "|": 0x7C
        case let other?: other.utf8.first ?? 0x2C
        }
    }

    /// Unix seconds of the first `YYYY-MM-DD[ _T-]HH[-:_.]MM[-:_.]SS` in `name`, read at the UTC
    /// offset `offset` (`""`, or `+HH:MM` / `-HH:MM`); nil without one.
    static func timeInName(_ name: String, offset: String) -> Double? {
        let pattern = #"(\d{4})-(\d{2})-(\d{2})[ _T-](\d{2})[-:_.]?(\d{2})[-:_.]?(\d{2})"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) else { return nil }
        let parts = (1...6).compactMap { Range(match.range(at: $0), in: name).map { String(name[$0]) } }
        let zone: String
        if offset.isEmpty { zone = "Z" } else {
            guard offset.range(of: #"^[+-]\d{2}:\d{2}$"#, options: .regularExpression) != nil else { return nil }
            zone = offset
        }
        let text = "\(parts[0])-\(parts[1])-\(parts[2])T\(parts[3]):\(parts[4]):\(parts[5])\(zone)"
        return TimeText.parse(text)?.secondsSince1970
    }

    /// The mapping for a file whose first line is `headerLine`.
    public func mapping(headerLine: String, path: String) throws -> ColumnMapping {
        var mapping = ColumnMapping(dialect: "explicit")
        mapping.spec = text
        mapping.delimiter = delimiter
        mapping.headerLines = Int(entries["header"] ?? "1") ?? 1
        mapping.header = mapping.headerLines > 0 ? CSVFields.split(headerLine, delimiter: delimiter) : []
        let fail = { (message: String) in InputError(.badHeader, message + "; the header has [\(mapping.header.joined(separator: ", "))]", path: path, line: 1) }
        func column(_ name: String) throws -> Int {
            if let index = mapping.header.firstIndex(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { return index }
            if let number = Int(name), number >= 1 { return number - 1 }
            throw fail("the column mapping names column '\(name)', which is not in the file")
        }
        if let time = entries["time"] {
            let parts = time.split(separator: ":", maxSplits: 1).map(String.init)
            mapping.timeColumn = try column(parts[0])
            if parts.count > 1 {
                guard let unit = TimeUnit(rawValue: parts[1].lowercased()) else { throw fail("unknown time unit '\(parts[1])' (s, ms, us, ns, iso8601)") }
                mapping.timeUnit = unit
            }
        }
        if let dt = entries["dt"] {
            let parts = dt.split(separator: ":", maxSplits: 1).map(String.init)
            mapping.intervalColumn = try column(parts[0])
            mapping.timeUnit = TimeUnit(rawValue: parts[1].lowercased())
        }
        mapping.fixedRateHz = entries["rate"].flatMap(NumberParser.double)
        if let start = entries["start"] {
            if start.lowercased().hasPrefix("name") {
                guard let seconds = Self.timeInName((path as NSString).lastPathComponent, offset: String(start.dropFirst(4))) else {
                    throw fail("start=\(start): the file name has no date and time (YYYY-MM-DD_HH-MM-SS), or the offset is not ±HH:MM")
                }
                mapping.timeOffsetSeconds = seconds
            } else {
                guard let time = TimeText.parse(start) else { throw fail("start=\(start) is not a time") }
                mapping.timeOffsetSeconds = time.secondsSince1970
            }
        }
        for (key, sensor) in [("acc", IMUSensor.accelerometer), ("gyro", .gyroscope), ("linear", .linearAcceleration), ("gravity", .gravity)] {
            guard let value = entries[key] else { continue }
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            let columns = try parts[0].split(separator: ",").map { try column(String($0).trimmingWhitespace()) }
            guard columns.count == 3 else { throw fail("\(key)= needs three columns x,y,z") }
            let unit = parts.count > 1 ? parts[1].lowercased() : ""
            let scale: Double = switch unit {
            case "g": standardGravity
            case "deg/s", "dps": Double.pi / 180
            default: 1
            }
            mapping.streams.append(.init(sensor: sensor, columns: columns, toSI: scale))
        }
        if let label = entries["label"] { mapping.labelColumn = try column(label) }
        return mapping
    }
}
