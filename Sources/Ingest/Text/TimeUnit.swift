import MobilityCore

/// How a time column is written.
public enum TimeUnit: String, Hashable, Sendable, CaseIterable {
    case seconds = "s"
    case milliseconds = "ms"
    case microseconds = "us"
    case nanoseconds = "ns"
    /// ISO 8601 text, e.g. `2024-05-01T08:00:00.020Z`.
    case iso8601

    var secondsPerUnit: Double {
        switch self {
        case .seconds, .iso8601: 1
        case .milliseconds: 1e-3
        case .microseconds: 1e-6
        case .nanoseconds: 1e-9
        }
    }

    /// The unit a column name states (`time_ms`, `Time (s)`, `timestamp_ns`), if any.
    static func stated(inColumnName name: String) -> TimeUnit? {
        let lower = name.lowercased()
        for unit in [TimeUnit.nanoseconds, .microseconds, .milliseconds, .seconds] {
            let suffix = unit.rawValue
            if lower.hasSuffix("_" + suffix) || lower.hasSuffix("(" + suffix + ")") || lower.hasSuffix("[" + suffix + "]") {
                return unit
            }
        }
        return nil
    }

    /// The unit of an absolute Unix time guessed from its magnitude: anything after 1973 in
    /// nanoseconds exceeds 1e17, in microseconds 1e14, in milliseconds 1e11. Smaller values
    /// are seconds (relative times since the recording's start included).
    static func guessed(fromValue value: Double) -> TimeUnit {
        let magnitude = abs(value)
        if magnitude > 1e17 { return .nanoseconds }
        if magnitude > 1e14 { return .microseconds }
        if magnitude > 1e11 { return .milliseconds }
        return .seconds
    }
}
