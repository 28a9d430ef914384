import MobilityCore

/// Keeps the fixes and waypoints a file streams while it is read ahead of the store, and hands
/// them on, in order, inside the file's transaction (`IngestRun`). IMU samples are not kept:
/// the store keeps only their streams' summaries, which the result carries.
final class BufferedRecords: IngestSink, @unchecked Sendable {
    // Written by the one thread reading the file, read after it has finished.
    private var records: [IngestRecord] = []

    func write(fix: PositionFix, at position: FixPosition) throws { records.append(.fix(fix, position)) }
    func write(waypoint: Waypoint, line: Int) throws { records.append(.waypoint(waypoint, line)) }

    func replay(into sink: IngestSink) throws {
        for record in records { try record.write(into: sink) }
    }
}
