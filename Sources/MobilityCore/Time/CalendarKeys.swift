import Foundation

/// Local hour, weekday and date of an instant: in an IANA time zone with its daylight saving
/// (`init(zone:)`), at a fixed offset from UTC (`init(utcOffsetSeconds:)`), or along a device's
/// travels through several zones (`init(timeline:)`).
///
/// Held as pieces of constant offset from UTC (each with the zone it belongs to), computed
/// once from the system's tz rules (Foundation's ICU data), so a lookup is a binary search,
/// cheap enough for every fix of a heat map.
public struct CalendarKeys: Hashable, Sendable {
    /// From `startSeconds` (UTC) on, local time is UTC + `offsetSeconds`, in `zone`.
    public struct Piece: Hashable, Sendable {
        public var startSeconds: Double
        public var offsetSeconds: Double
        public var zone: String
    }

    /// Sorted by start; the first holds from the beginning of time.
    public private(set) var pieces: [Piece]

    /// A fixed offset, named `UTC` or `UTC+02:00`.
    public init(utcOffsetSeconds: Double = 0) {
        pieces = [Piece(startSeconds: -.infinity, offsetSeconds: utcOffsetSeconds, zone: Self.offsetName(utcOffsetSeconds))]
    }

    /// An IANA zone (`Europe/Paris`) with its daylight saving; nil for a name the tz database
    /// does not know.
    public init?(zone identifier: String) {
        guard let rules = ZoneRules.named(identifier) else { return nil }
        pieces = rules
    }

    /// Zones one after another: each entry's calendar from its start on (a device that moved
    /// from one zone into another). Sorted by start; the first holds from the beginning of time.
    public init(timeline: [(startSeconds: Double, calendar: CalendarKeys)]) {
        var pieces = timeline.first?.calendar.pieces ?? CalendarKeys().pieces
        for (start, calendar) in timeline.dropFirst() {
            pieces.removeAll { $0.startSeconds >= start }
            let from = calendar.pieceIndex(at: start)
            pieces.append(Piece(startSeconds: start, offsetSeconds: calendar.pieces[from].offsetSeconds, zone: calendar.pieces[from].zone))
            pieces += calendar.pieces[(from + 1)...]
        }
        self.pieces = pieces
    }

    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// What to say of a zone name the tz database does not know.
    public static func unknownZone(_ name: String) -> String {
        "\(name) is not an IANA time zone (such as Europe/Paris or America/New_York)"
    }

    /// `UTC`, `UTC+02:00`, `UTC-03:30`.
    public static func offsetName(_ seconds: Double) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = Int((abs(seconds) / 60).rounded())
        return String(format: "UTC%@%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    private func pieceIndex(at seconds: Double) -> Int {
        guard pieces.count > 1 else { return 0 }
        var (low, high) = (0, pieces.count - 1)
        while low < high { // the last piece starting at or before `seconds`
            let middle = (low + high + 1) / 2
            if pieces[middle].startSeconds <= seconds { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Local time minus UTC at `seconds`, seconds.
    public func offsetSeconds(at seconds: Double) -> Double { pieces[pieceIndex(at: seconds)].offsetSeconds }

    /// The zone in force at `seconds`.
    public func zone(at seconds: Double) -> String { pieces[pieceIndex(at: seconds)].zone }

    /// Every zone the calendar passes through, in order, each once: what an output names.
    public var zones: [String] {
        var seen: [String] = []
        for piece in pieces where !seen.contains(piece.zone) { seen.append(piece.zone) }
        return seen
    }

    /// The zones, joined by " then ".
    public var name: String { zones.joined(separator: " then ") }

    private func localSeconds(_ seconds: Double) -> Double { seconds + offsetSeconds(at: seconds) }

    /// 0–23.
    public func hour(_ seconds: Double) -> Int {
        // In seconds, not fractions of a day: 08:00:00 must not come out as 7.99999… h.
        min(23, Int(secondsOfDay(seconds) / 3600))
    }

    /// Seconds since local midnight, 0 ..< 86,400 (local clock time as seconds: 09:30 is 34,200
    /// on every day, the 23 h and 25 h ones included).
    public func secondsOfDay(_ seconds: Double) -> Double {
        let local = localSeconds(seconds)
        return local - (local / 86_400).rounded(.down) * 86_400
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public func weekday(_ seconds: Double) -> Int {
        let day = dayNumber(seconds)
        return ((day + 3) % 7 + 7) % 7
    }

    /// Days since 1970-01-01 in local time: one number per calendar date.
    public func dayNumber(_ seconds: Double) -> Int { Int((localSeconds(seconds) / 86_400).rounded(.down)) }

    /// The first instant (UTC seconds) of local date `day`: its local midnight, or where a
    /// zone skips midnight, the first instant after it. A day's length is
    /// `dayStart(day + 1) - dayStart(day)`: 23 h or 25 h on the days daylight saving starts and ends.
    public func dayStart(_ day: Int) -> Double {
        let midnight = Double(day) * 86_400
        // The instant whose local time is `midnight` under each piece's offset (offsets lie
        // within ±15 h): the first that lies within its piece, else, where the zone skips
        // midnight, the first instant after it.
        let first = pieceIndex(at: midnight - 15 * 3600), last = pieceIndex(at: midnight + 15 * 3600)
        for index in first...last {
            let candidate = midnight - pieces[index].offsetSeconds
            let start = pieces[index].startSeconds
            let end = index + 1 < pieces.count ? pieces[index + 1].startSeconds : .infinity
            if candidate >= start, candidate < end { return candidate }
            if candidate < start, start + pieces[index].offsetSeconds >= midnight { return start }
        }
        return midnight - pieces[last].offsetSeconds
    }

    /// The local calendar year of an instant.
    public func year(_ seconds: Double) -> Int { ISO8601.civil(fromDays: dayNumber(seconds)).0 }

    /// `YYYY-MM-DD` of a local date (`dayNumber`).
    public static func dateText(_ day: Int) -> String {
        let (y, m, d) = ISO8601.civil(fromDays: day)
        return String(format: "%04d-%02d-%02d", y, m, d)
    }

    /// ISO 8601 local time with its offset, `2024-10-27T02:30:00+01:00`.
    public func localText(_ seconds: Double) -> String {
        let offset = offsetSeconds(at: seconds)
        let text = ISO8601.format(Timestamp(secondsSince1970: (seconds + offset).rounded(.down)))
        let minutes = Int((abs(offset) / 60).rounded())
        return String(text.dropLast()) + String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }
}

/// The pieces of constant offset of each IANA zone, from 1970 to 2100, computed once per zone
/// and process.
enum ZoneRules {
    private static let cache = ZoneRuleCache()

    static func named(_ identifier: String) -> [CalendarKeys.Piece]? {
        if let known = cache.get(identifier) { return known }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        var pieces: [CalendarKeys.Piece] = []
        var instant = Date(timeIntervalSince1970: 0)
        pieces.append(.init(startSeconds: -.infinity, offsetSeconds: Double(zone.secondsFromGMT(for: instant)), zone: identifier))
        let end = 4_102_444_800.0 // 2100-01-01
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next.timeIntervalSince1970 < end {
            instant = next
            let offset = Double(zone.secondsFromGMT(for: next))
            if offset != pieces.last!.offsetSeconds {
                pieces.append(.init(startSeconds: next.timeIntervalSince1970, offsetSeconds: offset, zone: identifier))
            }
        }
        cache.set(identifier, pieces)
        return pieces
    }
}

private final class ZoneRuleCache: @unchecked Sendable {
    private let lock = NSLock()
    private var rules: [String: [CalendarKeys.Piece]] = [:]
    func get(_ name: String) -> [CalendarKeys.Piece]? { lock.withLock { rules[name] } }
    func set(_ name: String, _ pieces: [CalendarKeys.Piece]) { lock.withLock { rules[name] = pieces } }
}
