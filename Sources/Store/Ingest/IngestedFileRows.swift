import MobilityCore

/// What the store keeps of one ingested file besides its fixes and waypoints (which stream in
/// through `IngestSink`): its format and counts, sensor streams, labels, geofences, check-ins
/// and dropped records. Plain values: the ingest stage maps its result to them (PipelineRunner),
/// so the store needs none of its types.
public struct IngestedFileRows: Sendable {
    /// What a GPX file held, as read.
    public struct GPXCounts: Sendable {
        public var tracks = 0, segments = 0, trackPoints = 0, routes = 0, routePoints = 0, waypoints = 0
        public init() {}
    }

    public var format: String
    public var dialect: String?
    /// The device, for files that are a device's recording (not labels, geofences, check-ins).
    public var device: String?
    /// The person who carried the device, and where the device's and person's names came from.
    public var person: String?, deviceSource: String?, personSource: String?
    /// The IANA zone the manifest gives the device's local time (`timezone`), if any.
    public var timeZone: String?
    public var recordsRead = 0, fixes = 0, waypoints = 0
    public var firstSeconds: Double?, lastSeconds: Double?
    public var gpx: GPXCounts?
    /// The user's column mapping the file was read with (`ColumnMappingSpec.text`), if any.
    public var columnMapping: String?
    public var imuStreams: [IMUStreamSummary] = []
    /// Rows of sensors the pipeline does not use, by sensor name.
    public var otherSensors: [String: Int] = [:]
    public var labels: [LabelInterval] = []
    public var geofences: [Geofence] = []
    public var checkIns: [CheckIn] = []
    public var dropped = DropCounts()

    public init(format: String) { self.format = format }

    var imuSamples: Int { imuStreams.reduce(0) { $0 + $1.samples } }
}
