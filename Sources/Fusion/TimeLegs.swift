import MobilityCore
import Trips

/// Legs by time where a device was recorded by its motion sensors and no fix says where it
/// went: a metro ride with the phone's GPS off, an IMU-only recording. Each run of classified
/// IMU windows of one moving mode (not still: a stay) with no fix within `maxGapSeconds` of
/// any of its windows becomes a leg of its own (`Tripleg.byTime`): its mode and decider are its
/// windows', it has no distance and no geometry, and it counts in the modal split by time and
/// in the person's day, never silently left out.
///
/// - Complexity: O(windows · log fixes).
public struct TimeLegs: Sendable {
    /// A window this far from every fix, or farther, has no position, seconds. Default 60.
    public var maxGapSeconds = 60.0
    /// Windows further apart than this end a run, seconds. Default 60.
    public var maxWindowGapSeconds = 60.0
    /// Shortest run that is a leg, seconds (`TripParameters.minimumLegSeconds`). Default 60.
    public var minimumLegSeconds = 60.0

    public init() {}

    public static let note = "by time: the IMU windows say how the device moved, and no fix says where: no distance, no geometry"

    /// Which of a device's IMU windows have a fix within `maxGapSeconds`, marked from its fixes
    /// handed over in pieces in time order (pieces may overlap): the same as from the whole
    /// track, as a window is placed when some fix is near it.
    public struct Placement: Sendable {
        /// The windows by start, and whether each is placed.
        public let spans: [ModeSpan]
        public private(set) var placed: [Bool]
        let maxGapSeconds: Double
        /// Windows before this one ended too long before the last piece's first fix for any later fix to place them.
        private var cursor = 0

        public init(_ spans: [ModeSpan], maxGapSeconds: Double) {
            self.spans = spans.sorted { $0.startSeconds < $1.startSeconds }
            placed = [Bool](repeating: false, count: spans.count)
            self.maxGapSeconds = maxGapSeconds
        }

        public mutating func mark(near points: TrackPoints) {
            guard let first = points.first?.timeSeconds, let last = points.last?.timeSeconds, !spans.isEmpty else { return }
            while cursor < spans.count, spans[cursor].endSeconds + maxGapSeconds < first { cursor += 1 }
            for index in spans.indices[cursor...] where !placed[index] {
                let span = spans[index]
                // By start: a window starting beyond the last fix's reach, and all after it, stay unplaced here.
                if span.startSeconds - maxGapSeconds > last { break }
                guard span.endSeconds + maxGapSeconds >= first else { continue }
                // Searched in the points themselves: their times copied were 8 bytes a fix.
                let at = points.firstIndex(notBelow: span.startSeconds - maxGapSeconds) { $0.timeSeconds }
                placed[index] = at < points.endIndex && points[at].timeSeconds <= span.endSeconds + maxGapSeconds
            }
        }
    }

    /// The legs by time of `device` from its IMU windows that no fix is near.
    public func legs(device: String, placement: Placement) -> [Tripleg] {
        let unplaced = placement.spans.indices.filter { !placement.placed[$0] }.map { placement.spans[$0] }
        var legs: [Tripleg] = []
        var run: [ModeSpan] = []
        func close() {
            defer { run = [] }
            guard let first = run.first, first.mode != .still else { return }
            let end = run.map(\.endSeconds).max()!
            guard end - first.startSeconds >= minimumLegSeconds else { return }
            var leg = Tripleg(
                device: device, firstFix: 0, lastFix: 0, startSeconds: first.startSeconds, endSeconds: end,
                distanceMeters: 0, mode: first.mode, modeSource: first.source)
            leg.byTime = true
            leg.modeNote = Self.note
            legs.append(leg)
        }
        for span in unplaced {
            if let last = run.last, span.mode != last.mode || span.startSeconds - last.endSeconds > maxWindowGapSeconds { close() }
            run.append(span)
        }
        close()
        // Windows overlap by half: a run ends where the next begins.
        for index in legs.indices.dropLast() where legs[index].endSeconds > legs[index + 1].startSeconds {
            legs[index].endSeconds = legs[index + 1].startSeconds
        }
        return legs
    }
}
