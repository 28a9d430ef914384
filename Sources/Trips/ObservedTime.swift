import MobilityCore
/// When a device was observed: its fix count, first and last fix, and the quarter-hours that
/// hold a fix (every time zone's offset is a multiple of 15 min, so days observed at any
/// offset follow exactly), kept after the fixes themselves are dropped.
public struct ObservedTime: Hashable, Sendable {
    public var fixes: Int
    public var firstSeconds: Double?
    public var lastSeconds: Double?
    public var quarterHours: Set<Int>

    init(_ track: DeviceTrack) {
        fixes = track.points.count
        firstSeconds = track.points.first?.timeSeconds
        lastSeconds = track.points.last?.timeSeconds
        quarterHours = Set(track.points.map { Int(($0.timeSeconds / 900).rounded(.down)) })
    }

    /// Distinct local days with a fix.
    public func daysObserved(_ calendar: CalendarKeys) -> Int {
        Set(quarterHours.map { calendar.dayNumber(Double($0) * 900) }).count
    }
}
