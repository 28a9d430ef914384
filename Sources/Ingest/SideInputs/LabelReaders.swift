import MobilityCore

/// Readers of label files: GeoLife `labels.txt` and the generic `device,start,end,mode` CSV.
///
/// Overlapping intervals are real (GeoLife has them) and are kept as written. Rows that
/// cannot be read are dropped and counted; an interval ending before it starts is dropped as
/// `time_backwards`.
public enum LabelReaders {
    public static func isGeoLifeHeader(_ line: String) -> Bool {
        line.lowercased().hasPrefix("start time\tend time\ttransportation mode")
    }

    public static func isGenericHeader(_ header: [String]) -> Bool {
        let lower = Set(header.map { $0.lowercased() })
        return lower.isSuperset(of: ["start", "end", "mode"])
    }

    /// GeoLife `labels.txt`: tab-separated `Start Time, End Time, Transportation Mode`, times
    /// `YYYY/MM/DD HH:MM:SS` in GMT, CRLF or LF.
    public static func readGeoLife(path: String, device: String?, dropped: inout DropCounts) throws -> [LabelInterval] {
        var labels: [LabelInterval] = []
        try LineReader(path: path).forEachLine { line, number in
            guard number > 1, !line.isEmpty else { return true }
            let fields = CSVFields.split(String(decoding: line, as: UTF8.self), delimiter: 0x09)
            guard fields.count >= 3, let start = ISO8601.parse(fields[0]), let end = ISO8601.parse(fields[1]) else {
                dropped.record(fields.count >= 3 ? .invalidTime : .malformedRow, line: number)
                return true
            }
            guard end >= start else { dropped.record(.timeBackwards, line: number); return true }
            labels.append(LabelInterval(device: device, start: start, end: end, rawName: fields[2], source: "labels_file"))
            return true
        }
        return labels
    }

    /// `device,start,end,mode` (any column order, extra columns ignored; ISO 8601 or Unix
    /// seconds). A missing device falls back to `device`.
    public static func readGeneric(path: String, device: String?, dropped: inout DropCounts) throws -> [LabelInterval] {
        var labels: [LabelInterval] = []
        try NamedColumnsCSV.forEachRow(path: path) { row in
            guard let mode = row.value("mode"), let startText = row.value("start"), let endText = row.value("end") else {
                return dropped.record(.malformedRow, line: row.line)
            }
            guard let start = TimeText.parse(startText), let end = TimeText.parse(endText) else {
                return dropped.record(.invalidTime, line: row.line)
            }
            guard end >= start else { return dropped.record(.timeBackwards, line: row.line) }
            labels.append(
                LabelInterval(device: row.value("device") ?? device, start: start, end: end, rawName: mode, source: "labels_file"))
        }
        return labels
    }
}

/// A time written as ISO 8601 or as a Unix time number (unit guessed from magnitude).
enum TimeText {
    static func parse(_ text: String) -> Timestamp? {
        if let value = NumberParser.double(text), value.isFinite {
            return Timestamp(secondsSince1970: value * TimeUnit.guessed(fromValue: value).secondsPerUnit)
        }
        return ISO8601.parse(text)
    }
}
