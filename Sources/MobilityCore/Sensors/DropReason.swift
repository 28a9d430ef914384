/// Why a single record was dropped. Every drop is counted under one of these; none is silent.
public enum DropReason: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Latitude outside [-90, 90] or longitude outside [-180, 180].
    case invalidCoordinate = "invalid_coordinate"
    /// A value that should be a finite number is NaN or infinite.
    case notANumber = "not_a_number"
    /// Earlier than the previous kept record of the same stream.
    case timeBackwards = "time_backwards"
    /// Same time as the previous kept record of the same stream.
    case duplicateTime = "duplicate_time"
    /// Horizontal accuracy worse than the cleaning threshold.
    case accuracyTooLow = "accuracy_too_low"
    /// The implied speed from the previous kept fix exceeds the cleaning threshold.
    case speedJump = "speed_jump"
    /// A row whose fields could not be read (too few columns, text where a number belongs).
    case malformedRow = "malformed_row"
    /// A time that could not be parsed.
    case invalidTime = "invalid_time"
    /// A time outside the plausible range (before `CleaningParameters.earliestTime`, or later
    /// than the run's clock plus `maxSecondsAfterClock`): a receiver's 1970 or week-rollover
    /// date, a relative time read as absolute, a corrupt year.
    case implausibleTime = "implausible_time"
    /// A label or check-in rating outside its allowed values.
    case valueOutOfRange = "value_out_of_range"

    public static func < (lhs: DropReason, rhs: DropReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Counts of dropped records by reason, with the first line where each reason was seen.
public struct DropCounts: Hashable, Sendable {
    public private(set) var counts: [DropReason: Int] = [:]
    public private(set) var firstLine: [DropReason: Int] = [:]

    public init() {}

    public mutating func record(_ reason: DropReason, line: Int) {
        counts[reason, default: 0] += 1
        if firstLine[reason] == nil { firstLine[reason] = line }
    }

    public mutating func merge(_ other: DropCounts) {
        for (reason, count) in other.counts {
            counts[reason, default: 0] += count
            if let line = other.firstLine[reason], firstLine[reason] == nil { firstLine[reason] = line }
        }
    }

    public var total: Int { counts.values.reduce(0, +) }
}
