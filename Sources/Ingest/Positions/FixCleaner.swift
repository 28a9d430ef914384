import MobilityCore

/// Validates and cleans the GPS fixes of one segment as they stream.
///
/// Drops, each counted under its `DropReason`: coordinates out of range or not finite; times
/// outside the plausible range (`implausible_time`, see `CleaningParameters.earliestTime`); times
/// earlier than (`time_backwards`) or equal to (`duplicate_time`) the previous kept fix; an
/// accuracy worse than `maxAccuracyMeters` (derived from HDOP when only that is given); and
/// implied-speed spikes (`speed_jump`).
///
/// A spike is a fix that implies more than `maxSpeedMetersPerSecond` both from the previous
/// kept fix and to the next fix. So a fix that breaks the speed limit is held back until the
/// next one arrives: if the next fix continues from it (a real relocation, say after a
/// tunnel), it is kept; if the next fix continues from the previous kept one, or from
/// neither, it is dropped. This avoids the failure of a plain speed filter, which after one
/// real jump drops every later fix. A held fix at the end of a segment has no successor to
/// confirm it and is dropped. A fix that breaks the limit and whose successor carries on the
/// same way (the three fixes in a line, at most `sustainedSpeedCapMetersPerSecond` overall)
/// is kept too: that is a flight at 170 m/s, not a spike, whose out-and-back the next fix
/// would show.
///
/// - Complexity: O(1) time and memory per fix (one fix of look-ahead); the file is never
///   sorted in memory, so out-of-order fixes are dropped and counted, not reordered.
public struct FixCleaner {
    public typealias Emit = (PositionFix, FixPosition) throws -> Void

    public let parameters: CleaningParameters
    public private(set) var dropped = DropCounts()
    /// `parameters.plausibleSeconds()`, fixed when the cleaner is made.
    private let plausibleSeconds: ClosedRange<Double>
    private var previous: PositionFix?
    private var held: (fix: PositionFix, position: FixPosition)?

    public init(parameters: CleaningParameters = CleaningParameters()) {
        precondition(parameters.problem == nil, parameters.problem ?? "")
        self.parameters = parameters
        plausibleSeconds = parameters.plausibleSeconds() ?? -Double.infinity...Double.infinity
    }

    /// Ends the current segment (flushing a held fix); order and speed checks do not cross
    /// segment boundaries.
    public mutating func endSegment() {
        if let held { dropped.record(.speedJump, line: held.position.line) }
        held = nil
        previous = nil
    }

    /// Judges `input`; calls `emit` for each fix that is kept (none, one, or a held one and this).
    public mutating func clean(_ input: PositionFix, at position: FixPosition, emit: Emit) rethrows {
        var fix = input
        if fix.accuracyMeters == nil, let hdop = fix.hdop { fix.accuracyMeters = hdop * parameters.metersPerHDOP }
        if let reason = invalidity(of: fix) ?? orderProblem(fix, after: held?.fix ?? previous) {
            return dropped.record(reason, line: position.line)
        }
        if let candidate = held {
            held = nil
            if !isSpeeding(from: candidate.fix, to: fix) || carriesOn(from: previous, through: candidate.fix, to: fix) {
                try keep(candidate.fix, candidate.position, emit) // the jump was real, or the journey is fast
            } else {
                dropped.record(.speedJump, line: candidate.position.line)
            }
        }
        if let previous, isSpeeding(from: previous, to: fix) {
            held = (fix, position)
            return
        }
        try keep(fix, position, emit)
    }

    public mutating func recordDrop(_ reason: DropReason, line: Int) {
        dropped.record(reason, line: line)
    }

    private mutating func keep(_ fix: PositionFix, _ position: FixPosition, _ emit: Emit) rethrows {
        previous = fix
        try emit(fix, position)
    }

    /// Checks a point outside any trajectory (a waypoint or route point): its coordinates
    /// only. A rejected point is counted; returns whether it is kept.
    public mutating func acceptsPlace(_ fix: PositionFix, line: Int) -> Bool {
        guard let reason = coordinateProblem(of: fix) else { return true }
        dropped.record(reason, line: line)
        return false
    }

    private func coordinateProblem(of fix: PositionFix) -> DropReason? {
        guard fix.latitudeDegrees.isFinite, fix.longitudeDegrees.isFinite,
            fix.time.map({ $0.secondsSince1970.isFinite }) ?? true
        else { return .notANumber }
        guard abs(fix.latitudeDegrees) <= 90, abs(fix.longitudeDegrees) <= 180 else { return .invalidCoordinate }
        return nil
    }

    /// A time outside `plausibleSeconds` is judged before the order checks, so a single stray
    /// date is dropped by itself and never becomes the "previous" fix that its good
    /// neighbours would then be measured against.
    private func invalidity(of fix: PositionFix) -> DropReason? {
        if let problem = coordinateProblem(of: fix) { return problem }
        if let time = fix.time, !plausibleSeconds.contains(time.secondsSince1970) { return .implausibleTime }
        if let accuracy = fix.accuracyMeters, accuracy > parameters.maxAccuracyMeters { return .accuracyTooLow }
        return nil
    }

    private func orderProblem(_ fix: PositionFix, after earlier: PositionFix?) -> DropReason? {
        guard let time = fix.time, let earlierTime = earlier?.time else { return nil }
        if time < earlierTime { return .timeBackwards }
        if time == earlierTime { return .duplicateTime }
        return nil
    }

    /// Fastest sustained speed a fix may carry on at, m/s: `TravelSpeeds.fastestAnyModeMetersPerSecond`.
    static let sustainedSpeedCapMetersPerSecond = TravelSpeeds.fastestAnyModeMetersPerSecond

    /// True when `middle` lies on the way from `first` to `last` (the straight distance is at
    /// least 80 % of the path through it) and the whole is no faster than the sustained cap: a
    /// fast journey, where a spike goes out and comes back.
    private func carriesOn(from first: PositionFix?, through middle: PositionFix, to last: PositionFix) -> Bool {
        guard let first, let start = first.time, let end = last.time, start.seconds(until: end) > 0 else { return false }
        let direct = Geodesy.distanceMeters(first, last)
        let path = Geodesy.distanceMeters(first, middle) + Geodesy.distanceMeters(middle, last)
        return direct >= 0.8 * path && direct / start.seconds(until: end) <= Self.sustainedSpeedCapMetersPerSecond
    }

    private func isSpeeding(from earlier: PositionFix, to later: PositionFix) -> Bool {
        guard let start = earlier.time, let end = later.time else { return false }
        let seconds = start.seconds(until: end)
        guard seconds > 0 else { return false }
        let limitMeters = parameters.maxSpeedMetersPerSecond * seconds
        let quick = Geodesy.equirectangularMeters(
            latitude1: earlier.latitudeDegrees, longitude1: earlier.longitudeDegrees,
            latitude2: later.latitudeDegrees, longitude2: later.longitudeDegrees)
        if quick < 0.9 * limitMeters { return false } // far below the limit: haversine cannot disagree
        return Geodesy.distanceMeters(earlier, later) > limitMeters
    }
}
