/// The names of the feature columns, in order, with their units in the names. A model file
/// carries the schema it was trained on; features computed with another schema cannot be fed
/// to it.
public enum FeatureSchema {
    /// Bumped whenever a feature's definition changes, even if its name does not.
    /// 2: the gravity-free channel `acc_dyn`, so recordings of linear acceleration alone
    /// (Sensor Logger's `Accelerometer.csv`) have windows and features.
    public static let version = 2

    /// The IMU channels every window is summarised on.
    public enum Channel: String, CaseIterable, Sendable {
        /// |a|, acceleration magnitude including gravity, m/s².
        case accMagnitude = "acc_mag"
        /// a·ĝ, acceleration along gravity (vertical), m/s².
        case accVertical = "acc_vert"
        /// |a − (a·ĝ)ĝ|, magnitude of the horizontal part of acceleration, m/s².
        case accHorizontal = "acc_horiz"
        /// |ω|, angular rate magnitude, rad/s.
        case gyroMagnitude = "gyro_mag"
        /// |a − g|, magnitude of the acceleration without gravity (the body's own motion),
        /// m/s²: the linear-acceleration stream itself, or the accelerometer minus the gravity
        /// stream, or minus the window's mean acceleration (the same low-pass estimate of
        /// gravity the vertical uses). The one acceleration channel that needs no gravity
        /// reference, so recordings of gravity-free acceleration alone still have it.
        case accDynamic = "acc_dyn"

        /// True for the channels that split or include gravity: missing (NaN) for a recording
        /// of gravity-free acceleration without a gravity stream.
        public var needsGravity: Bool { [.accMagnitude, .accVertical, .accHorizontal].contains(self) }

        var unit: String { self == .gyroMagnitude ? "radps" : "mps2" }
    }

    /// Frequency bands whose share of a channel's spectral energy is a feature, Hz
    /// (lower bound inclusive). Chosen around gait (1–3 Hz), its harmonics, and vehicle vibration.
    public static let bandsHz: [(Double, Double)] = [(0, 1), (1, 2), (2, 3), (3, 5), (5, 8), (8, 12), (12, 25)]

    static let momentNames = [
        "mean", "std", "p10_from_mean", "p25_from_mean", "p50_from_mean", "p75_from_mean",
        "p90_from_mean", "range", "rms"
    ]

    /// Per channel: statistics (with the channel's unit), shape, rates and spectral features.
    public static func channelNames(_ channel: Channel) -> [String] {
        let prefix = channel.rawValue
        var names = momentNames.map { "\(prefix)_\($0)_\(channel.unit)" }
        names += ["\(prefix)_skewness", "\(prefix)_kurtosis", "\(prefix)_mean_crossing_rate_hz"]
        names += bandsHz.map { "\(prefix)_band_\(label($0.0))_\(label($0.1))hz_fraction" }
        names += [
            "\(prefix)_dominant_frequency_hz", "\(prefix)_spectral_entropy",
            "\(prefix)_autocorr_peak", "\(prefix)_autocorr_peak_lag_s"
        ]
        return names
    }

    public static let gpsNames = [
        "gps_speed_mean_mps", "gps_speed_p85_mps", "gps_speed_max_mps",
        "gps_accel_abs_mean_mps2", "gps_heading_change_deg_per_s", "gps_accuracy_mean_m"
    ]

    public static let perChannelCount = momentNames.count + 3 + bandsHz.count + 4

    /// Every feature column, IMU channels first, GPS last.
    public static let names: [String] = Channel.allCases.flatMap(channelNames) + gpsNames

    public static func index(of name: String) -> Int? { names.firstIndex(of: name) }

    /// Columns of the channels that need gravity (`Channel.needsGravity`): missing in a window
    /// of gravity-free acceleration alone.
    public static let gravityColumns: [Int] = Channel.allCases.enumerated().filter { $0.element.needsGravity }
        .flatMap { index, _ in (index * perChannelCount)..<((index + 1) * perChannelCount) }

    /// A column every window with acceleration has, with gravity or without: the mean of |a − g|.
    public static let accelerationPresenceColumn = index(of: "acc_dyn_mean_mps2")!
    /// A column only windows with gravity have: the mean of |a|.
    public static let gravityPresenceColumn = index(of: "acc_mag_mean_mps2")!

    /// Columns computed from the phone's motion sensors, as opposed to GPS fixes.
    public static let isInertial: [Bool] = names.map { !$0.hasPrefix("gps_") }

    private static func label(_ hz: Double) -> String {
        hz == hz.rounded() ? String(Int(hz)) : String(hz)
    }
}
