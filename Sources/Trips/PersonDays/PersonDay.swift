import Foundation
import MobilityCore

/// Settings of person-days (coverage, places' purposes), with their defaults.
public struct PersonDayParameters: Hashable, Sendable, Codable {
    /// A person-day is valid from this tracked share of its length on (0–1): planning tables
    /// count valid days only. 0.6 as in the issue that asked for it; surveys of GPS panels use
    /// 0.5–0.8 (say which in a publication).
    public var minimumCoverage = 0.6
    /// The nightly alarm for phones that stopped recording, 0–1: a run whose median person-day
    /// coverage falls below this share of its panel's usual median (that of its earlier runs in
    /// the store, `PersonDays.Summary`) ends with a warning. 0.5: the phones recorded half as much
    /// as on their usual nights.
    public var coverageFloor = 0.5
    /// How home and work are found where no geofence names them (`PlacePurposes`).
    public var purposeMethod = PlacePurposes.Method.osna
    /// The hours of a study's day on the local clock, `HH:MM-HH:MM` (a one-day study from 09:00
    /// to 16:00): a person-day's coverage is then that of these hours, not of the whole day. Nil:
    /// the whole day.
    public var window: String? = nil

    public init() {}

    enum CodingKeys: String, CodingKey { case minimumCoverage, coverageFloor, purposeMethod, window }

    /// The window's first and last instant, local seconds since midnight; nil without one or
    /// when it does not read as `HH:MM-HH:MM` with its start before its end (`problem` says).
    public var studyWindow: (start: Double, end: Double)? {
        guard let window else { return nil }
        let times = window.split(separator: "-")
        guard times.count == 2, let start = TimeBands.seconds(times[0]), let end = TimeBands.seconds(times[1]), start < end else {
            return nil
        }
        return (start, end)
    }

    /// A key a stored configuration of an earlier version lacks takes its default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minimumCoverage = try container.decodeIfPresent(Double.self, forKey: .minimumCoverage) ?? minimumCoverage
        coverageFloor = try container.decodeIfPresent(Double.self, forKey: .coverageFloor) ?? coverageFloor
        purposeMethod = try container.decodeIfPresent(PlacePurposes.Method.self, forKey: .purposeMethod) ?? purposeMethod
        window = try container.decodeIfPresent(String.self, forKey: .window)
    }

    /// Every key, `window` as null when there is none (the configuration's keys are its defaults').
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minimumCoverage, forKey: .minimumCoverage)
        try container.encode(coverageFloor, forKey: .coverageFloor)
        try container.encode(purposeMethod, forKey: .purposeMethod)
        try container.encode(window, forKey: .window)
    }

    /// Why the settings cannot be used, or nil.
    public var problem: String? {
        guard (0...1).contains(minimumCoverage), (0...1).contains(coverageFloor) else {
            return "minimum_coverage and coverage_floor are shares of a day and must lie within 0–1"
        }
        if let window, studyWindow == nil {
            return "window \"\(window)\" should read HH:MM-HH:MM (the local clock's hours of a study's day, start before end)"
        }
        return nil
    }
}

/// One person's local calendar day: how much of it was tracked, and when it was not.
///
/// Tracked time is the union of the person's staypoints (stays across recording gaps included)
/// and triplegs (over all their devices), as trackintel's `temporal_tracking_quality` counts it,
/// cut at local midnights in the person's zone. Unlike trackintel, whose day is always 86,400 s,
/// a day is as long as the clock makes it: 82,800 s when daylight saving starts, 90,000 s when it
/// ends. With a study window (`PersonDayParameters.window`) the day is its hours on that date.
///
/// A date between a person's first and last without a fix or an IMU window is no person-day of
/// the panel: nobody recorded it (a GeoLife user's 221 days hold 10 recorded ones), so it is
/// counted apart (`PersonDays.daysNotRecorded`), not as a day without travel.
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
    /// Dates between a person's first and last recorded day without a fix or an IMU window
    /// (summed over persons): not person-days.
    public var daysNotRecorded = 0

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
                let (dayStart, dayEnd) = (calendar.dayStart(day), calendar.dayStart(day + 1))
                let imuSeconds = Self.clip(imuUnion, dayStart, dayEnd).reduce(0) { $0 + $1.seconds }
                guard (fixesByDay[day] ?? 0) > 0 || imuSeconds > 0 else {
                    daysNotRecorded += 1
                    continue
                }
                let (start, end) =
                    parameters.studyWindow.map { (Self.instant(day, $0.start, calendar), Self.instant(day, $0.end, calendar)) }
                    ?? (dayStart, dayEnd)
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
                        imuSeconds: imuSeconds,
                        valid: trackedSeconds >= parameters.minimumCoverage * (end - start), untracked: gaps))
            }
        }
        self.days = days
    }

    /// The UTC instant of local clock time `seconds` after midnight on local date `day`; where
    /// the clock skips it (daylight saving starts), the instant the same time after midnight
    /// by the day's first offset.
    static func instant(_ day: Int, _ seconds: Double, _ calendar: CalendarKeys) -> Double {
        let local = Double(day) * 86_400 + seconds
        var guess = local - calendar.offsetSeconds(at: calendar.dayStart(day))
        for _ in 0..<2 { guess = local - calendar.offsetSeconds(at: guess) }
        return guess
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
    ///
    /// The alarm compares a panel with its own earlier nights: a real panel's phones may never
    /// cover most of a day (a survey app that records only trips), so a fixed share would sound
    /// every night. With `PersonDays.minimumEarlierRuns` or more earlier runs in the store, it
    /// sounds when this run's median coverage falls below `coverage_floor` times the median of
    /// their medians (the last `PersonDays.earlierRunsCompared`); with fewer, there is no alarm,
    /// only the figure.
    public struct Summary: Hashable, Sendable, Codable {
        public var personDays = 0, valid = 0
        /// Dates without a fix or an IMU window between a person's first and last: no person-days.
        public var daysNotRecorded = 0
        /// The study window's hours (`person_days.window`), or nil for whole days.
        @NullEncodable public var window: String?
        @NullEncodable public var medianTrackedShare: Double?
        public var minimumCoverage: Double, coverageFloor: Double
        /// The earlier runs compared with, and the median of their medians (nil with none).
        public var earlierRuns = 0
        @NullEncodable public var usualMedianTrackedShare: Double?
        public var belowFloor: Bool

        enum CodingKeys: String, CodingKey {
            case personDays = "person_days", valid, medianTrackedShare = "median_tracked_share", minimumCoverage = "minimum_coverage"
            case coverageFloor = "coverage_floor", belowFloor = "below_floor", daysNotRecorded = "days_not_recorded", window
            case earlierRuns = "earlier_runs", usualMedianTrackedShare = "usual_median_tracked_share", noValidDay = "no_valid_day"
        }

        /// One sentence when person-days exist and none is valid: every planning table that counts
        /// valid days only is empty, and what changes it. Nil otherwise.
        public var noValidDay: String? {
            guard personDays > 0, valid == 0 else { return nil }
            return String(format: "No person-day was tracked %.0f %% of its ", minimumCoverage * 100)
                + (window.map { "study window (\($0))" } ?? "day") + " (person_days.minimum_coverage)" + Self.noValidDayConsequence
        }

        /// What a run without a valid person-day lacks, and the options that change it: the end
        /// of `noValidDay`'s sentence and of the report's (`PlanningSample.noValidDay`).
        public static let noValidDayConsequence =
            ", so mode_shares.csv, co2e.csv and od_zones.csv count no trip: a study of fixed hours gives them with "
            + "--study-window HH:MM-HH:MM, or a lower --min-coverage accepts days tracked less."

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(personDays, forKey: .personDays)
            try container.encode(valid, forKey: .valid)
            try container.encode(daysNotRecorded, forKey: .daysNotRecorded)
            try container.encode(_window, forKey: .window)
            try container.encode(_medianTrackedShare, forKey: .medianTrackedShare)
            try container.encode(minimumCoverage, forKey: .minimumCoverage)
            try container.encode(coverageFloor, forKey: .coverageFloor)
            try container.encode(earlierRuns, forKey: .earlierRuns)
            try container.encode(_usualMedianTrackedShare, forKey: .usualMedianTrackedShare)
            try container.encode(belowFloor, forKey: .belowFloor)
            try container.encode(NullEncodable(wrappedValue: noValidDay), forKey: .noValidDay)
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            personDays = try container.decode(Int.self, forKey: .personDays)
            valid = try container.decode(Int.self, forKey: .valid)
            daysNotRecorded = try container.decodeIfPresent(Int.self, forKey: .daysNotRecorded) ?? 0
            window = try container.decodeIfPresent(String.self, forKey: .window)
            medianTrackedShare = try container.decodeIfPresent(Double.self, forKey: .medianTrackedShare)
            minimumCoverage = try container.decode(Double.self, forKey: .minimumCoverage)
            coverageFloor = try container.decode(Double.self, forKey: .coverageFloor)
            earlierRuns = try container.decodeIfPresent(Int.self, forKey: .earlierRuns) ?? 0
            usualMedianTrackedShare = try container.decodeIfPresent(Double.self, forKey: .usualMedianTrackedShare)
            belowFloor = try container.decode(Bool.self, forKey: .belowFloor)
        }

        init(
            personDays: Int, valid: Int, daysNotRecorded: Int, window: String?, medianTrackedShare: Double?,
            parameters: PersonDayParameters,
            earlierMedians: [Double]
        ) {
            (self.personDays, self.valid, self.daysNotRecorded, self.window) = (personDays, valid, daysNotRecorded, window)
            self.medianTrackedShare = medianTrackedShare
            (minimumCoverage, coverageFloor) = (parameters.minimumCoverage, parameters.coverageFloor)
            let compared = Array(earlierMedians.suffix(PersonDays.earlierRunsCompared))
            let usual = PersonDays.median(compared)
            (earlierRuns, usualMedianTrackedShare) = (compared.count, usual)
            if compared.count >= PersonDays.minimumEarlierRuns, let median = medianTrackedShare, let usual {
                belowFloor = median < parameters.coverageFloor * usual
            } else {
                belowFloor = false
            }
        }

        /// The closing warning when the alarm sounds.
        public var warning: String? {
            guard belowFloor, let median = medianTrackedShare, let usual = usualMedianTrackedShare else { return nil }
            return String(
                format: "coverage: the median person-day was tracked %.0f %% of its length, below %.0f %% of the panel's usual %.0f %% "
                    + "(the median of its last %d runs in the store; person_days.csv lists each day; check that the phones still "
                    + "record, or lower --coverage-floor)",
                median * 100, coverageFloor * 100, usual * 100, earlierRuns)
        }
    }

    /// Earlier runs the alarm needs before it compares (a week of nightly runs), and the most it reads.
    public static let minimumEarlierRuns = 7, earlierRunsCompared = 28

    /// This run's summary; `earlierMedians`: the median coverage of each earlier run of the store, oldest first.
    public func summary(earlierMedians: [Double] = []) -> Summary {
        Self.summary(
            shares: days.map(\.trackedShare), valid: days.filter(\.valid).count, daysNotRecorded: daysNotRecorded, parameters: parameters,
            earlierMedians: earlierMedians)
    }

    /// The summary of person-days with these tracked shares (a store's, on a run that found
    /// nothing new), `valid` of them valid.
    public static func summary(
        shares: [Double], valid: Int, daysNotRecorded: Int = 0, parameters: PersonDayParameters, earlierMedians: [Double] = []
    ) -> Summary {
        Summary(
            personDays: shares.count, valid: valid, daysNotRecorded: daysNotRecorded, window: parameters.window,
            medianTrackedShare: median(shares), parameters: parameters, earlierMedians: earlierMedians)
    }

    static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted(), middle = values.count / 2
        return sorted.isEmpty ? nil : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
