import Features
import MobilityCore

/// What a GPS leg model says of one leg, everything the leg's decision needs
/// (`LegModeRule`): calibrated probabilities, the features that lie outside what the model
/// learnt from, whether the leg keeps a steady pace no vehicle keeps, and the type threshold
/// chosen with the calibration.
public struct LegReading: Hashable, Sendable {
    public var probabilities: [Mode: Double]
    /// Names of the leg's features outside the training legs' 1st–99th percentiles.
    public var outside: [String]
    public var pace: Pace
    /// The best vehicle type's share of the vehicle types' probability at or below which the
    /// leg is `vehicle` (`LegCalibration.typeThreshold`).
    public var typeThreshold: Double

    /// An uncalibrated model's threshold: the type is named when it is more likely than the
    /// other types together.
    public static let uncalibratedThreshold = 0.5

    public init(probabilities: [Mode: Double], outside: [String] = [], pace: Pace = Pace(), typeThreshold: Double = uncalibratedThreshold) {
        (self.probabilities, self.outside, self.pace, self.typeThreshold) = (probabilities, outside, pace, typeThreshold)
    }

    /// A leg's chord speeds (`LegFeatures`, over 30 s chords or longer, so the same at 1 s and
    /// 60 s between fixes), and whether they make a steady pace of running or slow cycling.
    public struct Pace: Hashable, Sendable {
        public var medianMps = Double.nan
        public var p85Mps = Double.nan
        public var p95Mps = Double.nan
        public var slowShare = Double.nan

        public init() {}

        public init(_ row: ArraySlice<Double>) {
            let names = LegFeatures.names
            func value(_ name: String) -> Double { row[row.startIndex + names.firstIndex(of: name)!] }
            (medianMps, p85Mps, p95Mps, slowShare) = (
                value("leg_speed_p50_mps"), value("leg_speed_p85_mps"), value("leg_speed_p95_mps"), value("leg_slow_share")
            )
        }

        /// The band of a steady run or slow ride, m/s: 2.5 m/s (9 km/h) is above the fastest
        /// walk of most adults (Bohannon 1997, table 1: 1.75–2.53 m/s) and a jog's lower end;
        /// 4.5 m/s (16 km/h) is a fit runner's or an unhurried cyclist's cruising speed.
        public static let steadyBandMps = 2.5...4.5
        /// Share of the leg's time below walking pace a steady leg may have (a crossing, a
        /// light): a tenth. A bus or tram in a street this slow stops at every stop.
        public static let steadySlowShare = 0.1

        /// The fastest walking pace, m/s: adults' fastest walking speed reaches 2.53 m/s
        /// (Bohannon 1997, table 1), the lower end of `steadyBandMps`.
        public static let walkingPaceMps = 2.5

        /// True when the leg is rarely slower than walking and keeps a pace no motorised vehicle
        /// keeps for a whole leg (in traffic it stops and starts; free, it is faster): either a
        /// run or slow ride (the median and the 95th percentile of the chord speeds in
        /// `steadyBandMps`), or a walk (the median and the 85th percentile at or under
        /// `walkingPaceMps`; the fastest sixth may be faster, as a leg's last minute is when the
        /// diary or the stop detector puts its end a little late).
        public var isSteady: Bool {
            guard slowShare <= Self.steadySlowShare else { return false }
            return Self.steadyBandMps.contains(medianMps) && Self.steadyBandMps.contains(p95Mps)
                || (medianMps <= Self.walkingPaceMps && p85Mps <= Self.walkingPaceMps)
        }
    }
}
