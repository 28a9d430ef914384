/// Where ingest writes the records that can be many (fixes and waypoints), as they stream.
/// The store implements it inside the file's transaction; `inspect` implements it by counting.
public protocol IngestSink: AnyObject {
    func write(fix: PositionFix, at position: FixPosition) throws
    func write(waypoint: Waypoint, line: Int) throws
    /// An IMU sample that passed the time-order check, in its stream's order. The store keeps
    /// only per-stream summaries, so its sink ignores samples; the feature stage collects them.
    func write(sample: IMUSample, sensor: IMUSensor) throws
}

extension IngestSink {
    public func write(sample: IMUSample, sensor: IMUSensor) throws {}
}

/// A sink that keeps nothing (for `inspect` and benchmarks of parsing alone).
public final class DiscardingSink: IngestSink {
    public private(set) var fixes = 0
    public private(set) var waypoints = 0

    public init() {}

    public func write(fix: PositionFix, at position: FixPosition) throws { fixes += 1 }
    public func write(waypoint: Waypoint, line: Int) throws { waypoints += 1 }
}

/// One record a reader streamed, kept to be written later: by the store's thread while
/// another reads (`ParallelIngest`), or after a file was read ahead of the store.
public enum IngestRecord: Sendable {
    case fix(PositionFix, FixPosition)
    case waypoint(Waypoint, Int)

    /// Writes the record into `sink` as the reader wrote it.
    @inlinable
    public func write(into sink: IngestSink) throws {
        switch self {
        case .fix(let fix, let position): try sink.write(fix: fix, at: position)
        case .waypoint(let waypoint, let line): try sink.write(waypoint: waypoint, line: line)
        }
    }
}
