import MobilityCore

/// Receives what an IMU reader finds, row by row, as it streams.
public protocol IMUVisitor: AnyObject {
    func sample(_ sample: IMUSample, sensor: IMUSensor, line: Int) throws
    /// A row of a sensor the product does not use (magnetometer, light, sound …): counted only.
    func otherSensor(_ name: String, line: Int)
    /// A run of consecutive rows with the same per-sample label, from its first to its last
    /// row's time; `line` is the run's first line.
    func labelRun(_ name: String, start: Timestamp, end: Timestamp, line: Int)
    /// A GPS fix recorded beside the IMU streams (Sensor Logger's `Location.csv`).
    func fix(_ fix: PositionFix, line: Int) throws
    /// A row that was dropped; `sensor` names the stream it belonged to, when known.
    func rejectedRow(_ reason: DropReason, line: Int, sensor: IMUSensor?)
    /// A run of consecutive fixes with the same activity the phone itself recognised (Android's
    /// activity recognition: `IN_VEHICLE`, `ON_BICYCLE`, `WALKING`, `STILL` …): evidence of a
    /// motion source, never a truth label.
    func activityRun(_ name: String, start: Timestamp, end: Timestamp, line: Int)
    /// The first ISO 8601 time of the file written without an offset from UTC, when no
    /// `utc_offset` was given: read as UTC, which local times are not.
    func timeWithoutOffset(line: Int)
}

extension IMUVisitor {
    /// Readers' visitors that keep no activities ignore them.
    public func activityRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {}
    /// Said once per file, at the first ISO 8601 time written without an offset from UTC when
    /// no `utc_offset` was given (read as UTC): visitors that report nothing ignore it.
    public func timeWithoutOffset(line: Int) {}
}
