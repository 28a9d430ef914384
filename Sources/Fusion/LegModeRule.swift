import Classify
import MobilityCore

/// How a leg's motion evidence and its GPS leg model's reading make its mode: one rule, used
/// by the trip stage (`LegFusion`, with the IMU windows as the motion source) and by
/// `evaluate` (with whatever motion source a data set carries, such as a phone's own activity
/// labels), so what is scored is what runs.
///
/// 1. The motion source says the family: on foot, bike or vehicle (what an accelerometer tells
///    well on any phone, and what a phone's activity recognition reports). It names no vehicle
///    type: the shipped window model's bus and train were each recorded by one TMD user, so
///    they cannot be shown to hold for anyone else, and its car was said of every tram and bus
///    ride of a 200 Hz logger. Without GPS, its vehicle is `vehicle`, with the reason.
/// 2. A steady pace of walking, running or slow cycling (`LegReading.Pace.isSteady`) is on
///    foot or bike, never a vehicle, whatever the probabilities say.
/// 3. The GPS leg model names the type within the family, when its calibrated best type's
///    share of the vehicle types' probability is above the threshold chosen with its
///    calibration (`LegTypeChoice`) and the leg lies within what it learnt from (fewer than
///    `LegCalibration.outOfRangeFeatures` features outside the training range); otherwise the
///    leg is `vehicle`: the family, with the reason in the note.
/// 4. A source that cannot name a mode never excludes it: a motion source that never learnt
///    bike leaves bike open to the GPS leg model in either family, so its car never overrules
///    a GPS bike.
public struct LegModeRule: Sendable {
    public init() {}

    public static let vehicleTypes = LegTypeChoice.vehicleTypes
    static let slowModes: Set<Mode> = [.walk, .bike]

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
        /// True when the answer is the family only (`vehicle`) for want of a type.
        public var familyOnly: Bool { mode == .vehicle }
    }

    /// The leg's mode from `motion` and the GPS leg model's reading `gps`; nil when the two say
    /// nothing together (no GPS reading, and a motion source that is still or on foot).
    public func decide(motion: Motion, gps: LegReading?) -> Decision? {
        let mode = motion.mode
        guard mode != .still else { return nil }
        let vehicle = Self.vehicleTypes.contains(mode) || mode == .vehicle
        guard let gps else {
            guard vehicle else { return nil }
            return Decision(
                mode: .vehicle, source: motion.source,
                note:
                    "vehicle: \(motion.name) say a vehicle (\(mode.rawValue), \(Self.percent(motion.share)) of their time) and name no type that holds for other people, and no GPS leg model read the leg"
            )
        }
        var family: Set<Mode> = mode == .walk ? [.walk] : mode == .bike ? [.bike] : Self.vehicleTypes
        if !motion.knownModes.contains(.bike) { family.insert(.bike) }
        if gps.pace.isSteady {
            family.subtract(Self.vehicleTypes)
            if family.isEmpty { family = Self.slowModes }
        }
        let inFamily = gps.probabilities.filter { family.contains($0.key) }
        guard let best = inFamily.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        if Self.vehicleTypes.contains(best.key), let reason = withheld(gps, type: best.key) {
            return Decision(mode: .vehicle, source: .imuAndGPSLegModel, note: "vehicle: \(motion.name) say a vehicle, and " + reason)
        }
        return Decision(
            mode: best.key, source: .imuAndGPSLegModel,
            note: gps.pace.isSteady && vehicle ? Self.steadyNote(gps.pace, said: "\(motion.name) say \(mode.rawValue)") : nil)
    }

    /// A leg only GPS covers: the GPS leg model's most likely mode (of walk and bike at a steady
    /// pace), or `vehicle` when that is a vehicle type it cannot name (rule 3). Nil without
    /// probabilities.
    public func decideGPSAlone(_ gps: LegReading) -> Decision? {
        let candidates = gps.pace.isSteady ? gps.probabilities.filter { Self.slowModes.contains($0.key) } : gps.probabilities
        guard let best = candidates.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        if Self.vehicleTypes.contains(best.key), let reason = withheld(gps, type: best.key) {
            return Decision(mode: .vehicle, source: .gpsLegModel, note: "vehicle: the GPS leg model says a vehicle, and " + reason)
        }
        let top = gps.probabilities.max { ($0.value, $1.key) < ($1.value, $0.key) }
        let overruled = gps.pace.isSteady && top.map { Self.vehicleTypes.contains($0.key) } == true
        return Decision(
            mode: best.key, source: .gpsLegModel,
            note: overruled ? Self.steadyNote(gps.pace, said: "the GPS leg model's best mode is \(top!.key.rawValue)") : nil)
    }

    /// Why the type `type` is not named, or nil when it is.
    func withheld(_ gps: LegReading, type: Mode) -> String? {
        if gps.outside.count >= LegCalibration.outOfRangeFeatures {
            return
                "the leg lies outside what the GPS leg model learnt from (\(gps.outside.joined(separator: ", ")) beyond its training legs' 1st–99th percentiles), so its \(type.rawValue) is not named"
        }
        let types = gps.probabilities.filter { Self.vehicleTypes.contains($0.key) }
        let total = types.values.reduce(0, +), share = total > 0 ? (types[type] ?? 0) / total : 0
        guard share <= gps.typeThreshold else { return nil }
        return
            "its best type (\(type.rawValue), \(Self.percent(share)) of the vehicle types' calibrated probability) is under the \(Self.percent(gps.typeThreshold)) a type needs"
    }

    static func steadyNote(_ pace: LegReading.Pace, said: String) -> String {
        String(
            format:
                "on foot or bike: a steady pace (median %.1f m/s, 85th percentile %.1f m/s, 95th %.1f m/s over 30 s chords, %.0f%% of the time slower than walking) that no vehicle keeps; %@",
            pace.medianMps, pace.p85Mps, pace.p95Mps, 100 * pace.slowShare, said)
    }

    static func percent(_ share: Double) -> String { String(format: "%.0f%%", 100 * share) }
}

extension LegModeRule {
    /// The mode `run` gives a leg only GPS covers (`decideGPSAlone`), as the leg evaluations
    /// score it, so what is scored is what runs. (A leg model has two classes or more, so there
    /// is always a decision; `vehicle` only for a leg without probabilities.)
    public static let gpsAloneDecision: LegCrossValidation.LegDecision = { LegModeRule().decideGPSAlone($0)?.mode ?? .vehicle }
}
