import Foundation

/// Fast ISO 8601 date-time parsing and formatting on UTF-8 bytes.
///
/// Written here rather than using Foundation's `ISO8601DateFormatter` because timestamps are
/// parsed once per GPS fix or IMU row: the formatter costs microseconds per call, this parser
/// tens of nanoseconds. Accepts `YYYY-MM-DD[T| ]hh:mm[:ss[.fff…]][Z|±hh[:]mm]`; a time without
/// an offset is taken as UTC (as GPX 1.1 prescribes and GeoLife uses). `YYYY/MM/DD` separators
/// (GeoLife `labels.txt`) are accepted too.
public enum ISO8601 {
    /// Parses `bytes`, or returns nil when they are not a date-time of the accepted shape.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var scanner = ByteScanner(bytes)
        return scanner.dateTime()
    }

    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// As `parse`, with a time written without an offset taken at `defaultOffsetSeconds` east
    /// of UTC (a file's stated local time) instead of UTC.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, defaultOffsetSeconds: Int) -> Timestamp? {
        var scanner = ByteScanner(bytes)
        scanner.defaultOffsetSeconds = defaultOffsetSeconds
        return scanner.dateTime()
    }

    public static func parse(_ text: String, defaultOffsetSeconds: Int) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse($0, defaultOffsetSeconds: defaultOffsetSeconds) }
    }

    /// Whether a date-time's text says its offset from UTC (`Z`, `+02:00`, `-0500` after the
    /// time): a time without one is local to someone, or UTC by a format's convention.
    public static func hasOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\"") { end -= 1 }
        guard end > 0 else { return false }
        if bytes[end - 1] == UInt8(ascii: "Z") || bytes[end - 1] == UInt8(ascii: "z") { return true }
        // A sign after the time of day (past `YYYY-MM-DDThh:mm`, 16 bytes) starts an offset.
        guard end > 16 else { return false }
        return (16..<end).contains { bytes[$0] == UInt8(ascii: "+") || bytes[$0] == UInt8(ascii: "-") }
    }

    /// The instants `format` writes as dates: years 0000 to 9999.
    public static let formattableSeconds = -62_167_219_200.0...253_402_300_799.0

    /// Formats as `YYYY-MM-DDThh:mm:ss[.fff]Z` (milliseconds shown only when non-zero). A time
    /// outside years 0000–9999, or not finite, is written as its seconds since 1970 (a store
    /// made with other cleaning settings may hold one; formatting must never trap on it).
    public static func format(_ time: Timestamp) -> String { format(time, alwaysMillis: false) }

    /// Formats as `YYYY-MM-DDThh:mm:ss.fffZ`, milliseconds on every time: what every time
    /// column of the outputs holds, so a column never mixes two shapes (pandas 3's
    /// `to_datetime` infers one format from the first row and refuses the other).
    public static func formatMillis(_ time: Timestamp) -> String { format(time, alwaysMillis: true) }

    static func format(_ time: Timestamp, alwaysMillis: Bool) -> String {
        let total = time.secondsSince1970
        guard formattableSeconds.contains(total) else { return "\(total) s since 1970" }
        var seconds = total.rounded(.down)
        var millis = Int(((total - seconds) * 1000).rounded())
        if millis == 1000 { millis = 0; seconds += 1 }
        let whole = Int(seconds)
        let days = floorDiv(whole, 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millis != 0 || alwaysMillis { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    /// The current time to the second, as log lines and lock files show it.
    public static func formatNow() -> String {
        format(Timestamp(secondsSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a count of days since 1970-01-01 (Hinnant's `civil_from_days`).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A cursor over ASCII bytes for the date-time grammar above; it never copies them.
struct ByteScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The offset of a time written without one, seconds east of UTC.
    var defaultOffsetSeconds = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0, end = bytes.count
        // Blanks and the double quotes of a quoted CSV field are not part of the time.
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A || byte == 0x22 }
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        self.bytes = UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    mutating func dateTime() -> Timestamp? {
        guard let year = digits(4), separator(0x2D, 0x2F), let month = digits(2), separator(0x2D, 0x2F),
            let day = digits(2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(ISO8601.days(year: year, month: month, day: day) * 86_400)
        if index == bytes.count { return Timestamp(secondsSince1970: seconds - Double(defaultOffsetSeconds)) }
        guard separator(0x54, 0x20), let hour = digits(2), separator(0x3A, 0x3A), let minute = digits(2),
            hour <= 24, minute <= 59
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if peek(0x3A) {
            index += 1
            guard let second = digits(2), second <= 60 else { return nil }
            seconds += Double(second)
            if peek(0x2E) || peek(0x2C) { seconds += fraction() }
        }
        if peek(0x20) { index += 1 } // "2019-03-08 16:30:07.480 +0100", as some loggers write
        guard let offset = zoneOffsetSeconds(), index == bytes.count else { return nil }
        return Timestamp(secondsSince1970: seconds - Double(offset))
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func separator(_ a: UInt8, _ b: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == a || bytes[index] == b else { return false }
        index += 1
        return true
    }

    private mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in index..<index + count {
            let byte = bytes[offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    private mutating func fraction() -> Double {
        index += 1
        var value = 0.0, scale = 0.1
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value += Double(bytes[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    private mutating func zoneOffsetSeconds() -> Int? {
        if index == bytes.count { return defaultOffsetSeconds }
        if bytes[index] == 0x5A || bytes[index] == 0x7A { index += 1; return 0 }
        guard bytes[index] == 0x2B || bytes[index] == 0x2D else { return nil }
        let sign = bytes[index] == 0x2D ? -1 : 1
        index += 1
        guard let hours = digits(2) else { return nil }
        if peek(0x3A) { index += 1 }
        let minutes = index == bytes.count ? 0 : digits(2)
        guard let minutes else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
