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
        self.init()
        add(track.points.array[...])
    }

    /// Nothing observed yet.
    init() {
        fixes = 0
        fixesByQuarterHour = [:]
    }

    /// The next fixes of the device, in time order after those added before.
    mutating func add(_ points: ArraySlice<TrackPoint>) {
        guard let first = points.first, let last = points.last else { return }
        fixes += points.count
        if firstSeconds == nil { firstSeconds = first.timeSeconds }
        lastSeconds = last.timeSeconds
        for point in points { fixesByQuarterHour[Int((point.timeSeconds / 900).rounded(.down)), default: 0] += 1 }
    }

    /// Distinct local days with a fix.
    public func daysObserved(_ calendar: CalendarKeys) -> Int {
        Set(fixesByQuarterHour.keys.map { calendar.dayNumber(Double($0) * 900) }).count
    }
}
