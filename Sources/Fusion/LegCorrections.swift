import MobilityCore
import Trips

/// What the people who made the legs said of them (`corrections.csv`): a leg a person knows
/// was a bus is a bus, whatever the evidence said. Applied after every other decision of its
/// device's legs (`LegFusion.apply`), so trips, modal splits and every table after follow, on
/// every run: a correction lives in its file, not in the store, and survives `--force`, a
/// moved input and another model.
///
/// A correction names a device or a person, an interval and a mode. A leg of that device (or
/// of any device of that person) lies under it when the interval covers more than half of the
/// leg's time; the leg then takes its mode, `mode_source` `correction` and a note naming the
/// file and line. A leg under two corrections takes the one covering more of it (the earlier
/// line on a tie). A leg nothing could name takes the correction too; flights and jumps (decided
/// by speeds no ground mode reaches, `FlightsAndJumps`) are left as they are. A leg under a
/// "not a trip" row (`Correction.notATrip`) takes `still` and joins no trip (`TripBuilder`), so
/// the OD tables, modal splits and planning tables no longer count it.
public struct LegCorrections: Sendable {
    /// A row of the file (`Correction`, in Trips); only those with a mode correct legs.
    public typealias Correction = Trips.Correction

    public var corrections: [Correction]

    public init(_ corrections: [Correction] = []) { self.corrections = corrections }

    public var isEmpty: Bool { corrections.isEmpty }

    /// Corrects `legs` of `device`, whose person is `person`; returns how many it changed.
    @discardableResult
    public func apply(device: String, person: String, legs: inout [Tripleg]) -> Int {
        let mine = corrections.filter { ($0.mode != nil || $0.notATrip) && $0.covers(device: device, person: person) }
        guard !mine.isEmpty else { return 0 }
        var changed = 0
        for index in legs.indices {
            let leg = legs[index]
            guard leg.modeSource != .plausibility else { continue } // a flight or a jump is the speeds' answer
            guard let correction = Correction.best(mine, start: leg.startSeconds, end: leg.endSeconds) else { continue }
            let before = leg.mode.map(\.rawValue) ?? unknownModeName
            guard let mode = correction.mode else {
                legs[index].mode = .still
                legs[index].modeSource = .correction
                legs[index].notATrip = true
                legs[index].modeNote = "\(correction.file) line \(correction.line) says not a trip (inferred: \(before))"
                changed += 1
                continue
            }
            legs[index].mode = mode
            legs[index].modeSource = .correction
            legs[index].modeNote = "\(correction.file) line \(correction.line) says \(mode.rawValue) (inferred: \(before))"
            changed += 1
        }
        return changed
    }
}
