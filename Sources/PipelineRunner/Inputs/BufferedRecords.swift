import MobilityCore

/// Keeps the fixes and waypoints a file streams while it is read ahead of the store, and hands
/// them on, in order, inside the file's transaction (`IngestRun`). IMU samples are kept only
/// when `recording` is given (the store keeps only their streams' summaries, which the result
/// carries): then every fix and sample also goes into it, so a later stage gets the recording
/// from this one read.
final class BufferedRecords: IngestSink, @unchecked Sendable {
    // Written by the one thread reading the file, read after it has finished.
    private var records: [IngestRecord] = []
    private(set) var recording: RecordingSink?

    init(recording: RecordingSink? = nil) { self.recording = recording }

    /// Lets the recording's samples go (once it has been handed over); the fixes stay for the store.
    func dropRecording() { recording = nil }

    func write(fix: PositionFix, at position: FixPosition) throws {
        records.append(.fix(fix, position))
        try recording?.write(fix: fix, at: position)
    }

    func write(waypoint: Waypoint, line: Int) throws { records.append(.waypoint(waypoint, line)) }

    func write(sample: IMUSample, sensor: IMUSensor) throws { try recording?.write(sample: sample, sensor: sensor) }

    func replay(into sink: IngestSink) throws {
        for record in records { try record.write(into: sink) }
    }
}
