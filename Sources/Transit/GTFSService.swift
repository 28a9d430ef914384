import Foundation
import MobilityCore

/// Who runs a feed and on which days: its agencies (`agency.txt`) and its services' calendars
/// (`calendar.txt`, `calendar_dates.txt`), as the GTFS Schedule Reference defines them.
///
/// - `agency.txt`: `agency_name` and `agency_timezone` (an IANA zone, required: every time of
///   `stop_times.txt` is in it, counted from noon minus 12 h of the service day).
/// - `calendar.txt`: per `service_id`, the weekdays it runs (`monday` … `sunday`, 1 or 0) from
///   `start_date` to `end_date`, both included (`YYYYMMDD`).
/// - `calendar_dates.txt`: per `service_id` and `date`, `exception_type` 1 (service added that
///   day) or 2 (removed). A feed may use either file or both ("conditionally required").
///
/// Days are local service dates, counted as days since 1970-01-01 (`CalendarKeys.dayNumber`).
public struct GTFSService: Sendable, Hashable {
    public struct Agency: Sendable, Hashable {
        public var id: String
        public var name: String
        /// `agency_timezone`, as the feed gives it.
        public var timeZone: String
    }

    /// One `service_id`'s days.
    public struct Calendar: Sendable, Hashable {
        /// Monday first, as `calendar.txt`'s columns and `CalendarKeys.weekday` (0 = Monday).
        public var weekdays: [Bool] = Array(repeating: false, count: 7)
        /// `start_date`…`end_date`; nil when the service is only in `calendar_dates.txt`.
        public var days: ClosedRange<Int>?
        public var added: Set<Int> = []
        public var removed: Set<Int> = []

        /// Whether the service runs on `day`.
        public func runs(on day: Int) -> Bool {
            if added.contains(day) { return true }
            if removed.contains(day) { return false }
            guard let days, days.contains(day) else { return false }
            return weekdays[((day % 7) + 7 + 3) % 7] // 1970-01-01 was a Thursday (weekday 3)
        }
    }

    public var agencies: [Agency] = []
    public var calendars: [String: Calendar] = [:]

    public init() {}

    /// Whether the feed has calendars at all: without them it gives stops and lines, no timetable.
    public var hasCalendars: Bool { !calendars.isEmpty }

    /// The first and last day any service runs (calendar ranges and added dates), or nil.
    public var serviceDays: ClosedRange<Int>? {
        var low = Int.max, high = Int.min
        for calendar in calendars.values {
            if let days = calendar.days, calendar.weekdays.contains(true) {
                (low, high) = (min(low, days.lowerBound), max(high, days.upperBound))
            }
            for day in calendar.added { (low, high) = (min(low, day), max(high, day)) }
        }
        return low <= high ? low...high : nil
    }

    /// The zone the feed's times are in: the first agency's `agency_timezone` (GTFS requires
    /// every agency of a feed to give the same one).
    public var timeZone: String? { agencies.first?.timeZone }

    /// Reads `agency.txt`, `calendar.txt` and `calendar_dates.txt` from `folder`; the calendar
    /// files may be absent. A date that is not `YYYYMMDD` is an error naming the file and line.
    static func load(folder: String, shownAs: String) throws -> GTFSService {
        var service = GTFSService()
        func file(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        func shown(_ name: String) -> String { (shownAs as NSString).appendingPathComponent(name) }
        if FileManager.default.fileExists(atPath: file("agency.txt")) {
            try GTFSFeed.Table.read(file("agency.txt"), shownAs: shown("agency.txt"), required: ["agency_name"]) { row in
                service.agencies.append(
                    Agency(id: row.string("agency_id"), name: row.string("agency_name"), timeZone: row.string("agency_timezone")))
            }
        }
        if FileManager.default.fileExists(atPath: file("calendar.txt")) {
            let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            try GTFSFeed.Table.read(
                file("calendar.txt"), shownAs: shown("calendar.txt"), required: ["service_id", "start_date", "end_date"] + names
            ) { row in
                let start = try row.date("start_date"), end = try row.date("end_date")
                guard start <= end else {
                    throw PipelineError(
                        .invalidTransitFeed, path: row.path, line: row.number, reason: "end_date is before start_date")
                }
                var calendar = service.calendars[row.string("service_id")] ?? Calendar()
                calendar.weekdays = names.map { row.int($0) == 1 }
                calendar.days = start...end
                service.calendars[row.string("service_id")] = calendar
            }
        }
        if FileManager.default.fileExists(atPath: file("calendar_dates.txt")) {
            try GTFSFeed.Table.read(
                file("calendar_dates.txt"), shownAs: shown("calendar_dates.txt"), required: ["service_id", "date", "exception_type"]
            ) { row in
                let day = try row.date("date")
                var calendar = service.calendars[row.string("service_id")] ?? Calendar()
                switch row.int("exception_type") {
                case 1: calendar.added.insert(day)
                case 2: calendar.removed.insert(day)
                default:
                    throw PipelineError(
                        .invalidTransitFeed, path: row.path, line: row.number,
                        reason: "exception_type must be 1 (service added) or 2 (removed); it is \"\(row.string("exception_type"))\"")
                }
                service.calendars[row.string("service_id")] = calendar
            }
        }
        return service
    }
}

extension GTFSFeed.Table {
    /// A `YYYYMMDD` field as a day number (days since 1970-01-01), or an error naming the file and line.
    func date(_ name: String) throws -> Int {
        let text = string(name)
        let digits = text.utf8.map { Int($0) - 48 }
        guard digits.count == 8, digits.allSatisfy({ (0...9).contains($0) }) else {
            throw PipelineError(.invalidTransitFeed, path: path, line: number, reason: "\(name) \"\(text)\" is not a date YYYYMMDD")
        }
        let year = digits[0..<4].reduce(0) { $0 * 10 + $1 }, month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7]
        guard (1...12).contains(month), (1...31).contains(day) else {
            throw PipelineError(.invalidTransitFeed, path: path, line: number, reason: "\(name) \"\(text)\" is not a date YYYYMMDD")
        }
        return ISO8601.days(year: year, month: month, day: day)
    }
}
