import Foundation
import MobilityCore

/// The line a ride most likely was: a route of one of the feeds, in one direction, from the stop
/// where it boarded to the stop where it alighted (`TransitIndex.line(for:)`).
///
/// A pattern (`GTFSFeed.Pattern`) is a candidate when it calls at stops near both ends of the
/// ride, boarding before alighting in its stop sequence. The ride boarded at the pattern's stop
/// nearest its first fix when that lies within `boardMeters` (a station's platforms and
/// entrances, or a kerbside stop); otherwise, when its first fix lies on the pattern's path
/// (within `onLineMeters`), at the last stop before that place, if within `runUpMeters`: the
/// motion that starts a ride leg is seen some way out of the station (a train at 20 m/s covers
/// 600 m in the 30 s a mode change takes to show). Alighting likewise, with the first stop
/// after the last fix. Each candidate is scored on two parts, each 0–1:
///
/// - *ends*: 1 − the mean of the two ends' distances from their stops as a share of
///   `runUpMeters`;
/// - *along*: the share of the ride's other fixes within `alongMeters` of the pattern's path
///   between the two stops (its shape, else the lines between its stops). A ride with no fix
///   between its ends (underground) has no *along*, and its score is *ends* alone.
///
/// `score` is their mean. A candidate whose *along* is below `minimumAlong` is no line: the
/// ride ran elsewhere between stops it happened to start and end near (a car beside a bus
/// route). Of the rest, the highest score wins; then the pattern whose stops between the two the
/// ride stopped at most and missed least (local or express), then the one most trips run, then
/// the first route. Where the winner has no trip at the ride's time (`TimetableMatch`), the next
/// within `sameTrackScore` of it that has one is the line: routes sharing a track fit alike.
///
/// `stationStops` counts where the ride stopped at the line's stops: the boarding and
/// alighting stops when the ends lie within `stopMeters` of them, and every stop between them
/// within `stopMeters` of a place the ride stopped (`TransitMatch.stopPlaces`). Two or more is
/// what lets the line name the ride's vehicle type (`LegFusion`).
public struct TransitLine: Sendable, Hashable {
    /// A stop where the line was boarded or left.
    public struct Call: Sendable, Hashable {
        /// `stop_id` and `stop_name` of `stops.txt`.
        public var stopID: String
        public var name: String
        /// From the ride's first (boarding) or last (alighting) fix to the stop.
        public var meters: Double
        /// The stop's place in the pattern's stop sequence, from 0.
        public var position: Int
    }

    /// The feed's name among the run's feeds (`TransitIndex.feedNames`).
    public var feed: String
    public var agency: String
    /// `route_id`, the route's name (`GTFSFeed.Route.name`) and its `route_type`.
    public var routeID: String
    public var routeName: String
    public var routeType: Int
    /// The product's kind of the route (`TransitKind(routeType:)`): what mode the line names.
    public var kind: TransitKind
    /// `trips.txt` `direction_id`; nil where the feed gives none.
    public var direction: Int?
    public var board: Call
    public var alight: Call
    public var stationStops: Int
    public var score: Double
    /// Index of the pattern in `TransitIndex.patterns`, for its timetable.
    public var pattern: Int
    /// The scheduled trip the ride most likely was (`TransitIndex.timetable(for:departure:arrival:)`),
    /// or nil with `timetableNote` saying why none.
    public var timetable: TimetableMatch?
    public var timetableNote: String?

    /// The line's finer type in `route_type`'s words (`TransitKind.routeTypeName`).
    public var routeTypeName: String? { TransitKind.routeTypeName(routeType) }

    /// How far an end may lie from the stop it boarded or alighted at, metres: a station's
    /// platforms, entrances and the GPS error of a phone coming up from them (400 m); a kerbside
    /// stop (150 m).
    public static func boardMeters(_ routeType: Int) -> Double { kerbside(routeType) ? 150 : 400 }
    /// How far back (boarding) or ahead (alighting) of an end on the line its stop may be: 1,500 m
    /// for rail, metro and ferry (a minute's acceleration out of a station), 400 m for kerbside stops.
    public static func runUpMeters(_ routeType: Int) -> Double { kerbside(routeType) ? 400 : 1_500 }
    /// An end this near a pattern's path is on the line, metres.
    public static let onLineMeters = 100.0
    /// A stop the ride stopped at, metres from where it stopped: a tram or bus stop 50 m, a
    /// platform 200 m (`TransitMatch.stopMeters`).
    public static func stopMeters(_ routeType: Int) -> Double { kerbside(routeType) ? 50 : 200 }
    /// A fix on the line: the phone's error and the feed's shape drawn along the road or track.
    public static let alongMeters = 50.0
    /// Lines whose scores differ by this or less fit a ride alike (routes on one track); the
    /// timetable chooses between them.
    public static let sameTrackScore = 0.1
    /// Half the ride's fixes between its ends on the line, or it is no line.
    public static let minimumAlong = 0.5

    /// Trams, buses, trolleybuses and coaches stop at the kerb.
    static func kerbside(_ routeType: Int) -> Bool { ["tram", "bus", "trolleybus", "coach"].contains(TransitKind.routeTypeName(routeType)) }
}

/// The scheduled trip a ride on a line most likely was (`TransitIndex.timetable(for:departure:arrival:)`).
///
/// The ride's local date in the feed's `agency_timezone` (`agency.txt`) picks the service days:
/// that day, and the day before for a trip past 24:00:00. A trip of the line's pattern is a
/// candidate on a service day its `service_id` runs (`calendar.txt` and `calendar_dates.txt`,
/// `GTFSService.Calendar.runs(on:)`); its times at the two stops are `stop_times.txt`'s
/// `departure_time` at the boarding stop and `arrival_time` at the alighting one, counted from
/// noon minus 12 h of the service day (GTFS "Time"; the local midnight, but on the days a clock
/// changes). The observed times are the ride's first fix (its motion starts as it leaves) and
/// last fix, each only where that end lies within the stop radius of its stop. Delay is
/// observed − scheduled. A trip is plausible when every known delay lies within
/// `plausibleDelay` (5 min early to 60 min late); of those, the one of least cost wins, an early
/// second counting three times a late one. Where trips run often a late train may be taken for
/// the one after it early, or one before it later still: the fixes alone cannot tell them apart.
public struct TimetableMatch: Sendable, Hashable {
    /// `trip_id`, and the service day it ran on (`YYYY-MM-DD`).
    public var tripID: String
    public var serviceDate: String
    /// Seconds from noon minus 12 h of the service day, as `stop_times.txt` gives them.
    public var scheduledDeparture: Int32
    public var scheduledArrival: Int32
    /// Observed − scheduled, seconds; nil where that end was not seen at its stop.
    public var departureDelaySeconds: Double?
    public var arrivalDelaySeconds: Double?

    public static let plausibleDelay = -300.0...3_600.0

    /// The scheduled times as GTFS writes them.
    public var scheduledDepartureText: String { Self.text(scheduledDeparture) }
    public var scheduledArrivalText: String { Self.text(scheduledArrival) }

    /// A GTFS time, `HH:MM:SS` (hours past 23 for a trip after midnight).
    public static func text(_ seconds: Int32) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3_600, seconds / 60 % 60, seconds % 60)
    }

    /// Noon minus 12 h of local day `day` on `clock`, in seconds since 1970 UTC.
    static func origin(of day: Int, clock: CalendarKeys) -> Double {
        let noon = Double(day) * 86_400 + 43_200
        return noon - clock.offsetSeconds(at: noon - clock.offsetSeconds(at: noon)) - 43_200
    }
}

extension TransitIndex {
    /// The line the fixes (seconds, latitude, longitude; in time order) most likely rode, or
    /// why none: `TransitLine`'s rules.
    public func line(for fixes: [(Double, Double, Double)]) -> (line: TransitLine?, note: String?) {
        guard let first = fixes.first, let last = fixes.last, fixes.count >= 2 else { return (nil, "too few fixes for a line") }
        let widest = TransitLine.runUpMeters(2) // the widest of all types
        func near(_ fix: (Double, Double, Double)) -> [(stop: Int, meters: Double)] {
            var found: [Int: Double] = [:]
            for kind in TransitKind.allCases {
                for stop in stops(near: fix.1, fix.2, within: widest, kind: kind) {
                    found[stop] = Self.planarMeters(fix.1, fix.2, stops[stop].latitudeDegrees, stops[stop].longitudeDegrees)
                }
            }
            return found.map { ($0.key, $0.value) }
        }
        let boarding = near(first), alighting = near(last)
        guard !boarding.isEmpty else { return (nil, "no stop of the feeds within 1,500 m of where the ride began") }
        guard !alighting.isEmpty else { return (nil, "no stop of the feeds within 1,500 m of where the ride ended") }
        // Per pattern, its calls near either end.
        var starts: [Int32: [(position: Int, stop: Int, meters: Double)]] = [:], ends = starts
        for (stop, meters) in boarding {
            for call in calls[stop] { starts[call.pattern, default: []].append((Int(call.position), stop, meters)) }
        }
        for (stop, meters) in alighting {
            for call in calls[stop] { ends[call.pattern, default: []].append((Int(call.position), stop, meters)) }
        }
        // Per pattern, where the ride boarded and alighted (`TransitLine`'s rules), in order.
        var pairs: [Int32: (board: (Int, Int, Double), alight: (Int, Int, Double))] = [:]
        for (number, near) in starts {
            guard let far = ends[number] else { continue }
            let pattern = patterns[Int(number)], type = lines[pattern.route].route.routeType
            let reach = TransitLine.boardMeters(type), runUp = TransitLine.runUpMeters(type)
            func call(_ calls: [(position: Int, stop: Int, meters: Double)], _ fix: (Double, Double, Double), boarding: Bool)
                -> (Int, Int, Double)?
            {
                if let nearest = calls.min(by: { ($0.meters, $0.position) < ($1.meters, $1.position) }), nearest.meters <= reach {
                    return (nearest.position, nearest.stop, nearest.meters)
                }
                // Not at a stop: on the line between two, the last stop before (boarding) or the next after.
                guard let on = Self.nearestSegment(fix, path: pattern.path), on.meters <= TransitLine.onLineMeters else { return nil }
                let points = stopPoints[Int(number)]
                let position =
                    boarding ? points.lastIndex { $0 <= on.segment } : points.firstIndex { $0 >= on.segment + 1 }
                guard let position, let held = calls.first(where: { $0.position == position }), held.meters <= runUp else { return nil }
                return (held.position, held.stop, held.meters)
            }
            guard let board = call(near, first, boarding: true), let alight = call(far, last, boarding: false),
                alight.0 > board.0
            else { continue }
            pairs[number] = (board, alight)
        }
        guard !pairs.isEmpty else { return (nil, "no route of the feeds calls near both ends of the ride in this order") }
        let places = TransitMatch.stopPlaces(fixes)
        let inside = fixes.dropFirst().dropLast()
        var candidates: [(line: TransitLine, missed: Int, trips: Int)] = []
        for (number, pair) in pairs.sorted(by: { $0.key < $1.key }) {
            let pattern = patterns[Int(number)], type = lines[pattern.route].route.routeType
            let runUp = TransitLine.runUpMeters(type), stopReach = TransitLine.stopMeters(type)
            let from = stopPoints[Int(number)][pair.board.0], to = stopPoints[Int(number)][pair.alight.0]
            let path = pattern.path[from...max(from, to)]
            let along = inside.isEmpty ? nil : Self.shareAlong(inside, path: path)
            if let along, along < TransitLine.minimumAlong { continue }
            let endsScore = 1 - (pair.board.2 + pair.alight.2) / (2 * runUp)
            var stationStops = (pair.board.2 <= stopReach ? 1 : 0) + (pair.alight.2 <= stopReach ? 1 : 0), between = 0
            for position in (pair.board.0 + 1)..<pair.alight.0 {
                let stop = stops[pattern.stops[position]]
                between += 1
                if places.contains(where: {
                    Self.planarMeters($0.0, $0.1, stop.latitudeDegrees, stop.longitudeDegrees) <= stopReach
                }) {
                    stationStops += 1
                }
            }
            let stoppedBetween = stationStops - (pair.board.2 <= stopReach ? 1 : 0) - (pair.alight.2 <= stopReach ? 1 : 0)
            let route = lines[pattern.route]
            func call(_ end: (Int, Int, Double)) -> TransitLine.Call {
                TransitLine.Call(stopID: stops[end.1].id, name: stops[end.1].name, meters: end.2, position: end.0)
            }
            let line = TransitLine(
                feed: feedNames[route.feed], agency: route.agency, routeID: route.route.id, routeName: route.route.name,
                routeType: type, kind: route.route.kind, direction: pattern.direction, board: call(pair.board), alight: call(pair.alight),
                stationStops: stationStops,
                score: along.map { (endsScore + $0) / 2 } ?? endsScore, pattern: Int(number))
            candidates.append((line, between - stoppedBetween, pattern.trips))
        }
        // Ranked (stable: ties keep the patterns' order).
        let ranked = candidates.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.line.score != y.line.score { return x.line.score > y.line.score }
            if x.line.stationStops != y.line.stationStops { return x.line.stationStops > y.line.stationStops }
            if x.missed != y.missed { return x.missed < y.missed }
            if x.trips != y.trips { return x.trips > y.trips }
            return a.offset < b.offset
        }.map(\.element.line)
        guard let best = ranked.first else {
            return (nil, "routes call near both ends but the ride runs along none: fewer than half its fixes within 50 m of one")
        }
        // The times of an end at its stop are what the fixes observed; an end seen some way out is none.
        func timed(_ line: TransitLine) -> TransitLine {
            var line = line
            let stopReach = TransitLine.stopMeters(line.routeType)
            (line.timetable, line.timetableNote) = timetable(
                for: line, departure: line.board.meters <= stopReach ? first.0 : nil,
                arrival: line.alight.meters <= stopReach ? last.0 : nil)
            return line
        }
        // Routes that share a track (a local, a limited, an express) fit a ride alike; where the
        // best has no trip at the ride's time, the next that fits nearly as well and has one is it.
        let chosen = timed(best)
        guard chosen.timetable == nil, chosen.timetableNote?.hasPrefix("no trip of route") == true else { return (chosen, nil) }
        for other in ranked.dropFirst() where best.score - other.score <= TransitLine.sameTrackScore {
            let line = timed(other)
            if line.timetable != nil { return (line, nil) }
        }
        return (chosen, nil)
    }

    /// The scheduled trip of `line`'s pattern the ride most likely was, from the times it left
    /// its boarding stop (`departure`) and reached its alighting stop (`arrival`), either nil
    /// where that end was not seen at its stop; or why there is none. Rules in `TimetableMatch`.
    public func timetable(for line: TransitLine, departure: Double?, arrival: Double?) -> (TimetableMatch?, String?) {
        guard let observed = departure ?? arrival else {
            return (nil, "neither end of the ride was seen at its stop: no time to look the trip up by")
        }
        let pattern = patterns[line.pattern], feed = lines[pattern.route].feed
        let service = services[feed], clock = clocks[feed]
        guard let days = service.serviceDays else { return (nil, "\(feedNames[feed]) has no calendar: no timetable") }
        let day = clock.dayNumber(observed)
        guard days.contains(day) || days.contains(day - 1) else {
            return (
                nil,
                "\(CalendarKeys.dateText(day)) is outside \(feedNames[feed])'s service dates "
                    + "\(CalendarKeys.dateText(days.lowerBound)) – \(CalendarKeys.dateText(days.upperBound))"
            )
        }
        var best: (match: TimetableMatch, cost: Double)?
        for serviceDay in [day - 1, day] {
            let origin = TimetableMatch.origin(of: serviceDay, clock: clock)
            for trip in pattern.timetable where service.calendars[trip.service]?.runs(on: serviceDay) == true {
                let leaves = trip.departures[line.board.position], arrives = trip.arrivals[line.alight.position]
                guard leaves >= 0, arrives >= 0 else { continue }
                let departureDelay = departure.map { $0 - (origin + Double(leaves)) }
                let arrivalDelay = arrival.map { $0 - (origin + Double(arrives)) }
                let delays = [departureDelay, arrivalDelay].compactMap { $0 }
                guard delays.allSatisfy(TimetableMatch.plausibleDelay.contains) else { continue }
                // Late is likelier than early: trains and buses seldom leave before their time.
                let cost = delays.reduce(0) { $0 + ($1 >= 0 ? $1 : 3 * -$1) }
                if let held = best, held.cost <= cost { continue }
                best = (
                    TimetableMatch(
                        tripID: trip.id, serviceDate: CalendarKeys.dateText(serviceDay), scheduledDeparture: leaves,
                        scheduledArrival: arrives, departureDelaySeconds: departureDelay, arrivalDelaySeconds: arrivalDelay),
                    cost
                )
            }
        }
        guard let best else {
            return (
                nil,
                "no trip of route \(line.routeID) runs from \(line.board.stopID) to \(line.alight.stopID) on \(CalendarKeys.dateText(day)) "
                    + "within 5 min early to 60 min late of the ride"
            )
        }
        return (best.match, nil)
    }

    /// The segment of `path` (from its point `segment` to the next) nearest the fix, and how far.
    static func nearestSegment(_ fix: (Double, Double, Double), path: [(Double, Double)]) -> (segment: Int, meters: Double)? {
        guard !path.isEmpty else { return nil }
        let cosine = cos(fix.1 * .pi / 180)
        var best = (segment: 0, meters: Double.infinity)
        for segment in 0..<max(1, path.count - 1) {
            let a = path[segment], b = path[min(segment + 1, path.count - 1)]
            let meters = segmentMeters(fix.1, fix.2, (a.0, a.1, b.0, b.1, []), cosine: cosine)
            if meters < best.meters { best = (segment, meters) }
        }
        return best
    }

    /// The share of `fixes` within `TransitLine.alongMeters` of `path`, or a share below
    /// `TransitLine.minimumAlong` as soon as one is certain. Fixes run along a line in order, so
    /// each is first measured against the segments just past the previous fix's, and against the
    /// whole path only when those are too far.
    static func shareAlong(_ fixes: ArraySlice<(Double, Double, Double)>, path: ArraySlice<(Double, Double)>) -> Double {
        guard !fixes.isEmpty else { return 0 }
        let points = Array(path)
        func meters(_ fix: (Double, Double, Double), segment: Int) -> Double {
            let a = points[segment], b = points[min(segment + 1, points.count - 1)]
            return segmentMeters(fix.1, fix.2, (a.0, a.1, b.0, b.1, []), cosine: cos(fix.1 * .pi / 180))
        }
        var cursor = 0, on = 0, off = 0
        let allowedOff = Int((Double(fixes.count) * (1 - TransitLine.minimumAlong)).rounded(.down))
        for fix in fixes {
            var nearest = Double.infinity, at = cursor
            for segment in max(0, cursor - 5)..<min(points.count, cursor + 50) {
                let d = meters(fix, segment: segment)
                if d < nearest { (nearest, at) = (d, segment) }
            }
            if nearest > TransitLine.alongMeters {
                for segment in 0..<points.count {
                    let d = meters(fix, segment: segment)
                    if d < nearest { (nearest, at) = (d, segment) }
                }
            }
            if nearest <= TransitLine.alongMeters {
                on += 1
                cursor = at
            } else {
                off += 1
                if off > allowedOff { return Double(on) / Double(fixes.count) }
            }
        }
        return Double(on) / Double(fixes.count)
    }
}

extension TransitIndex {
    /// Where a ride that no one line fits changed lines: a place it stopped (`TransitMatch.stopRuns`)
    /// at which one line (`line(for:)` of the fixes up to it) alights and another (of the fixes
    /// from it) boards, both within `TransitLine.stopMeters` of the place, on two routes. Of
    /// several such places, the one whose two lines score highest together; nil when there is none.
    /// `fix` indexes `fixes`: the middle of the stop, where the ride is cut.
    public func transfer(for fixes: [(Double, Double, Double)]) -> (fix: Int, first: TransitLine, second: TransitLine)? {
        var best: (fix: Int, first: TransitLine, second: TransitLine)?
        for run in TransitMatch.stopRuns(fixes) {
            let middle = (run.lowerBound + run.upperBound) / 2
            // Two line searches per stop only where the stop lies at a stop of the feeds (a car stops at lights too).
            let place = fixes[middle]
            guard middle > 0, middle < fixes.count - 1,
                TransitKind.allCases.contains(where: { !stops(near: place.1, place.2, within: 200, kind: $0).isEmpty }),
                let first = line(for: Array(fixes[...middle])).line, let second = line(for: Array(fixes[middle...])).line,
                first.feed != second.feed || first.routeID != second.routeID,
                first.alight.meters <= TransitLine.stopMeters(first.routeType),
                second.board.meters <= TransitLine.stopMeters(second.routeType)
            else { continue }
            if let held = best, held.first.score + held.second.score >= first.score + second.score { continue }
            best = (middle, first, second)
        }
        return best
    }
}
