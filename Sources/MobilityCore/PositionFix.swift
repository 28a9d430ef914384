/// One GPS position with what the receiver said about it.
///
/// Optional fields are nil when the input did not carry them (a GPX file without times or
/// elevation is real). Units are in the names.
public struct PositionFix: Hashable, Sendable {
    public var time: Timestamp?
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var elevationMeters: Double?
    /// Horizontal accuracy (1-sigma radius) in metres, as reported or derived from `hdop`.
    public var accuracyMeters: Double?
    public var hdop: Double?
    public var pdop: Double?
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees clockwise from true north.
    public var courseDegrees: Double?
    public var heartRateBpm: Double?
    public var cadenceRpm: Double?

    public init(
        time: Timestamp?, latitudeDegrees: Double, longitudeDegrees: Double,
        elevationMeters: Double? = nil, accuracyMeters: Double? = nil, hdop: Double? = nil,
        pdop: Double? = nil, speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil,
        heartRateBpm: Double? = nil, cadenceRpm: Double? = nil
    ) {
        self.time = time
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.accuracyMeters = accuracyMeters
        self.hdop = hdop
        self.pdop = pdop
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.heartRateBpm = heartRateBpm
        self.cadenceRpm = cadenceRpm
    }
}

/// Where a fix sits in its file: GPX track and segment (0-based), and its 1-based source line.
public struct FixPosition: Hashable, Sendable {
    public var track: Int
    public var segment: Int
    public var line: Int

    public init(track: Int, segment: Int, line: Int) {
        self.track = track
        self.segment = segment
        self.line = line
    }
}
