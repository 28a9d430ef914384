import MobilityCore

/// Everything ingest learned from one input, besides the fixes and waypoints it streamed.
public struct IngestResult: Sendable {
    public var format: InputFormat.Kind
    /// The IMU dialect (`generic`, `phyphox`, `sensor_logger`, `android_event_log` …) or GPX version.
    public var dialect: String?
    /// The phone that recorded it, as the export names it (phyphox `meta/device.csv`), if any.
    public var phoneModel: String?
    /// The user's column mapping the file was read with (`ColumnMappingSpec.text`), if any.
    public var columnMapping: String?
    public var device: String
    /// The device and person with where each name came from (`DeviceResolver.identify`).
    public var identity: RecordingIdentity?
    public var gpx: GPXSummary?
    public var fixesKept = 0
    public var waypointsKept = 0
    public var imuStreams: [IMUStreamSummary] = []
    /// Rows of sensors that are counted but not used, by sensor name.
    public var otherSensors: [String: Int] = [:]
    public var labels: [LabelInterval] = []
    /// The activities the phone itself recognised (a position table's `activity` column), as
    /// intervals with source `activity_recognition`: a motion source's evidence, kept apart from
    /// the labels, which are truth.
    public var activities: [LabelInterval] = []
    public var geofences: [Geofence] = []
    public var checkIns: [CheckIn] = []
    public var dropped = DropCounts()
    public var first: Timestamp?
    public var last: Timestamp?
    /// Data rows or points read, before cleaning.
    public var recordsRead = 0
    /// The line of the first ISO 8601 time written without an offset from UTC, read as UTC
    /// because no `utc_offset` was given; nil when every time said its offset (or none was text).
    public var timeWithoutOffsetLine: Int?

    public init(format: InputFormat.Kind, device: String) {
        self.format = format
        self.device = device
    }

    public var imuSamples: Int { imuStreams.reduce(0) { $0 + $1.samples } }

    mutating func extendSpan(_ time: Timestamp) {
        if first.map({ time < $0 }) ?? true { first = time }
        if last.map({ time > $0 }) ?? true { last = time }
    }
}

extension IngestResult {
    /// What one input gave, in a line: its format, device and counts ("gpx, device bob, 812 fixes").
    public var summaryLine: String {
        var parts = [format.rawValue]
        if format.isDeviceRecording { parts.append("device \(device)") }
        if fixesKept > 0 { parts.append("\(fixesKept) fixes") }
        if waypointsKept > 0 { parts.append("\(waypointsKept) waypoints") }
        if imuSamples > 0 { parts.append("\(imuSamples) IMU samples") }
        if !labels.isEmpty { parts.append("\(labels.count) labels") }
        if !geofences.isEmpty { parts.append("\(geofences.count) geofences") }
        if !checkIns.isEmpty { parts.append("\(checkIns.count) check-ins") }
        if dropped.total > 0 { parts.append("\(dropped.total) dropped") }
        return parts.joined(separator: ", ")
    }
}
