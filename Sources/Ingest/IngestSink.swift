import MobilityCore

/// Where ingest writes the records that can be many (fixes and waypoints), as they stream.
/// The store implements it inside the file's transaction; `inspect` implements it by counting.
public protocol IngestSink: AnyObject {
    func write(fix: PositionFix, at position: FixPosition) throws
    func write(waypoint: Waypoint, line: Int) throws
}

/// A sink that keeps nothing (for `inspect` and benchmarks of parsing alone).
public final class DiscardingSink: IngestSink {
    public private(set) var fixes = 0
    public private(set) var waypoints = 0

    public init() {}

    public func write(fix: PositionFix, at position: FixPosition) throws { fixes += 1 }
    public func write(waypoint: Waypoint, line: Int) throws { waypoints += 1 }
}
