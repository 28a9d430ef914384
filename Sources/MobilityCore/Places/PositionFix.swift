/// One GPS position with what the receiver said about it.
///
/// Optional values are nil when the input did not carry them (a GPX file without times or
/// elevation is real). Units are in the names. Stored as plain `Double`s with NaN for
/// "absent", which halves the value's size (88 instead of 160 bytes): readers copy millions
/// of fixes through cleaning and into the store, and the copies showed in profiles.
public struct PositionFix: Hashable, Sendable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    private var storedTime: Double
    private var storedElevation: Double
    private var storedAccuracy: Double
    private var storedHDOP: Double
    private var storedPDOP: Double
    private var storedSpeed: Double
    private var storedCourse: Double
    private var storedHeartRate: Double
    private var storedCadence: Double

    /// The fix of a track point (its accuracy when it has one).
    public init(_ point: TrackPoint) {
        self.init(
            time: Timestamp(secondsSince1970: point.timeSeconds), latitudeDegrees: point.latitudeDegrees,
            longitudeDegrees: point.longitudeDegrees, accuracyMeters: point.accuracyMeters.isNaN ? nil : point.accuracyMeters)
    }

    public init(
        time: Timestamp?, latitudeDegrees: Double, longitudeDegrees: Double,
        elevationMeters: Double? = nil, accuracyMeters: Double? = nil, hdop: Double? = nil,
        pdop: Double? = nil, speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil,
        heartRateBpm: Double? = nil, cadenceRpm: Double? = nil
    ) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        storedTime = PositionFix.store(time?.secondsSince1970)
        storedElevation = PositionFix.store(elevationMeters)
        storedAccuracy = PositionFix.store(accuracyMeters)
        storedHDOP = PositionFix.store(hdop)
        storedPDOP = PositionFix.store(pdop)
        storedSpeed = PositionFix.store(speedMetersPerSecond)
        storedCourse = PositionFix.store(courseDegrees)
        storedHeartRate = PositionFix.store(heartRateBpm)
        storedCadence = PositionFix.store(cadenceRpm)
    }

    public var time: Timestamp? {
        get { storedTime.isNaN ? nil : Timestamp(secondsSince1970: storedTime) }
        set { storedTime = PositionFix.store(newValue?.secondsSince1970) }
    }

    public var elevationMeters: Double? {
        get { PositionFix.load(storedElevation) }
        set { storedElevation = PositionFix.store(newValue) }
    }

    /// Horizontal accuracy (1-sigma radius) in metres, as reported or derived from `hdop`.
    public var accuracyMeters: Double? {
        get { PositionFix.load(storedAccuracy) }
        set { storedAccuracy = PositionFix.store(newValue) }
    }

    public var hdop: Double? {
        get { PositionFix.load(storedHDOP) }
        set { storedHDOP = PositionFix.store(newValue) }
    }

    public var pdop: Double? {
        get { PositionFix.load(storedPDOP) }
        set { storedPDOP = PositionFix.store(newValue) }
    }

    public var speedMetersPerSecond: Double? {
        get { PositionFix.load(storedSpeed) }
        set { storedSpeed = PositionFix.store(newValue) }
    }

    /// Course over ground, degrees clockwise from true north.
    public var courseDegrees: Double? {
        get { PositionFix.load(storedCourse) }
        set { storedCourse = PositionFix.store(newValue) }
    }

    public var heartRateBpm: Double? {
        get { PositionFix.load(storedHeartRate) }
        set { storedHeartRate = PositionFix.store(newValue) }
    }

    public var cadenceRpm: Double? {
        get { PositionFix.load(storedCadence) }
        set { storedCadence = PositionFix.store(newValue) }
    }

    /// A NaN read from a file is not a value: it is stored as absent too.
    private static func store(_ value: Double?) -> Double { value ?? .nan }
    private static func load(_ value: Double) -> Double? { value.isNaN ? nil : value }

    /// Equal when every value is equal or absent in both (NaN-as-absent compares equal,
    /// which the synthesised `==` would not do).
    public static func == (lhs: PositionFix, rhs: PositionFix) -> Bool {
        lhs.comparable == rhs.comparable
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(comparable)
    }

    private var comparable: [Double?] {
        [
            latitudeDegrees, longitudeDegrees, time?.secondsSince1970, elevationMeters, accuracyMeters, hdop, pdop,
            speedMetersPerSecond, courseDegrees, heartRateBpm, cadenceRpm
        ]
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

extension Array where Element == PositionFix {
    /// The fixes with a time, in time order (a stable sort): the array itself, not a copy, when
    /// it already is (a device's track is), which spares a device's year of fixes two copies.
    public var timedInOrder: [PositionFix] {
        for index in indices {
            guard let time = self[index].time, index == 0 || !(time < self[index - 1].time!) else {
                return filter { $0.time != nil }.sorted { $0.time! < $1.time! }
            }
        }
        return self
    }
}
