import Classify
import MobilityCore

/// How a leg's motion evidence and its GPS leg model's probabilities make its mode: one rule,
/// used by the trip stage (`LegFusion`, with the IMU windows as the motion source) and by
/// `evaluate` (with whatever motion source a data set carries, such as a phone's own activity
/// labels), so what is scored is what runs.
///
/// 1. The motion source says the family: on foot, bike or vehicle (what an accelerometer tells
///    well on any phone, and what a phone's activity recognition reports).
/// 2. A vehicle type the motion source itself names, for `confidentMotionShare` of its time or
///    more, stands: the GPS leg model learnt from one person in one region and never overrules
///    it.
/// 3. Otherwise the GPS leg model names the type within the family, when its best type is more
///    likely than the family's other types together (`confidentTypeShare` of the family's
///    probability, 0.5); when it is not, the leg is `vehicle`: an honest coarse answer, with
///    the reason.
/// 4. An IMU model that never learnt bike leaves bike open to the GPS leg model in either family.
///
/// The thresholds are stated from what they mean (a clear majority; more likely than not), not
/// fitted: the data with both sources (TMD, Helsinki, the phyphox rides) is for scoring.
public struct LegModeRule: Sendable {
    /// Share of the motion source's time its vehicle type needs to stand, 0–1. Default 0.6.
    public var confidentMotionShare = 0.6
    /// Share of the family's GPS probability the best type needs, 0–1. Default 0.5.
    public var confidentTypeShare = 0.5

    public init() {}

    public static let vehicleTypes: Set<Mode> = [.car, .bus, .train]

    /// What the motion source said of a leg: the mode with most of its time (`vehicle` for a
    /// source that only knows that), that mode's share, and the modes the source can name.
    public struct Motion: Sendable {
        public var mode: Mode
        public var share: Double
        public var knownModes: Set<Mode>
        public var source: Decider
        /// What the notes call it ("the IMU windows", "the phone's activity labels").
        public var name: String

        public init(mode: Mode, share: Double, knownModes: Set<Mode>, source: Decider, name: String = "the IMU windows") {
            (self.mode, self.share, self.knownModes, self.source, self.name) = (mode, share, knownModes, source, name)
        }
    }

    public struct Decision: Equatable, Sendable {
        public var mode: Mode
        public var source: Decider
        /// Why, when the answer is coarse or one source overruled another.
        public var note: String?
    }

    /// The leg's mode from `motion` and the GPS leg model's probabilities `gps`; nil when the
    /// two say nothing together (no GPS probabilities, and a motion source that is still or
    /// cannot name the family).
    public func decide(motion: Motion, gps: [Mode: Double]?) -> Decision? {
        let mode = motion.mode
        guard mode != .still else { return nil }
        if Self.vehicleTypes.contains(mode), motion.knownModes.contains(mode), motion.share >= confidentMotionShare {
            let overruled = gps.flatMap { p in p.max { ($0.value, $1.key) < ($1.value, $0.key) } }.flatMap {
                $0.key != mode && Self.vehicleTypes.contains($0.key) ? $0 : nil
            }
            return Decision(
                mode: mode, source: motion.source,
                note: overruled.map {
                    String(
                        format: "%@ say %@ (%.0f%% of their time), which stands against the GPS leg model's %@ (p %.2f)",
                        motion.name, mode.rawValue, 100 * motion.share, $0.key.rawValue, $0.value)
                })
        }
        guard let gps else {
            guard Self.vehicleTypes.contains(mode), motion.knownModes.contains(mode) else { return nil }
            return Decision(
                mode: .vehicle, source: motion.source,
                note: String(
                    format: "vehicle: %@ say %@ for %.0f%% of their time, under the %.0f%% a type needs, and no GPS leg model read the leg",
                    motion.name, mode.rawValue, 100 * motion.share, 100 * confidentMotionShare))
        }
        var family: Set<Mode> = mode == .walk ? [.walk] : mode == .bike ? [.bike] : Self.vehicleTypes
        if !motion.knownModes.contains(.bike) { family.insert(.bike) }
        let inFamily = gps.filter { family.contains($0.key) }
        guard let best = inFamily.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        if Self.vehicleTypes.contains(best.key) {
            let types = inFamily.filter { Self.vehicleTypes.contains($0.key) }.values.reduce(0, +)
            let share = types > 0 ? best.value / types : 0
            if share <= confidentTypeShare {
                return Decision(
                    mode: .vehicle, source: .imuAndGPSLegModel,
                    note: String(
                        format:
                            "vehicle: %@ say a vehicle, and the GPS leg model's best type (%@, %.0f%% of the vehicle types' probability) is not more likely than the others together",
                        motion.name, best.key.rawValue, 100 * share))
            }
        }
        return Decision(mode: best.key, source: .imuAndGPSLegModel, note: nil)
    }

    /// A leg only GPS covers: the GPS leg model's most likely mode, or `vehicle` when that is a
    /// vehicle type no more likely than the other vehicle types together (the same
    /// `confidentTypeShare` as rule 3). Nil without probabilities.
    public func decideGPSAlone(_ gps: [Mode: Double]) -> Decision? {
        guard let best = gps.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        let types = gps.filter { Self.vehicleTypes.contains($0.key) }.values.reduce(0, +)
        if Self.vehicleTypes.contains(best.key), types > 0, best.value / types <= confidentTypeShare {
            return Decision(
                mode: .vehicle, source: .gpsLegModel,
                note: String(
                    format:
                        "vehicle: the GPS leg model's modes say a vehicle, and the GPS leg model's best type (%@, %.0f%% of the vehicle types' probability) is not more likely than the others together",
                    best.key.rawValue, 100 * best.value / types))
        }
        return Decision(mode: best.key, source: .gpsLegModel, note: nil)
    }
}

extension LegModeRule {
    /// The mode `run` gives a leg only GPS covers (`decideGPSAlone`), as the leg evaluations
    /// score it, so what is scored is what runs. (A leg model has two classes or more, so there
    /// is always a decision; `vehicle` only for a leg without probabilities.)
    public static let gpsAloneDecision: LegCrossValidation.LegDecision = { LegModeRule().decideGPSAlone($0)?.mode ?? .vehicle }
}
