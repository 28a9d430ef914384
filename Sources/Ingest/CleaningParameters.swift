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

    public init() {}

    enum CodingKeys: String, CodingKey {
        // Spelled so that snake_case configuration keys (meters_per_hdop) map back to it.
        case maxAccuracyMeters, metersPerHDOP = "metersPerHdop", maxSpeedMetersPerSecond
    }
}
