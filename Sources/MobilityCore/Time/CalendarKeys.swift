import Foundation

/// Hour of day and weekday of an instant, at a fixed offset from UTC (the traces carry no
/// time zone; the offset is a parameter, 0 by default).
public struct CalendarKeys: Hashable, Sendable {
    public var utcOffsetSeconds: Double

    public init(utcOffsetSeconds: Double = 0) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private func localDays(_ seconds: Double) -> Double { (seconds + utcOffsetSeconds) / 86_400 }

    /// 0–23.
    public func hour(_ seconds: Double) -> Int {
        // In seconds, not fractions of a day: 08:00:00 must not come out as 7.99999… h.
        let local = seconds + utcOffsetSeconds
        let ofDay = local - (local / 86_400).rounded(.down) * 86_400
        return min(23, Int(ofDay / 3600))
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public func weekday(_ seconds: Double) -> Int {
        let day = Int(localDays(seconds).rounded(.down))
        return ((day + 3) % 7 + 7) % 7
    }

    /// Days since 1970-01-01 in local time: one number per calendar date.
    public func dayNumber(_ seconds: Double) -> Int { Int(localDays(seconds).rounded(.down)) }
}
