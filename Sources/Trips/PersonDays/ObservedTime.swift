import MobilityCore
/// When a device was observed: its fix count, first and last fix, and its fixes per quarter
/// hour (every time zone's offset is a multiple of 15 min, so days observed and fixes per day
/// at any offset follow exactly), kept after the fixes themselves are dropped.
public struct ObservedTime: Hashable, Sendable {
    public var fixes: Int
    public var firstSeconds: Double?
    public var lastSeconds: Double?
    /// Fixes per quarter hour since 1970 (UTC).
    public var fixesByQuarterHour: [Int: Int]

    init(_ track: DeviceTrack) {
        fixes = track.points.count
        firstSeconds = track.points.first?.timeSeconds
        lastSeconds = track.points.last?.timeSeconds
        var counts: [Int: Int] = [:]
        for point in track.points { counts[Int((point.timeSeconds / 900).rounded(.down)), default: 0] += 1 }
        fixesByQuarterHour = counts
    }

    /// Distinct local days with a fix.
    public func daysObserved(_ calendar: CalendarKeys) -> Int {
        Set(fixesByQuarterHour.keys.map { calendar.dayNumber(Double($0) * 900) }).count
    }
}
