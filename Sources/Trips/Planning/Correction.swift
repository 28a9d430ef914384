import MobilityCore

/// What a person says of an interval of their day (`corrections.csv`): the mode of the legs
/// under it (`LegCorrections`, in Fusion, where every mode is decided) or the purpose of the
/// stay under it (`PlacePurposes.correct`), or that the legs under it were no trip at all
/// (`notATrip`: they take `still` and join no trip, `TripBuilder`). One of the three is set.
public struct Correction: Sendable, Equatable {
    public var device: String?, person: String?
    public var startSeconds: Double, endSeconds: Double
    public var mode: Mode?
    /// The stay's purpose as the person said it, lower case (`home`, `work`, `shopping` …):
    /// `home` and `work` make home- and work-based trips, any other word an activity elsewhere.
    public var purpose: String?
    /// The legs under it were no travel (GPS drift at home, a phone left in a car).
    public var notATrip: Bool
    /// Where it was written: the file's name and line, for notes.
    public var file: String, line: Int

    public init(
        device: String?, person: String?, startSeconds: Double, endSeconds: Double, mode: Mode? = nil, purpose: String? = nil,
        notATrip: Bool = false, file: String, line: Int
    ) {
        self.notATrip = notATrip
        (self.device, self.person, self.startSeconds, self.endSeconds) = (device, person, startSeconds, endSeconds)
        (self.mode, self.purpose, self.file, self.line) = (mode, purpose?.lowercased(), file, line)
    }

    /// Whether it speaks of `device`, whose person is `person`.
    public func covers(device: String, person: String) -> Bool { self.device == device || (self.device == nil && self.person == person) }

    /// Of `corrections`, the one covering more than half of `[start, end)` the most (the earlier
    /// line on a tie), or nil.
    public static func best(_ corrections: [Correction], start: Double, end: Double) -> Correction? {
        let half = max(end - start, 1e-9) / 2
        var best: (correction: Correction, covered: Double)?
        for c in corrections {
            let covered: Double = min(c.endSeconds, end) - max(c.startSeconds, start)
            guard covered > half else { continue }
            if let found = best, found.covered >= covered { continue }
            best = (c, covered)
        }
        return best?.correction
    }
}
