/// One three-axis sample of an inertial sensor, in the phone's frame.
///
/// Accelerations are in m/s², angular rates in rad/s (readers convert from g or deg/s).
public struct IMUSample: Hashable, Sendable {
    public var time: Timestamp
    public var x: Double
    public var y: Double
    public var z: Double

    public init(time: Timestamp, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }
}

/// The inertial streams the product uses. Other sensors in a recording are counted, not kept.
public enum IMUSensor: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Acceleration including gravity, m/s².
    case accelerometer
    /// Angular rate, rad/s.
    case gyroscope
    /// Gravity estimate from the phone's sensor fusion, m/s².
    case gravity
    /// Acceleration without gravity, m/s².
    case linearAcceleration = "linear_acceleration"

    public static func < (lhs: IMUSensor, rhs: IMUSensor) -> Bool { lhs.ordinal < rhs.ordinal }

    /// Position in `allCases`, for arrays indexed by sensor.
    public var ordinal: Int {
        switch self {
        case .accelerometer: 0
        case .gyroscope: 1
        case .gravity: 2
        case .linearAcceleration: 3
        }
    }
}
