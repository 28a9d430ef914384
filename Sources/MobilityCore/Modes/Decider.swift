/// Who decided a window's or a leg's mode, as every output names it (`modes.csv` `source`,
/// `triplegs.csv` `mode_source`, the run's `legs_by_mode_source`). The raw values are those
/// names, so files and stores written before this type stay readable.
public enum Decider: String, Hashable, Sendable, CaseIterable, Codable {
    /// An IMU window model, on windows with gravity.
    case model
    /// An IMU window model, on gravity-free windows (a phone's linear acceleration only).
    case modelGravityFree = "model (gravity-free)"
    /// The rules baseline on a window (speed and step frequency, no training).
    case rules
    /// The GPS speed rules on a leg that only GPS covers (no leg model, or too few fixes for it).
    case gpsRules = "gps_rules"
    /// The GPS leg model on a whole leg's fixes.
    case gpsLegModel = "gps_leg_model"
    /// The IMU windows said the family (on foot, vehicle), the GPS leg model the mode within it.
    case imuAndGPSLegModel = "imu+gps_leg_model"
    /// A transit feed's stops and corridors.
    case transit
    /// The speeds no ground mode reaches (`TravelSpeeds`): a flight is `airplane`, and a jump no
    /// mode reaches is a leg without a mode.
    case plausibility
    /// trackintel's speed rule (15 and 100 km/h), the baseline beside the leg model in `evaluate`.
    case trackintel
    /// A person's own correction (`corrections.csv`, `LegCorrections`): it overrides every
    /// inferred mode of the legs it covers.
    case correction

    /// Whether an IMU window model decided (with or without gravity).
    public var isIMUModel: Bool { self == .model || self == .modelGravityFree }
}
