import Foundation

/// How a leg of movement sits in the transit network of a feed (`TransitIndex`): the evidence
/// that it was a bus or a train ride, kept with the leg (`triplegs.csv`) and read by the leg's
/// mode decision (`LegFusion`).
///
/// - `corridorShare[kind]`: the share of the leg's fixes within `corridorMeters` of a corridor
///   of that kind (a route shape);
/// - `passed[kind]`: the distinct stops of that kind within `passMeters` of the leg's path
///   (fixes, and points every 25 m between them, so sparse fixes pass stops too);
/// - `stoppedAt[kind]`: the distinct stops of that kind within `stopMeters` of a place where
///   the leg stopped (consecutive fixes slower than `stoppedBelowMps` for `stopSeconds` or
///   more), and `stops`, how many such places the leg has;
/// - `startMeters[kind]`, `endMeters[kind]`: from the leg's first and last fix to the nearest
///   stop of that kind, at most `TransitIndex.maxSearchMeters`;
/// - `longestGapSeconds`: the longest time between two fixes (underground, a metro leg has
///   fixes only near its ends);
/// - `feedCorridorShare[feed]`: per feed of the index (`TransitIndex.feedNames`), the share of
///   the fixes within `corridorMeters` of one of its corridors, whatever the kind;
/// - `line`: the route, direction and stops of the ride (`TransitLine`), where one fits; else
///   `lineNote`, why none does. Both nil for a leg no line was sought for (on foot, on a bike).
///
/// Radii by kind: a bus stop is a pole at the kerb (30 m passed, 50 m stopped at, for a
/// phone's 5–20 m error); a station is a platform of 100–200 m (100 m passed, 200 m stopped at).
public struct TransitMatch: Sendable, Hashable {
    public var corridorShare: [TransitKind: Double] = [:]
    public var passed: [TransitKind: Int] = [:]
    public var stoppedAt: [TransitKind: Int] = [:]
    public var stops = 0
    public var startMeters: [TransitKind: Double] = [:]
    public var endMeters: [TransitKind: Double] = [:]
    public var longestGapSeconds = 0.0
    public var feedCorridorShare: [Int: Double] = [:]
    public var line: TransitLine?
    public var lineNote: String?

    /// The share of its fixes a leg runs along a feed's corridors to count as one of its legs
    /// (`TransitFeedUse.legsMatched`): half.
    public static let feedShare = 0.5

    public static let corridorMeters = 30.0
    public static func passMeters(_ kind: TransitKind) -> Double { kind == .bus ? 30 : 100 }
    public static func stopMeters(_ kind: TransitKind) -> Double { kind == .bus ? 50 : 200 }
    public static let stoppedBelowMps = 1.0
    public static let stopSeconds = 10.0
    /// Points along a chord between fixes are this far apart, metres (at most 200 per chord).
    public static let stepMeters = 25.0

    public init() {}

    /// The match of `fixes` (seconds, latitude, longitude; in time order, two or more).
    public init(_ fixes: [(Double, Double, Double)], index: TransitIndex) {
        guard let first = fixes.first, let last = fixes.last else { return }
        var inCorridor: [TransitKind: Int] = [:], inFeed: [Int: Int] = [:]
        var passedStops: [TransitKind: Set<Int>] = [:]
        for (position, fix) in fixes.enumerated() {
            let near = index.corridors(fix.1, fix.2, within: Self.corridorMeters)
            for kind in near.kinds.kinds { inCorridor[kind, default: 0] += 1 }
            for feed in near.feeds { inFeed[feed, default: 0] += 1 }
            var points = [(fix.1, fix.2)]
            if position + 1 < fixes.count {
                let next = fixes[position + 1]
                let steps = min(200, Int(TransitIndex.planarMeters(fix.1, fix.2, next.1, next.2) / Self.stepMeters))
                for step in stride(from: 1, through: steps, by: 1) {
                    let f = Double(step) / Double(steps + 1)
                    points.append((fix.1 + (next.1 - fix.1) * f, fix.2 + (next.2 - fix.2) * f))
                }
                longestGapSeconds = max(longestGapSeconds, next.0 - fix.0)
            }
            for point in points {
                for kind in [TransitKind.rail, .bus] {
                    passedStops[kind, default: []].formUnion(index.stops(near: point.0, point.1, within: Self.passMeters(kind), kind: kind))
                }
            }
        }
        var stoppedStops: [TransitKind: Set<Int>] = [:]
        for place in Self.stopPlaces(fixes) {
            stops += 1
            for kind in [TransitKind.rail, .bus] {
                stoppedStops[kind, default: []].formUnion(index.stops(near: place.0, place.1, within: Self.stopMeters(kind), kind: kind))
            }
        }
        feedCorridorShare = inFeed.mapValues { Double($0) / Double(fixes.count) }
        for kind in TransitKind.allCases {
            corridorShare[kind] = Double(inCorridor[kind] ?? 0) / Double(fixes.count)
            if kind != .ferry {
                passed[kind] = passedStops[kind]?.count ?? 0
                stoppedAt[kind] = stoppedStops[kind]?.count ?? 0
                startMeters[kind] = index.nearestStopMeters(first.1, first.2, kind: kind)
                endMeters[kind] = index.nearestStopMeters(last.1, last.2, kind: kind)
            }
        }
    }

    /// The places where the fixes stop: runs of consecutive fixes whose chords are slower than
    /// `stoppedBelowMps`, lasting `stopSeconds` or more; each place is the run's mean position.
    static func stopPlaces(_ fixes: [(Double, Double, Double)]) -> [(Double, Double)] {
        stopRuns(fixes).map { run in
            let members = fixes[run]
            return (members.map(\.1).reduce(0, +) / Double(members.count), members.map(\.2).reduce(0, +) / Double(members.count))
        }
    }

    /// The runs of fixes `stopPlaces` finds, as index ranges into `fixes`.
    static func stopRuns(_ fixes: [(Double, Double, Double)]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var run: [Int] = []
        func close() {
            if let a = run.first, let b = run.last, fixes[b].0 - fixes[a].0 >= stopSeconds { runs.append(a...b) }
            run = []
        }
        for index in 1..<max(1, fixes.count) {
            let a = fixes[index - 1], b = fixes[index], seconds = b.0 - a.0
            let slow = seconds > 0 && TransitIndex.planarMeters(a.1, a.2, b.1, b.2) / seconds < stoppedBelowMps
            if slow {
                if run.isEmpty { run = [index - 1] }
                run.append(index)
            } else {
                close()
            }
        }
        close()
        return runs
    }
}
