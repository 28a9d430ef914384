import MobilityCore

/// Where the values of a delimited IMU table are: the one description every table dialect
/// (generic, labelled research, phyphox, Sensor Logger, a user's explicit mapping) reduces to.
public struct ColumnMapping: Hashable, Sendable {
    /// One sensor's three axis columns (0-based) and the factor that converts them to SI
    /// (m/s² or rad/s).
    public struct Stream: Hashable, Sendable {
        public var sensor: IMUSensor
        public var columns: [Int]
        public var toSI: Double

        public init(sensor: IMUSensor, columns: [Int], toSI: Double = 1) {
            self.sensor = sensor
            self.columns = columns
            self.toSI = toSI
        }
    }

    public var dialect: String
    public var delimiter: UInt8 = 0x2C
    /// Lines before the first data row (0 for a file without a header).
    public var headerLines = 1
    public var timeColumn: Int?
    /// A column holding the time since the previous row (loggers that write `x y z dt`), in
    /// `timeUnit`; the first row is at `timeOffsetSeconds` plus its own interval.
    public var intervalColumn: Int?
    /// The time (or interval) column's unit; nil to guess a time's from the first value's magnitude.
    public var timeUnit: TimeUnit?
    /// Added to every time, seconds since 1970 (for times relative to a known start).
    public var timeOffsetSeconds: Double = 0
    /// Sample rate for files without a time column, Hz.
    public var fixedRateHz: Double?
    public var streams: [Stream] = []
    public var labelColumn: Int?
    /// What the label column's codes mean (`labels=`): code → a mode name; codes not here stay as written.
    public var labelNames: [String: String] = [:]
    /// The column names the header held (empty without a header).
    public var header: [String] = []
    /// The offset of ISO 8601 times written without one, seconds (`utc_offset=`; 0 is UTC).
    public var defaultUTCOffsetSeconds: Double = 0
    /// Whether `utc_offset=` was given: a time without an offset is then in it, not read as UTC by default.
    public var offsetGiven = false
    /// Maps times relative to an experiment's start to absolute times (phyphox `meta/time.csv`);
    /// applied instead of `timeOffsetSeconds` when set.
    public var clock: ExperimentClock?
    /// The user's mapping (`ColumnMappingSpec.text`) this came from; nil for a recognised dialect.
    public var spec: String?

    public init(dialect: String) {
        self.dialect = dialect
    }

    /// The number of fields a data row needs.
    var minimumFields: Int {
        ([timeColumn ?? 0, intervalColumn ?? 0, labelColumn ?? 0] + streams.flatMap(\.columns)).max()! + 1
    }
}

/// Standard gravity, m/s² (for data in g).
public let standardGravity = 9.80665
