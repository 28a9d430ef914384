import MobilityCore

/// What a phyphox sensor file holds, by its name. phyphox names each file after its sensor, and
/// the iPhone app's headers (`"Time (s)","X (m/s^2)",…`) say nothing else, so the name decides
/// the stream there: `Accelerometer.csv` (acceleration with gravity), `Linear Accelerometer.csv`
/// or `Linear Acceleration.csv` (without), `Gyroscope.csv`, `Gravity.csv`. A magnetometer file
/// is recognised and counted, not kept (no stage uses it).
public enum PhyphoxSensor: Hashable, Sendable {
    case stream(IMUSensor)
    case magnetometer

    /// Nil for a name that is not a motion sensor's (`Location.csv`, `Proximity.csv`, `Light.csv` …).
    public init?(fileName: String) {
        let stem = String(SensorLogger.stem(fileName).unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") })
        switch stem {
        case "accelerometer", "acceleration", "accelerationwithg", "rawaccelerometer", "totalacceleration": self = .stream(.accelerometer)
        case "linearaccelerometer", "linearacceleration", "accelerationwithoutg", "useracceleration": self = .stream(.linearAcceleration)
        case "gyroscope", "gyro", "rotationrate": self = .stream(.gyroscope)
        case "gravity": self = .stream(.gravity)
        case "magnetometer", "magneticfield", "magnetic": self = .magnetometer
        default: return nil
        }
    }

    /// True when `header` is a phyphox magnetometer table (`"Magnetic field x (µT)"` or bare
    /// axes in µT).
    static func isMagnetometerHeader(_ header: [String]) -> Bool {
        let lower = header.map { $0.lowercased() }
        return lower.contains { $0.hasPrefix("time (") }
            && lower.contains { $0.hasPrefix("magnetic field x") || ($0.hasPrefix("x (") && $0.contains("t)")) }
    }
}
