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
///     labels=A:walk,D:still   what the label column's codes mean, as mode names (`ModeNames`): a data
///                          set that writes letters (WISDM's A walking, D sitting …); a code left
///                          out stays as written, and is reported as unknown, never guessed
///     files=*.txt          the files this mapping is for: a glob of the name, or with a `/` of the path
///                          below the folder given (`logger/*.txt`); without it, the mapping is for
///                          files no reader recognises (`ColumnMappings`)
///     utc_offset=+02:00    the offset of times written without one (start=, ISO 8601 times in the file)
///
/// `start=` alone (with `files=`, or in a manifest's `start` column) gives the start of a
/// recognised file's relative times: a phyphox export without `meta/time.csv`, a table whose
/// times count from 0.
///
/// Columns are named as in the header, or by 1-based number. `dt=` and `rate=` give times
/// relative to the first row, so they need `start=`; a relative `time=` without it is dropped as
/// `implausible_time` and the file quarantined with a message naming `start=`.
///
/// A mapping is a property of the files read with it: ingest stores it with each such file
/// (`storedText`: `start=name` resolved to the time the name gave, so no later stage reads a
/// name again), and every later stage (classify, comfort, re-runs without `--columns`) reads
/// the file with that stored mapping.
public struct ColumnMappingSpec: Hashable, Sendable {
    public var entries: [String: String]

    public init(text: String) throws {
        var entries: [String: String] = [:]
        for raw in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let entry =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingWhitespace() ?? ""
            guard !entry.isEmpty else { continue }
            guard let equals = entry.firstIndex(of: "=") else {
                throw ColumnMappingSpec.invalid("'\(entry)' is not key=value")
            }
            let key = String(entry[..<equals]).trimmingWhitespace().lowercased()
            guard ColumnMappingSpec.keys.contains(key) else {
                throw ColumnMappingSpec.invalid(
                    "unknown key '\(key)'; expected one of \(ColumnMappingSpec.keys.sorted().joined(separator: ", "))")
            }
            entries[key] = String(entry[entry.index(after: equals)...]).trimmingWhitespace()
        }
        if let offset = entries["utc_offset"], Self.offsetSeconds(offset) == nil {
            throw ColumnMappingSpec.invalid("utc_offset=\(offset) is not an offset such as +02:00 or -05:00")
        }
        let clocks = ["time", "dt", "rate"].filter { entries[$0] != nil }
        let streams = ["acc", "gyro", "linear", "gravity", "label"].filter { entries[$0] != nil }
        if clocks.isEmpty, streams.isEmpty, entries["start"] != nil || entries["utc_offset"] != nil, entries["delimiter"] == nil,
            entries["header"] == nil
        {
            self.entries = entries // start= alone: the start of a recognised file's relative times
            return
        }
        guard clocks.count == 1 else {
            throw ColumnMappingSpec.invalid(
                clocks.isEmpty
                    ? "give time=COLUMN[:UNIT], dt=COLUMN:UNIT or rate=HZ"
                    : "give only one of time=, dt=, rate= (got \(clocks.joined(separator: ", ")))")
        }
        if let relative = ["dt", "rate"].first(where: { entries[$0] != nil }), entries["start"] == nil {
            throw ColumnMappingSpec.invalid(
                "\(relative)= gives times relative to the first row: add start=YYYY-MM-DDTHH:MM:SSZ, the time of the first row")
        }
        if let dt = entries["dt"] {
            let parts = dt.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let unit = TimeUnit(rawValue: parts[1].lowercased()), unit != .iso8601 else {
                throw ColumnMappingSpec.invalid("dt=\(dt) needs a unit of time between samples: dt=COLUMN:s, :ms, :us or :ns")
            }
        }
        guard entries["acc"] != nil || entries["gyro"] != nil || entries["linear"] != nil || entries["gravity"] != nil else {
            throw ColumnMappingSpec.invalid("give at least one of acc=, gyro=, linear=, gravity=")
        }
        self.entries = entries
    }

    /// A mapping that cannot be used, said as every one is: "invalid column mapping: …".
    static func invalid(_ message: String) -> PipelineError { PipelineError(.invalidColumnMapping, "invalid column mapping: " + message) }

    static let keys: Set<String> = [
        "delimiter", "header", "time", "dt", "rate", "start", "acc", "gyro", "linear", "gravity", "label",
        "labels", "files", "utc_offset"
    ]

    /// The files this mapping is for (`files=`), or nil for files no reader recognises.
    public var files: String? { entries["files"] }

    /// True for `start=` (and `utc_offset=`) alone: no columns, laid over a recognised format.
    public var isStartOnly: Bool { ["time", "dt", "rate", "acc", "gyro", "linear", "gravity"].allSatisfy { entries[$0] == nil } }

    /// The offset of times written without one, seconds (0 without `utc_offset=`).
    public var utcOffsetSeconds: Double { entries["utc_offset"].flatMap(Self.offsetSeconds) ?? 0 }

    static func offsetSeconds(_ text: String) -> Double? {
        if text == "Z" || text == "z" { return 0 }
        guard text.range(of: #"^[+-]\d{2}:\d{2}$"#, options: .regularExpression) != nil else { return nil }
        let sign: Double = text.hasPrefix("-") ? -1 : 1
        let parts = text.dropFirst().split(separator: ":").compactMap { Double($0) }
        return sign * (parts[0] * 3600 + parts[1] * 60)
    }

    /// Unix seconds of `start=` for the file named `name` (the name the user gave it), or nil
    /// without `start=`; an error naming what is wrong otherwise.
    public func startSeconds(name: String) throws -> Double? {
        guard let start = entries["start"] else { return nil }
        if start.lowercased().hasPrefix("name") {
            var offset = String(start.dropFirst(4))
            if offset.isEmpty, let given = entries["utc_offset"] { offset = given }
            guard let seconds = Self.timeInName(name, offset: offset) else {
                throw ColumnMappingSpec.invalid(
                    "start=\(start): the name \(name) has no date and time (YYYY-MM-DD_HH-MM-SS), or the offset is not ±HH:MM")
            }
            return seconds
        }
        if let number = NumberParser.double(start), number.isFinite { return TimeText.parse(start)?.secondsSince1970 }
        guard let time = ISO8601.parse(start, defaultOffsetSeconds: Int(utcOffsetSeconds)) else {
            throw ColumnMappingSpec.invalid("start=\(start) is not a time (ISO 8601, e.g. 2024-05-01T08:00:00Z, or Unix seconds)")
        }
        return time.secondsSince1970
    }

    /// The mapping as stored with one file read with it: without `files=` (it is that file's),
    /// and `start=name…` replaced by the time the name gave, so re-runs and later stages never
    /// depend on a name again.
    public func storedText(startSeconds: Double?) -> String {
        var stored = entries
        stored["files"] = nil
        if let startSeconds, stored["start"]?.lowercased().hasPrefix("name") == true {
            stored["start"] = ISO8601.format(Timestamp(secondsSince1970: startSeconds))
        }
        return stored.keys.sorted().map { "\($0)=\(stored[$0]!)" }.joined(separator: ";")
    }

    /// Whether this mapping can read the file whose first lines are `lines`: its first data
    /// row has every column the mapping names, with a number where it reads one. Used for a
    /// mapping without `files=`, which is offered only to files it fits.
    public func fits(lines: [String]) -> Bool {
        let headerLines = Int(entries["header"] ?? "1") ?? 1
        guard lines.count > headerLines, let mapping = try? columnsOnly.mapping(headerLine: lines[0], path: "") else { return false }
        var fields = CSVFields(delimiter: mapping.delimiter)
        var line = lines[headerLines]
        return line.withUTF8 { bytes in
            fields.split(bytes)
            guard fields.count >= mapping.minimumFields else { return false }
            let numeric = mapping.streams.flatMap(\.columns) + [mapping.intervalColumn].compactMap { $0 }
            return numeric.allSatisfy { fields.double($0, in: bytes) != nil }
        }
    }

    /// This mapping without its start, for checking columns alone.
    private var columnsOnly: ColumnMappingSpec {
        var copy = self
        copy.entries["start"] = nil
        return copy
    }

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
            let match = regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name))
        else { return nil }
        let parts = (1...6).compactMap { Range(match.range(at: $0), in: name).map { String(name[$0]) } }
        let zone: String
        if offset.isEmpty {
            zone = "Z"
        } else {
            guard offset.range(of: #"^[+-]\d{2}:\d{2}$"#, options: .regularExpression) != nil else { return nil }
            zone = offset
        }
        let text = "\(parts[0])-\(parts[1])-\(parts[2])T\(parts[3]):\(parts[4]):\(parts[5])\(zone)"
        return TimeText.parse(text)?.secondsSince1970
    }

    /// The mapping for a file whose first line is `headerLine`.
    public func mapping(headerLine: String, path: String) throws -> ColumnMapping {
        var mapping = ColumnMapping(dialect: "explicit")
        mapping.delimiter = delimiter
        mapping.headerLines = Int(entries["header"] ?? "1") ?? 1
        mapping.header = mapping.headerLines > 0 ? CSVFields.split(headerLine, delimiter: delimiter) : []
        let fail = { (message: String) in
            InputError(.badHeader, message + "; the header has [\(mapping.header.joined(separator: ", "))]", path: path, line: 1)
        }
        func column(_ name: String) throws -> Int {
            if let index = mapping.header.firstIndex(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { return index }
            if let number = Int(name), number >= 1 { return number - 1 }
            throw fail("the column mapping names column '\(name)', which is not in the file")
        }
        if let time = entries["time"] {
            let parts = time.split(separator: ":", maxSplits: 1).map(String.init)
            mapping.timeColumn = try column(parts[0])
            if parts.count > 1 {
                guard let unit = TimeUnit(rawValue: parts[1].lowercased()) else {
                    throw fail("unknown time unit '\(parts[1])' (s, ms, us, ns, iso8601)")
                }
                mapping.timeUnit = unit
            }
        }
        if let dt = entries["dt"] {
            let parts = dt.split(separator: ":", maxSplits: 1).map(String.init)
            mapping.intervalColumn = try column(parts[0])
            mapping.timeUnit = TimeUnit(rawValue: parts[1].lowercased())
        }
        mapping.fixedRateHz = entries["rate"].flatMap(NumberParser.double)
        let start: Double?
        do { start = try startSeconds(name: (path as NSString).lastPathComponent) } catch let error as PipelineError
            where error.code == .invalidColumnMapping
        {
            throw fail(String(error.description.dropFirst("invalid column mapping: ".count)))
        }
        mapping.timeOffsetSeconds = start ?? 0
        mapping.defaultUTCOffsetSeconds = utcOffsetSeconds
        mapping.offsetGiven = entries["utc_offset"] != nil
        mapping.spec = storedText(startSeconds: start)
        for (key, sensor) in [
            ("acc", IMUSensor.accelerometer), ("gyro", .gyroscope), ("linear", .linearAcceleration), ("gravity", .gravity)
        ] {
            guard let value = entries[key] else { continue }
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            let columns = try parts[0].split(separator: ",").map { try column(String($0).trimmingWhitespace()) }
            guard columns.count == 3 else { throw fail("\(key)= needs three columns x,y,z") }
            let unit = parts.count > 1 ? parts[1].lowercased() : ""
            let scale: Double =
                switch unit {
                case "g": standardGravity
                case "deg/s", "dps": Double.pi / 180
                default: 1
                }
            mapping.streams.append(.init(sensor: sensor, columns: columns, toSI: scale))
        }
        if let label = entries["label"] { mapping.labelColumn = try column(label) }
        if let names = entries["labels"] {
            guard entries["label"] != nil else {
                throw ColumnMappingSpec.invalid("labels=\(names) names what a label column's codes mean: give label= too")
            }
            for pair in names.split(separator: ",") {
                let parts = pair.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace() }
                guard parts.count == 2, !parts[0].isEmpty, Mode(labelName: parts[1]) != nil else {
                    throw ColumnMappingSpec.invalid("labels=: '\(pair)' is not code:mode with a known mode name (such as A:walk)")
                }
                mapping.labelNames[parts[0]] = parts[1]
            }
        }
        return mapping
    }
}
