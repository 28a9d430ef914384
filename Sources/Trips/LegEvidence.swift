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

    public init(
        imuShare: Double = 0, imuMode: Mode? = nil, imuModeShare: Double = 0, gpsProbabilities: [Mode: Double]? = nil,
        transit: TransitMatch? = nil
    ) {
        self.imuShare = imuShare
        self.imuMode = imuMode
        self.imuModeShare = imuModeShare
        self.gpsProbabilities = gpsProbabilities
        self.transit = transit
    }

    /// What the IMU windows say on their own, where they speak for the leg: their mode when they
    /// cover half its time or more and it is a moving one (a `still` leg between staypoints is the
    /// windows missing the ride, not an answer to compare). Nil otherwise.
    public var imuAnswer: Mode? {
        guard imuShare >= 0.5, let imuMode, imuMode != .still else { return nil }
        return imuMode
    }

    /// What the GPS leg model says on its own: its most likely mode (ties to the earlier mode
    /// name), nil where it did not read the leg.
    public var gpsLegModelAnswer: Mode? {
        gpsProbabilities?.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key
    }
}
