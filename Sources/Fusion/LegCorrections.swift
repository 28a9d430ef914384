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
/// by speeds no ground mode reaches, `FlightsAndJumps`) are left as they are.
public struct LegCorrections: Sendable {
    public struct Correction: Sendable, Equatable {
        public var device: String?, person: String?
        public var startSeconds: Double, endSeconds: Double
        public var mode: Mode
        /// Where it was written: the file's name and line, for the note.
        public var file: String, line: Int

        public init(device: String?, person: String?, startSeconds: Double, endSeconds: Double, mode: Mode, file: String, line: Int) {
            (self.device, self.person, self.startSeconds, self.endSeconds) = (device, person, startSeconds, endSeconds)
            (self.mode, self.file, self.line) = (mode, file, line)
        }
    }

    public var corrections: [Correction]

    public init(_ corrections: [Correction] = []) { self.corrections = corrections }

    public var isEmpty: Bool { corrections.isEmpty }

    /// Corrects `legs` of `device`, whose person is `person`; returns how many it changed.
    @discardableResult
    public func apply(device: String, person: String, legs: inout [Tripleg]) -> Int {
        let mine = corrections.filter { $0.device == device || ($0.device == nil && $0.person == person) }
        guard !mine.isEmpty else { return 0 }
        var changed = 0
        for index in legs.indices {
            let leg = legs[index]
            guard leg.modeSource != .plausibility else { continue } // a flight or a jump is the speeds' answer
            let half = max(leg.endSeconds - leg.startSeconds, 1e-9) / 2
            var best: (correction: Correction, covered: Double)?
            for c in mine {
                let covered: Double = min(c.endSeconds, leg.endSeconds) - max(c.startSeconds, leg.startSeconds)
                guard covered > half else { continue }
                if let found = best, found.covered >= covered { continue } // the earlier line on a tie
                best = (c, covered)
            }
            guard let correction = best?.correction else { continue }
            let before = leg.mode.map(\.rawValue) ?? unknownModeName
            legs[index].mode = correction.mode
            legs[index].modeSource = .correction
            legs[index].modeNote = "\(correction.file) line \(correction.line) says \(correction.mode.rawValue) (inferred: \(before))"
            changed += 1
        }
        return changed
    }
}
