import Features
import MobilityCore

/// trackintel's tripleg mode rule, the baseline printed beside every GPS leg evaluation:
/// `predict_transport_mode(method="simple-coarse")` cuts the leg's average speed (length over
/// duration) at 15 km/h and 100 km/h into slow, motorised and fast mobility (trackintel
/// `analysis/transport_mode_identification.py`, default `categories`; intervals closed on the
/// left, so exactly 15 km/h is motorised).
///
/// To be scored against modes, slow reads as walk, motorised as car and fast as train (the
/// modes trackintel's documentation gives as examples of each class). `coarse` is the fairer
/// comparison: slow (walk, bike) against motorised (everything else), where trackintel's rule
/// is not asked to tell modes it does not name.
public enum TrackintelBaseline {
    public static let slowBelowMps = 15 / 3.6
    public static let motorisedBelowMps = 100 / 3.6
    private static let speedColumn = LegFeatures.names.firstIndex(of: "leg_speed_mps")!

    public static func mode(averageSpeedMps speed: Double) -> Mode {
        speed < slowBelowMps ? .walk : speed < motorisedBelowMps ? .car : .train
    }

    public static func predict(_ table: LegTable) -> [Mode] {
        (0..<table.count).map { mode(averageSpeedMps: table.values[$0 * LegTable.columns + speedColumn]) }
    }

    /// A mode reduced to the two classes of `coarse` scores: `.walk` stands for slow (walk,
    /// bike), `.car` for motorised (car, bus, train).
    public static func coarse(_ mode: Mode) -> Mode {
        mode == .walk || mode == .bike ? .walk : mode == .still ? .still : .car
    }
}
