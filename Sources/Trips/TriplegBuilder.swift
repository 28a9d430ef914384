import MobilityCore

/// Triplegs from the fixes between staypoints (trackintel's `between_staypoints`: a leg
/// starts at the first fix after a stay, which is the fix that ended it, and ends at the last
/// fix before the next stay), split where the time between fixes exceeds `gapSeconds`, kept
/// with 2 fixes or more, then split again where the classified mode changes.
///
/// Mode splitting: each fix takes the mode of the timeline at its time (a fix no classifier
/// covers takes its previous, else next, known neighbour's); runs of one mode shorter than
/// `minimumLegSeconds` are merged into their longer neighbour, shortest first, until none is
/// left. Neighbouring legs share their boundary fix.
///
/// - Complexity: O(n log w) for n fixes and w mode spans, plus O(r²) merging for r mode runs
///   in one movement (r is small: a few per trip).
public struct TriplegBuilder: Sendable {
    public var parameters: TripParameters

    public init(parameters: TripParameters = TripParameters()) {
        self.parameters = parameters
    }

    public func build(_ track: DeviceTrack, staypoints: [Staypoint], modes: ModeTimeline) -> [Tripleg] {
        movements(track, staypoints: staypoints).flatMap { movement in
            split(track, movement, modes: modes)
        }
    }

    struct Movement {
        var first: Int, last: Int
        var previousStaypoint: Int?, nextStaypoint: Int?
    }

    /// Runs of fixes outside every staypoint, cut at gaps, with 2 fixes or more.
    func movements(_ track: DeviceTrack, staypoints: [Staypoint]) -> [Movement] {
        var result: [Movement] = []
        var stayIndex = 0
        var index = 0
        var previousStay: Int?
        let count = track.points.count
        while index < count {
            if stayIndex < staypoints.count, index >= staypoints[stayIndex].firstFix {
                index = max(index, staypoints[stayIndex].endFix)
                previousStay = stayIndex
                stayIndex += 1
                continue
            }
            let stop = stayIndex < staypoints.count ? staypoints[stayIndex].firstFix : count
            var first = index
            for current in index..<stop where current > first && track.secondsBefore(current) > parameters.gapSeconds {
                append(&result, first, current - 1, previous: first == index ? previousStay : nil, next: nil)
                first = current
            }
            let next = stop < count && (stop == 0 || track.secondsBefore(stop) <= parameters.gapSeconds) ? stayIndex : nil
            append(&result, first, stop - 1, previous: first == index ? previousStay : nil, next: next)
            index = stop
        }
        return result
    }

    private func append(_ result: inout [Movement], _ first: Int, _ last: Int, previous: Int?, next: Int?) {
        guard last > first else { return }
        result.append(Movement(first: first, last: last, previousStaypoint: previous, nextStaypoint: next))
    }

    func split(_ track: DeviceTrack, _ movement: Movement, modes: ModeTimeline) -> [Tripleg] {
        let points = track.points
        var runs = Self.runs(movement.first...movement.last) { modes.span(at: points[$0].timeSeconds) }
        for index in runs.indices { runs[index].firstSeconds = points[runs[index].first].timeSeconds }
        mergeShortRuns(&runs, lastSeconds: points[movement.last].timeSeconds)
        return runs.enumerated().map { number, run in
            let last = number + 1 < runs.count ? runs[number + 1].first : movement.last
            var distance = 0.0
            for index in run.first..<last { distance += TrackPoint.distanceMeters(points[index], points[index + 1]) }
            return Tripleg(
                device: track.device, firstFix: run.first, lastFix: last, startSeconds: points[run.first].timeSeconds,
                endSeconds: points[last].timeSeconds, distanceMeters: distance, mode: run.span?.mode,
                modeSource: run.span?.source,
                previousStaypoint: number == 0 ? movement.previousStaypoint : nil,
                nextStaypoint: number == runs.count - 1 ? movement.nextStaypoint : nil)
        }
    }

    struct Run {
        var first: Int
        var span: ModeSpan?
        /// Its first fix's time (the merging reads it often; the fixes may be in a file).
        var firstSeconds = Double.nan
    }

    /// The runs of one mode over the fixes `indices`, each with the span at its first fix, from
    /// `span(fix)`: a fix of no known span takes the previous known one, or the next one at the
    /// start. One pass (two over a start without spans), without a span per fix in memory: a
    /// continuous 1.6 M-fix leg held two such arrays, 77 MB.
    static func runs(_ indices: ClosedRange<Int>, span: (Int) -> ModeSpan?) -> [Run] {
        var first: ModeSpan? // (a `lazy.compactMap` would need an escaping closure)
        for index in indices {
            first = span(index)
            if first != nil { break }
        }
        guard var current = first else { return [Run(first: indices.lowerBound, span: nil)] }
        var runs: [Run] = []
        for index in indices {
            if let known = span(index) { current = known }
            if runs.last.map({ $0.span?.mode != current.mode }) ?? true { runs.append(Run(first: index, span: current)) }
        }
        return runs
    }

    private func mergeShortRuns(_ runs: inout [Run], lastSeconds: Double) {
        func duration(_ index: Int) -> Double {
            (index + 1 < runs.count ? runs[index + 1].firstSeconds : lastSeconds) - runs[index].firstSeconds
        }
        while runs.count > 1 {
            // A run of zero duration (a lone last fix) is short whatever the minimum.
            let short = runs.indices.filter { duration($0) < parameters.minimumLegSeconds || duration($0) == 0 }
            guard let victim = short.min(by: { duration($0) < duration($1) }) else { return }
            let before = victim - 1, after = victim + 1
            if after >= runs.count || (before >= 0 && duration(before) >= duration(after)) {
                runs.remove(at: victim)
            } else {
                runs[after].first = runs[victim].first
                runs[after].firstSeconds = runs[victim].firstSeconds
                runs.remove(at: victim)
            }
            // Neighbours that now share a mode become one run.
            var merged: [Run] = []
            for run in runs where merged.last.map({ $0.span?.mode != run.span?.mode }) ?? true { merged.append(run) }
            runs = merged
        }
    }
}
