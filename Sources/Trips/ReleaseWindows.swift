import Foundation
import MobilityCore

/// Releases on fixed calendar windows: the defence against differencing nightly tables.
///
/// A k-anonymous table published every night can be subtracted from the night before: a cell
/// that gained one person's trips gives that person away, whatever k each table met. Here the
/// trip tables are published per calendar window (a day, an ISO week, a month, in the local
/// calendar) once, when the window has closed, and never again:
///
/// - A window closes by the data's time, not the clock: when the latest trip in the store ends
///   `graceSeconds` or more after the window's end (late uploads of the window have had that
///   long to arrive).
/// - Each trip is in one release at most. A trip of a window already released (data that came
///   late) goes to the first window after it that is not released yet; a trip already released
///   (kept by its device and start, `ReleasedTrip`) is never released again.
/// - A release is final: its files are written once and never rewritten, so two releases share
///   no trip, and subtracting one from another subtracts tables of disjoint data, each
///   k-anonymous on its own.
///
/// What it does not defend: a person's trips in one window are still counted in that window's
/// cells (k persons per row, as in every published table), and a window of few persons
/// publishes little. Heat maps and comfort summaries are not released per window yet.
public enum ReleaseWindows {
    public enum Period: String, Sendable, Codable, CaseIterable {
        case day, week, month
    }

    public struct Window: Hashable, Sendable, Comparable {
        /// `2024-05-06` (day), `2024-W19` (ISO week), `2024-05` (month).
        public var id: String
        /// Its first and first-after instants, seconds since 1970 UTC.
        public var startSeconds: Double, endSeconds: Double

        public static func < (a: Window, b: Window) -> Bool { a.startSeconds < b.startSeconds }
    }

    /// A trip already released: its device and start (the store's trip ids change when trips are
    /// rebuilt; a trip's device and start do not while its data stays).
    public struct ReleasedTrip: Hashable, Sendable {
        public var device: String, startSeconds: Double
        public init(device: String, startSeconds: Double) { (self.device, self.startSeconds) = (device, startSeconds) }
    }

    /// The window of `period` holding `seconds`, in `calendar`'s local time.
    public static func window(containing seconds: Double, period: Period, calendar: CalendarKeys) -> Window {
        let day = calendar.dayNumber(seconds)
        func instant(_ day: Int) -> Double { calendar.dayStart(day) }
        switch period {
        case .day:
            return Window(id: dateText(day), startSeconds: instant(day), endSeconds: instant(day + 1))
        case .week:
            let monday = day - calendar.weekday(seconds)
            let thursday = monday + 3 // ISO 8601: a week belongs to the year of its Thursday
            let year = ISO8601.civil(fromDays: thursday).year
            let week = (thursday - ISO8601.days(year: year, month: 1, day: 1)) / 7 + 1
            return Window(id: String(format: "%04d-W%02d", year, week), startSeconds: instant(monday), endSeconds: instant(monday + 7))
        case .month:
            let (year, month, _) = ISO8601.civil(fromDays: day)
            let next = month == 12 ? ISO8601.days(year: year + 1, month: 1, day: 1) : ISO8601.days(year: year, month: month + 1, day: 1)
            return Window(
                id: String(format: "%04d-%02d", year, month), startSeconds: instant(ISO8601.days(year: year, month: month, day: 1)),
                endSeconds: instant(next))
        }
    }

    /// What to release now: each window that has closed and is not released yet, with the trips
    /// (indices into `trips`) it holds. `trips` are the store's, each with its device and start;
    /// `released` the windows already published; `latestSeconds` the end of the latest trip.
    public static func due(
        trips: [ReleasedTrip], releasedTrips: Set<ReleasedTrip>, releasedWindows: Set<String>, latestSeconds: Double,
        graceSeconds: Double, period: Period, calendar: CalendarKeys
    ) -> [(window: Window, trips: [Int])] {
        var byWindow: [Window: [Int]] = [:]
        for (index, trip) in trips.enumerated() where !releasedTrips.contains(trip) {
            var window = window(containing: trip.startSeconds, period: period, calendar: calendar)
            while releasedWindows.contains(window.id) { // late data: the next window not released
                window = Self.window(containing: window.endSeconds, period: period, calendar: calendar)
            }
            byWindow[window, default: []].append(index)
        }
        // Windows that closed with no trip left to release are released empty, so that each
        // closed window is final whatever comes later; between the first trip's and the last.
        if let first = trips.map(\.startSeconds).min() {
            var window = window(containing: first, period: period, calendar: calendar)
            while window.endSeconds + graceSeconds <= latestSeconds {
                if !releasedWindows.contains(window.id), byWindow[window] == nil { byWindow[window] = [] }
                window = Self.window(containing: window.endSeconds, period: period, calendar: calendar)
            }
        }
        return byWindow.filter { $0.key.endSeconds + graceSeconds <= latestSeconds }
            .map { (window: $0.key, trips: $0.value) }.sorted { $0.window < $1.window }
    }

    static func dateText(_ day: Int) -> String {
        let (y, m, d) = ISO8601.civil(fromDays: day)
        return String(format: "%04d-%02d-%02d", y, m, d)
    }
}

extension ReleaseWindows {
    /// A release's README.txt: which trips it holds, that it says no total, and that it is final.
    public static func readme(_ window: Window, minimumPersons k: Int, calendar: CalendarKeys) -> String {
        """
        Release \(window.id): the trips that started from \(ISO8601.format(Timestamp(secondsSince1970: window.startSeconds))) \
        to before \(ISO8601.format(Timestamp(secondsSince1970: window.endSeconds))) (local calendar, \(calendar.name)), \
        and trips of earlier windows that arrived after those were released. It says no total: a window's trips and \
        persons, one person's alone in a quiet window, are held to k like every published number (the store keeps them).
        The heat maps count the fixes of these trips only (a fix of no trip, at home say, is in no release), so no fix is in two releases.
        Every row counts k = \(k) distinct persons or more (docs/privacy.md). This release is final: the pipeline never writes \
        it again, and no trip in it is in any other release.

        """
    }

    /// The fixes of `points` (in time order) that lie within one of `spans` (trips' start and
    /// end, sorted by start): a fix belongs to the last trip starting at or before it when that
    /// trip has not ended yet. A release's heat maps count these only.
    public static func within(_ spans: [(Double, Double)], _ points: [TrackPoint]) -> [TrackPoint] {
        points.filter { point in
            var low = 0, high = spans.count
            while low < high { let mid = (low + high) / 2; if spans[mid].0 <= point.timeSeconds { low = mid + 1 } else { high = mid } }
            return low > 0 && point.timeSeconds <= spans[low - 1].1
        }
    }
}
