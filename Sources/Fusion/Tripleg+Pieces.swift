import MobilityCore
import Trips

extension Tripleg {
    /// The leg cut at the given stretches, each `(first, last)` fix indices in order, within the
    /// leg and apart, becoming a leg of its own with its mode and decider; the stretches between
    /// them keep the leg's mode and decider. A piece starts where the one before ends (legs of
    /// one movement share their boundary fix), so distances and durations add up.
    func cut(at stretches: [(first: Int, last: Int, mode: Mode?, source: Decider?, note: String?)], points: TrackPoints) -> [Tripleg] {
        guard !stretches.isEmpty else { return [self] }
        func piece(_ first: Int, _ last: Int, mode: Mode?, source: Decider?, note: String? = nil) -> Tripleg {
            var part = self
            (part.firstFix, part.lastFix, part.mode, part.modeSource, part.modeNote) = (first, last, mode, source, note)
            (part.startSeconds, part.endSeconds) = (points[first].timeSeconds, points[last].timeSeconds)
            part.distanceMeters = (first..<last).reduce(0) { $0 + TrackPoint.distanceMeters(points[$1], points[$1 + 1]) }
            part.previousStaypoint = first == firstFix ? previousStaypoint : nil
            part.nextStaypoint = last == lastFix ? nextStaypoint : nil
            return part
        }
        var parts: [Tripleg] = [], start = firstFix
        for stretch in stretches {
            if stretch.first > start { parts.append(piece(start, stretch.first, mode: mode, source: modeSource, note: modeNote)) }
            parts.append(piece(stretch.first, stretch.last, mode: stretch.mode, source: stretch.source, note: stretch.note))
            start = stretch.last
        }
        if lastFix > start { parts.append(piece(start, lastFix, mode: mode, source: modeSource, note: modeNote)) }
        return parts
    }
}
