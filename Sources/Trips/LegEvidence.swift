import MobilityCore
import Transit

/// What a tripleg's mode was decided from, kept with the leg (`triplegs.csv`): the IMU
/// windows under it, the GPS leg model's probabilities for its fixes, and its place in a
/// transit feed. Each part is nil when that evidence was not there (no IMU recording, no leg
/// model or too few fixes, no `--transit` feed): missing, never guessed.
public struct LegEvidence: Hashable, Sendable {
    /// Share of the leg's time under windows an IMU model classified, 0–1.
    public var imuShare = 0.0
    /// The mode those windows gave most of the leg's time to.
    public var imuMode: Mode?
    /// The share of the windows' time that `imuMode` holds, 0–1: how sure the IMU is.
    public var imuModeShare = 0.0
    /// The GPS leg model's probability of each of its modes for the leg's fixes.
    public var gpsProbabilities: [Mode: Double]?
    public var transit: TransitMatch?

    public init(imuShare: Double = 0, imuMode: Mode? = nil, imuModeShare: Double = 0, gpsProbabilities: [Mode: Double]? = nil,
                transit: TransitMatch? = nil) {
        self.imuShare = imuShare
        self.imuMode = imuMode
        self.imuModeShare = imuModeShare
        self.gpsProbabilities = gpsProbabilities
        self.transit = transit
    }
}
