import Foundation
import MobilityCore

/// The bands of the local day that planning tables are cut by: by default the morning peak
/// (`am_peak`, 07:00–10:00), the evening peak (`pm_peak`, 16:00–19:00) and the rest of the day
/// (`off_peak`), as a transport model's time periods are (the UK's TAG unit M1.2 §2.3 and most
/// regional models use a 3 h morning and evening peak and an inter-peak/off-peak rest).
///
/// A trip or leg falls in the band of its **departure**, read on the local clock of the person
/// who made it (`CalendarKeys.secondsOfDay`), so a 07:30 departure is `am_peak` in summer and
/// winter alike. Bands are half-open, `[start, end)`; one may wrap midnight (`night 22:00-05:00`).
/// Where two bands overlap the first listed wins; time in no band is `other`.
public struct TimeBands: Hashable, Sendable {
    public struct Band: Hashable, Sendable {
        public var name: String
        /// Local clock, seconds since midnight.
        public var startSeconds: Double, endSeconds: Double

        public func contains(secondsOfDay t: Double) -> Bool {
            startSeconds <= endSeconds ? (startSeconds..<endSeconds).contains(t) : t >= startSeconds || t < endSeconds
        }
    }

    public var bands: [Band]
    /// The name of the time in no band.
    public var other: String

    /// The name every table gives its row over the whole day, beside the bands.
    public static let allDay = "all_day"

    /// The defaults: `am_peak 07:00-10:00`, `pm_peak 16:00-19:00`, the rest `off_peak`.
    public static let defaultSpecifications = ["am_peak 07:00-10:00", "pm_peak 16:00-19:00"]
    public static let defaultOther = "off_peak"

    public init() { try! self.init(specifications: Self.defaultSpecifications, other: Self.defaultOther) }

    /// Bands from their texts, each `name HH:MM-HH:MM`; throws with the text and what was expected.
    public init(specifications: [String], other: String) throws {
        bands = try specifications.map(Self.band)
        self.other = other
        let names = bands.map(\.name) + [other]
        guard !other.isEmpty, Set(names).count == names.count, !names.contains(Self.allDay) else {
            throw PipelineError(
                .invalidConfiguration,
                "time band names must be distinct, non-empty and not \(Self.allDay) (got \(names.joined(separator: ", ")))")
        }
    }

    /// The band names in table order: the listed bands, then `other`.
    public var names: [String] { bands.map(\.name) + [other] }

    /// The band of local clock time `secondsOfDay`.
    public func name(secondsOfDay: Double) -> String {
        bands.first { $0.contains(secondsOfDay: secondsOfDay) }?.name ?? other
    }

    /// The band of a departure at UTC `seconds` on `calendar`'s clock.
    public func name(startSeconds seconds: Double, calendar: CalendarKeys) -> String {
        name(secondsOfDay: calendar.secondsOfDay(seconds))
    }

    /// The bands as their texts, for the configuration.
    public var specifications: [String] { bands.map { "\($0.name) \(Self.clock($0.startSeconds))-\(Self.clock($0.endSeconds))" } }

    static func band(_ text: String) throws -> Band {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let times = parts.count == 2 ? parts[1].split(separator: "-") : []
        guard parts.count == 2, times.count == 2, let start = seconds(times[0]), let end = seconds(times[1]), start != end else {
            throw PipelineError(
                .invalidConfiguration,
                "time band \"\(text)\" should read `name HH:MM-HH:MM` (local clock, start before end or across midnight)")
        }
        return Band(name: String(parts[0]), startSeconds: start, endSeconds: end)
    }

    static func seconds(_ text: Substring) -> Double? {
        let pieces = text.split(separator: ":")
        guard pieces.count == 2, let hours = Int(pieces[0]), let minutes = Int(pieces[1]), (0...24).contains(hours),
            (0..<60).contains(minutes),
            hours * 60 + minutes <= 24 * 60
        else { return nil }
        return Double(hours * 3600 + minutes * 60)
    }

    static func clock(_ seconds: Double) -> String { String(format: "%02d:%02d", Int(seconds) / 3600, Int(seconds) % 3600 / 60) }
}
