/// An instant as seconds since 1970-01-01T00:00:00Z (UTC), with sub-second precision.
///
/// A plain value rather than `Foundation.Date` so readers can build millions of them without
/// bridging, and so the unit is in the name wherever one is read back.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// Seconds from `self` to `later` (negative when `later` is earlier).
    public func seconds(until later: Timestamp) -> Double {
        later.secondsSince1970 - secondsSince1970
    }

    public func adding(seconds: Double) -> Timestamp {
        Timestamp(secondsSince1970: secondsSince1970 + seconds)
    }

    public var description: String { ISO8601.format(self) }
}
