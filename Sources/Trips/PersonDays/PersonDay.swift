import Foundation
import MobilityCore

/// Settings of person-days (coverage, places' purposes), with their defaults.
public struct PersonDayParameters: Hashable, Sendable, Codable {
    /// A person-day is valid from this tracked share of its length on (0–1): planning tables
    /// count valid days only. 0.6 as in the issue that asked for it; surveys of GPS panels use
    /// 0.5–0.8 (say which in a publication).
    public var minimumCoverage = 0.6
    /// A run whose median person-day coverage falls below this ends with a warning (the nightly
    /// alarm for phones that stopped recording), 0–1.
    public var coverageFloor = 0.5
    /// How home and work are found where no geofence names them (`PlacePurposes`).
    public var purposeMethod = PlacePurposes.Method.osna

    public init() {}

    enum CodingKeys: String, CodingKey { case minimumCoverage, coverageFloor, purposeMethod }

    /// A key a stored configuration of an earlier version lacks takes its default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minimumCoverage = try container.decodeIfPresent(Double.self, forKey: .minimumCoverage) ?? minimumCoverage
        coverageFloor = try container.decodeIfPresent(Double.self, forKey: .coverageFloor) ?? coverageFloor
        purposeMethod = try container.decodeIfPresent(PlacePurposes.Method.self, forKey: .purposeMethod) ?? purposeMethod
    }

    /// Why the settings cannot be used, or nil.
    public var problem: String? {
        guard (0...1).contains(minimumCoverage), (0...1).contains(coverageFloor) else {
            return "minimum_coverage and coverage_floor are shares of a day and must lie within 0–1"
        }
        return nil
    }
}

/// One person's local calendar day: how much of it was tracked, and when it was not.
///
/// Tracked time is the union of the person's staypoints and triplegs (over all their devices),
/// as trackintel's `temporal_tracking_quality` counts it, cut at local midnights in the
/// person's zone. Unlike trackintel, whose day is always 86,400 s, a day is as long as the
/// clock makes it: 82,800 s when daylight saving starts, 90,000 s when it ends.
public struct PersonDay: Hashable, Sendable {
    public var person: String
    /// Local date (`CalendarKeys.dayNumber`) and its text, `YYYY-MM-DD`.
    public var day: Int
    public var date: String
    /// The zone (or zones, for a day of travel) of the day's local time.
    public var zone: String
    /// The day's first instant and the next day's, UTC seconds.
    public var startSeconds: Double, endSeconds: Double
    public var trackedSeconds: Double
    /// Fixes and seconds of IMU windows within the day.
    public var fixes: Int
    public var imuSeconds: Double
    public var valid: Bool
    /// The day's untracked intervals, UTC seconds, in time order.
    public var untracked: [Interval]

    public struct Interval: Hashable, Sendable {
        public var startSeconds: Double, endSeconds: Double
        public init(_ startSeconds: Double, _ endSeconds: Double) { (self.startSeconds, self.endSeconds) = (startSeconds, endSeconds) }
        public var seconds: Double { endSeconds - startSeconds }
    }

    public var lengthSeconds: Double { endSeconds - startSeconds }
    public var untrackedSeconds: Double { lengthSeconds - trackedSeconds }
    public var trackedShare: Double { lengthSeconds > 0 ? trackedSeconds / lengthSeconds : 0 }
}

/// Every person-day of a run, and the coverage the nightly alarm watches.
public struct PersonDays: Sendable {
    public var days: [PersonDay]
    public var parameters: PersonDayParameters

    /// `persons` names each device's person (the device itself when absent); `imuSpans` are each
    /// device's IMU windows' intervals (UTC seconds).
    public init(
        _ devices: [DeviceTrips], persons: [String: String], calendars: LocalCalendars, imuSpans: [String: [PersonDay.Interval]] = [:],
        parameters: PersonDayParameters = PersonDayParameters()
    ) {
        self.parameters = parameters
        var tracked: [String: [PersonDay.Interval]] = [:], imu: [String: [PersonDay.Interval]] = [:]
        var fixQuarters: [String: [Int: Int]] = [:]
        for device in devices {
            let person = persons[device.device] ?? device.device
            tracked[person, default: []] += device.staypoints.map { .init($0.startSeconds, $0.endSeconds) }
            tracked[person, default: []] += device.triplegs.map { .init($0.startSeconds, $0.endSeconds) }
            imu[person, default: []] += imuSpans[device.device] ?? []
            fixQuarters[person, default: [:]].merge(device.observed.fixesByQuarterHour, uniquingKeysWith: +)
        }
        let withFixes = Set(devices.map(\.device))
        for (device, spans) in imuSpans where !withFixes.contains(device) {
            imu[persons[device] ?? device, default: []] += spans // IMU-only devices: no stay or leg, but IMU
        }
        var days: [PersonDay] = []
        for person in Set(tracked.keys).union(imu.keys).sorted() {
            let calendar = calendars.person(person)
            let union = Self.union(tracked[person] ?? []), imuUnion = Self.union(imu[person] ?? [])
            let bounds = (union + imuUnion).map(\.startSeconds).min().flatMap { first in
                (union + imuUnion).map(\.endSeconds).max().map { (first, $0) }
            }
            guard let (first, last) = bounds else { continue }
            var fixesByDay: [Int: Int] = [:]
            for (quarter, count) in fixQuarters[person] ?? [:] {
                fixesByDay[calendar.dayNumber(Double(quarter) * 900), default: 0] += count
            }
            for day in calendar.dayNumber(first)...calendar.dayNumber(max(first, last - 0.001)) {
                let start = calendar.dayStart(day), end = calendar.dayStart(day + 1)
                let inside = Self.clip(union, start, end)
                var gaps: [PersonDay.Interval] = []
                var cursor = start
                for piece in inside {
                    if piece.startSeconds > cursor { gaps.append(.init(cursor, piece.startSeconds)) }
                    cursor = max(cursor, piece.endSeconds)
                }
                if cursor < end { gaps.append(.init(cursor, end)) }
                let trackedSeconds = inside.reduce(0) { $0 + $1.seconds }
                var zones = [calendar.zone(at: start)]
                for piece in calendar.pieces where piece.startSeconds > start && piece.startSeconds < end && !zones.contains(piece.zone) {
                    zones.append(piece.zone)
                }
                days.append(
                    PersonDay(
                        person: person, day: day, date: CalendarKeys.dateText(day), zone: zones.joined(separator: " then "),
                        startSeconds: start, endSeconds: end, trackedSeconds: trackedSeconds, fixes: fixesByDay[day] ?? 0,
                        imuSeconds: Self.clip(imuUnion, start, end).reduce(0) { $0 + $1.seconds },
                        valid: trackedSeconds >= parameters.minimumCoverage * (end - start), untracked: gaps))
            }
        }
        self.days = days
    }

    /// The intervals merged where they overlap or touch, in time order.
    static func union(_ intervals: [PersonDay.Interval]) -> [PersonDay.Interval] {
        var merged: [PersonDay.Interval] = []
        for interval in intervals.sorted(by: { $0.startSeconds < $1.startSeconds }) where interval.endSeconds > interval.startSeconds {
            if let last = merged.last, interval.startSeconds <= last.endSeconds {
                merged[merged.count - 1].endSeconds = max(last.endSeconds, interval.endSeconds)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// The parts of sorted, disjoint `intervals` within [start, end).
    static func clip(_ intervals: [PersonDay.Interval], _ start: Double, _ end: Double) -> [PersonDay.Interval] {
        intervals.compactMap { interval in
            let from = max(interval.startSeconds, start), to = min(interval.endSeconds, end)
            return to > from ? .init(from, to) : nil
        }
    }

    /// What `--json` says as `coverage`, and the alarm.
    public struct Summary: Hashable, Sendable, Encodable {
        public var personDays = 0, valid = 0
        @NullEncodable public var medianTrackedShare: Double?
        public var minimumCoverage: Double, coverageFloor: Double
        public var belowFloor: Bool

        enum CodingKeys: String, CodingKey {
            case personDays = "person_days", valid, medianTrackedShare = "median_tracked_share", minimumCoverage = "minimum_coverage"
            case coverageFloor = "coverage_floor", belowFloor = "below_floor"
        }

        /// The closing warning when the median falls below the floor.
        public var warning: String? {
            guard belowFloor, let median = medianTrackedShare else { return nil }
            return String(
                format: "coverage: the median person-day was tracked %.0f %% of its length, below the floor of %.0f %% "
                    + "(person_days.csv lists each day; check that the phones still record, or lower --coverage-floor)",
                median * 100, coverageFloor * 100)
        }
    }

    public var summary: Summary {
        Self.summary(shares: days.map(\.trackedShare), valid: days.filter(\.valid).count, parameters: parameters)
    }

    /// The summary of person-days with these tracked shares (a store's, on a run that found
    /// nothing new), `valid` of them valid.
    public static func summary(shares: [Double], valid: Int, parameters: PersonDayParameters) -> Summary {
        let sorted = shares.sorted(), middle = shares.count / 2
        let median = sorted.isEmpty ? nil : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Summary(
            personDays: shares.count, valid: valid, medianTrackedShare: median, minimumCoverage: parameters.minimumCoverage,
            coverageFloor: parameters.coverageFloor, belowFloor: median.map { $0 < parameters.coverageFloor } ?? false)
    }
}
