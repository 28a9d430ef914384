import MobilityCore

/// Which fixes count: by mode (nil keeps all, including fixes no stage gave a mode), by
/// date range (inclusive, local days), weekday (0 = Monday) and hour of day (0–23), all in
/// `calendar`'s local time (each device's own, `HeatMapLayers.add`).
public struct HeatMapFilter: Hashable, Sendable {
    public var modes: Set<Mode>?
    /// Days since 1970-01-01, inclusive.
    public var firstDay: Int?
    public var lastDay: Int?
    public var weekdays: Set<Int>?
    public var hours: Set<Int>?
    public var calendar = CalendarKeys()

    public init() {}

    /// True when a fix at `seconds` travelling by `mode` counts (time filters first).
    public func admits(seconds: Double, mode: Mode?) -> Bool {
        if firstDay != nil || lastDay != nil {
            let day = calendar.dayNumber(seconds)
            if let firstDay, day < firstDay { return false }
            if let lastDay, day > lastDay { return false }
        }
        if let weekdays, !weekdays.contains(calendar.weekday(seconds)) { return false }
        if let hours, !hours.contains(calendar.hour(seconds)) { return false }
        if let modes { guard let mode, modes.contains(mode) else { return false } }
        return true
    }

    /// The same filter restricted to one mode (for the per-mode maps).
    public func only(_ mode: Mode) -> HeatMapFilter {
        var copy = self
        copy.modes = modes.map { $0.intersection([mode]) } ?? [mode]
        return copy
    }
}
