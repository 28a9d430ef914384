import Foundation
import MobilityCore

/// The thresholds of GPS cleaning, each stated once with unit, default and source.
public struct CleaningParameters: Hashable, Sendable, Codable {
    /// Fixes whose horizontal accuracy is worse (larger) than this are dropped, metres.
    /// Default 150 m, from the Compiègne mobility app. Valid range: > 0.
    public var maxAccuracyMeters: Double = 150

    /// Metres of horizontal error per unit of HDOP, used when a fix has `hdop` but no accuracy.
    /// Default 5 m: the typical user-equivalent range error of a consumer GNSS receiver, so
    /// HDOP 30 (150 m) is the default cut-off. Valid range: > 0.
    public var metersPerHDOP: Double = 5

    /// A fix implying a speed above this from the previous kept fix is dropped, m/s.
    /// Default 100 m/s (360 km/h), above high-speed trains and below airliners in cruise.
    /// Valid range: > 0.
    public var maxSpeedMetersPerSecond: Double = 100

    /// Fixes and IMU samples dated before this instant are dropped as `implausible_time`,
    /// ISO 8601 (a date alone is midnight UTC). Default 1990-01-01: before any phone or
    /// consumer logger, and after the 1970 and GPS week-rollover dates (1980, 1999 + 1024
    /// weeks earlier) that receivers write before their first fix. Set it earlier for
    /// historical data.
    public var earliestTime = "1990-01-01"

    /// Fixes and IMU samples dated later than the run's clock plus this are dropped as
    /// `implausible_time`, seconds. Default 86,400 s (1 day: any time zone mistake fits).
    /// Valid range: ≥ 0.
    public var maxSecondsAfterClock: Double = 86_400

    public init() {}

    enum CodingKeys: String, CodingKey {
        // Spelled so that snake_case configuration keys (meters_per_hdop) map back to it.
        case maxAccuracyMeters, metersPerHDOP = "metersPerHdop", maxSpeedMetersPerSecond, earliestTime, maxSecondsAfterClock
    }

    /// The times a fix or sample may carry, seconds since 1970, from `earliestTime` to
    /// `clockSeconds + maxSecondsAfterClock`; nil when `earliestTime` is not a date.
    public func plausibleSeconds(clockSeconds: Double = Date().timeIntervalSince1970) -> ClosedRange<Double>? {
        guard let earliest = ISO8601.parse(earliestTime)?.secondsSince1970 else { return nil }
        let latest = clockSeconds + maxSecondsAfterClock
        return earliest <= latest ? earliest...latest : nil
    }

    /// Why these parameters cannot be used, or nil.
    public var problem: String? {
        if !(maxAccuracyMeters > 0) { return "max_accuracy_meters must be greater than 0 (got \(maxAccuracyMeters))" }
        if !(metersPerHDOP > 0) { return "meters_per_hdop must be greater than 0 (got \(metersPerHDOP))" }
        if !(maxSpeedMetersPerSecond > 0) { return "max_speed_meters_per_second must be greater than 0 (got \(maxSpeedMetersPerSecond))" }
        if !(maxSecondsAfterClock >= 0) { return "max_seconds_after_clock must be 0 or more (got \(maxSecondsAfterClock))" }
        if ISO8601.parse(earliestTime) == nil {
            return "earliest_time must be an ISO 8601 date or date-time such as 1990-01-01 (got '\(earliestTime)')"
        }
        if plausibleSeconds() == nil { return "earliest_time \(earliestTime) is later than the run's clock plus max_seconds_after_clock" }
        return nil
    }
}
