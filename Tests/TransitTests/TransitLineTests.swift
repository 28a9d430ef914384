import Foundation
import MobilityCore
import TestSupport
import Testing
import Transit

/// Which line a ride was (`TransitIndex.line(for:)`): route, direction, boarding and alighting
/// stops, the stops it stopped at; and why no line fits when none does. On a feed with known
/// answers, then on BART's own feed.
@Suite struct TransitLineTests {
    /// Fixes every 10 s along `path` (east, north in metres), at `mps`, stopping `stopSeconds`
    /// at each position of `stopsAt` (a vertex of `path`).
    static func ride(
        _ path: [(Double, Double)], mps: Double = 8, stopsAt: [(Double, Double)] = [], stopSeconds: Double = 30, start: Double = 0
    ) -> [(Double, Double, Double)] {
        var fixes: [(Double, Double, Double)] = [], time = start
        func add(_ east: Double, _ north: Double) {
            let (lat, lon) = SyntheticGTFS.position(east: east, north: north)
            fixes.append((time, lat, lon))
        }
        for (a, b) in zip(path, path.dropFirst()) {
            let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
            let steps = max(1, Int(length / (mps * 10)))
            for step in 0..<steps {
                let f = Double(step) / Double(steps)
                let here = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
                add(here.0, here.1)
                time += 10
                if stopsAt.contains(where: { abs($0.0 - here.0) < 1 && abs($0.1 - here.1) < 1 }) {
                    for _ in 0..<Int(stopSeconds / 10) {
                        add(here.0, here.1)
                        time += 10
                    }
                }
            }
        }
        add(path.last!.0, path.last!.1)
        return fixes
    }

    func index(_ folder: TemporaryFolder) throws -> TransitIndex {
        let path = folder.file("town")
        try SyntheticGTFS.writeTown(path)
        return try TransitNetwork.load(paths: [path]) { _ in }.index
    }

    @Test func aRideFromStopToStopIsItsRouteDirectionAndStops() throws {
        let folder = try TemporaryFolder()
        let index = try index(folder)
        // Boards 20 m from N1, stops at N2 and N3, alights 30 m from N4.
        let north = Self.ride([(5, 620), (5, 1_200), (5, 1_800), (5, 2_430)], stopsAt: [(5, 1_200), (5, 1_800)])
        let (line, note) = index.line(for: north)
        #expect(note == nil)
        let found = try #require(line)
        #expect(found.feed == "town" && found.agency == "Town Buses" && found.routeID == "L" && found.routeName == "7")
        #expect(found.routeType == 3 && found.routeTypeName == "bus" && found.kind == .bus && found.direction == 0)
        #expect(found.board.stopID == "N1" && found.board.name == "North 1" && abs(found.board.meters - 20.6) < 1, "\(found.board)")
        #expect(found.alight.stopID == "N4" && abs(found.alight.meters - 30.4) < 1, "\(found.alight)")
        #expect(found.stationStops == 4, "both ends within 50 m of their stops, and a stop at N2 and N3")
        #expect(found.score > 0.8 && found.score <= 1, "\(found.score)")

        let south = try #require(index.line(for: Self.ride([(0, 2_400), (0, 0)])).line)
        #expect(south.routeID == "L" && south.direction == 1 && south.board.stopID == "N4" && south.alight.stopID == "N0")
        #expect(south.stationStops == 2, "it stopped nowhere between: its two ends only")
    }

    /// A ride leg starts where its motion shows, some way out of the stop: on the line between
    /// two stops, the ride boarded at the one before and alighted at the one after.
    @Test func aRideSeenFirstBetweenStopsBoardedAtTheStopBefore() throws {
        let folder = try TemporaryFolder()
        let index = try index(folder)
        let ride = Self.ride([(0, 900), (0, 1_200), (0, 1_800), (0, 2_100)], stopsAt: [(0, 1_200), (0, 1_800)])
        let found = try #require(index.line(for: ride).line)
        #expect(found.routeID == "L" && found.board.stopID == "N1" && found.alight.stopID == "N4", "\(found)")
        #expect(abs(found.board.meters - 300) < 1 && abs(found.alight.meters - 300) < 1)
        #expect(found.stationStops == 2, "the ends are 300 m from their stops: only N2 and N3 count")
        let late = index.line(for: Self.ride([(0, 1_300), (0, 2_100)]))
        #expect(late.line?.board.stopID == "N2", "the stop before, 100 m back: \(late)")
        // 420 m past N2 and 180 m short of N3: farther than a bus runs up to speed (400 m) from either.
        let far = index.line(for: Self.ride([(0, 1_620), (0, 2_400)]))
        #expect(far.line == nil && far.note == "no route of the feeds calls near both ends of the ride in this order", "\(far)")
    }

    @Test func aRideIsTheScheduledTripItsTimesFitAndItsDelaysAreObservedMinusScheduled() throws {
        let folder = try TemporaryFolder()
        let index = try index(folder)
        // Leaves N1 at 08:12:30, 90 s after trip "up" (08:11); "up2" leaves an hour later.
        let path = [(5.0, 620.0), (5, 1_200), (5, 1_800), (5, 2_430)]
        let ride = Self.ride(path, stopsAt: [(5, 1_200), (5, 1_800)], start: SyntheticGTFS.tuesday(8, 12, 30))
        let line = try #require(index.line(for: ride).line)
        let trip = try #require(line.timetable, "\(line.timetableNote ?? "")")
        #expect(trip.tripID == "up" && trip.serviceDate == "2024-03-05" && line.timetableNote == nil)
        #expect(trip.scheduledDepartureText == "08:11:00" && trip.scheduledArrivalText == "08:14:00")
        #expect(trip.departureDelaySeconds == 90 && trip.arrivalDelaySeconds == ride.last!.0 - SyntheticGTFS.tuesday(8, 14), "\(trip)")

        // After midnight: trip "late" of Tuesday's service leaves N1 at 24:31:00, and N2 is no timepoint.
        let night = try #require(index.line(for: Self.ride(path, start: SyntheticGTFS.tuesday(24, 31, 20))).line?.timetable)
        #expect(night.tripID == "late" && night.serviceDate == "2024-03-05" && night.scheduledDepartureText == "24:31:00", "\(night)")
        #expect(night.departureDelaySeconds == 20 && night.scheduledArrivalText == "24:34:00")
        let late = try #require(index.patterns.lazy.flatMap(\.timetable).first { $0.id == "late" })
        #expect(late.arrivals == [88_200, 88_260, 88_320, 88_380, 88_440], "N2 halfway between N1 and N3 by stop")

        let saturday = try #require(index.line(for: Self.ride(path, start: SyntheticGTFS.tuesday(8, 12, 30) + 4 * 86_400)).line)
        #expect(
            saturday.timetable == nil
                && saturday.timetableNote
                    == "no trip of route L runs from N1 to N4 on 2024-03-09 within 5 min early to 60 min late of the ride",
            "\(saturday.timetableNote ?? "")")
        let nextYear = try #require(index.line(for: Self.ride(path, start: SyntheticGTFS.tuesday(8, 12, 30) + 365 * 86_400)).line)
        #expect(nextYear.timetableNote == "2025-03-05 is outside town's service dates 2024-01-01 – 2024-12-31", "\(nextYear)")
        // Seen first 300 m out of N1: no departure observed; the arrival at N4 still finds the trip.
        let seenOut = Self.ride([(0, 900), (0, 2_400)], start: SyntheticGTFS.tuesday(8, 12))
        let out = try #require(index.line(for: seenOut).line?.timetable)
        #expect(
            out.tripID == "up" && out.departureDelaySeconds == nil
                && out.arrivalDelaySeconds == seenOut.last!.0 - SyntheticGTFS.tuesday(8, 14))
    }

    @Test func aTimeThatIsNoneNamesItsFileAndLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("town")
        try SyntheticGTFS.writeTown(path)
        try "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nup,08:00:00,08:00:00,N0,1\nup,8h01,8h01,N1,2\n".write(
            toFile: (path as NSString).appendingPathComponent("stop_times.txt"), atomically: true, encoding: .utf8)
        let failure = #expect(throws: PipelineError.self) { try TransitNetwork.load(paths: [path]) { _ in } }
        #expect(
            failure?.code == .invalidTransitFeed
                && "\(failure!)".hasSuffix("town/stop_times.txt:3: arrival_time \"8h01\" is not a time HH:MM:SS (GTFS \"Time\")"),
            "\(failure.map { "\($0)" } ?? "")")
    }

    @Test func theExpressIsTheLineOfARideThatStopsNowhereBetween() throws {
        let folder = try TemporaryFolder()
        let index = try index(folder)
        let straight = try #require(index.line(for: Self.ride([(0, 0), (0, 2_400)])).line)
        #expect(straight.routeID == "X" && straight.routeName == "Express North", "no short name: the long one")
        let local = try #require(
            index.line(for: Self.ride([(0, 0), (0, 600), (0, 1_200), (0, 2_400)], stopsAt: [(0, 600), (0, 1_200)])).line)
        #expect(local.routeID == "L" && local.stationStops == 4, "\(local)")
        // At 09:10 no express runs, the local's "up2" does: on one track, the timetable decides.
        let nine = try #require(index.line(for: Self.ride([(0, 0), (0, 2_400)], start: SyntheticGTFS.tuesday(9, 10, 20))).line)
        #expect(nine.routeID == "L" && nine.timetable?.tripID == "up2" && nine.timetable?.departureDelaySeconds == 20, "\(nine)")
        let eight = try #require(index.line(for: Self.ride([(0, 0), (0, 2_400)], start: SyntheticGTFS.tuesday(8, 10, 20))).line)
        #expect(eight.routeID == "X" && eight.timetable?.tripID == "x", "at 08:10 the express runs: \(eight)")
    }

    @Test func aRideNoLineFitsSaysWhy() throws {
        let folder = try TemporaryFolder()
        let index = try index(folder)
        let elsewhere = index.line(for: Self.ride([(3_000, 0), (3_000, 2_400)]))
        #expect(elsewhere.line == nil && elsewhere.note == "no stop of the feeds within 1,500 m of where the ride began")
        // From N0 to N4 by a road 300 m east of the route.
        let detour = index.line(for: Self.ride([(0, 0), (300, 100), (300, 2_300), (0, 2_400)]))
        #expect(
            detour.line == nil
                && detour.note == "routes call near both ends but the ride runs along none: fewer than half its fixes within 50 m of one",
            "\(detour)")
        // From N4 on north, past the end of every route: nothing calls after N4 that way.
        let beyond = index.line(for: Self.ride([(0, 2_400), (0, 3_000)]))
        #expect(beyond.line == nil && beyond.note == "no route of the feeds calls near both ends of the ride in this order", "\(beyond)")
    }

    /// BART's own feed (`../shared/data/gtfs`): a ride along route 01's shape from Concord to
    /// North Concord/Martinez, where only the Antioch line runs, is route 01 towards Antioch
    /// (direction 1), boarding at CONC and alighting at NCON: subway, a train.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func aRideOnBARTsShapeIsItsRouteAndStations() throws {
        let network = try TransitNetwork.load(paths: [SharedData.path("gtfs/bart-2018-05-26.zip")]) { _ in }
        let index = network.index
        let concord = try #require(index.stops.firstIndex { $0.id == "CONC" })
        let north = try #require(index.stops.firstIndex { $0.id == "NCON" })
        let pattern = try #require(
            index.patterns.first { pattern in
                guard let a = pattern.stops.firstIndex(of: concord), let b = pattern.stops.firstIndex(of: north) else { return false }
                return a < b
            })
        // Fixes on the shape between the two stations, every fifth point, 15 m east of it.
        let a = pattern.stops.firstIndex(of: concord)!, b = pattern.stops.firstIndex(of: north)!
        func nearest(_ stop: Int) -> Int {
            let s = index.stops[stop]
            return pattern.path.indices.min { i, j in
                hypot(pattern.path[i].0 - s.latitudeDegrees, pattern.path[i].1 - s.longitudeDegrees)
                    < hypot(pattern.path[j].0 - s.latitudeDegrees, pattern.path[j].1 - s.longitudeDegrees)
            }!
        }
        let from = nearest(pattern.stops[a]), to = nearest(pattern.stops[b])
        #expect(to - from > 10, "the shape runs between the stations: \(from)…\(to)")
        let eastDegrees = 15 / (Geodesy.earthRadiusMeters * .pi / 180 * cos(38 * .pi / 180))
        let fixes = stride(from: from, through: to, by: 5).enumerated().map { number, point in
            (Double(number) * 10, pattern.path[point].0, pattern.path[point].1 + eastDegrees)
        }
        let (line, note) = index.line(for: fixes)
        let found = try #require(line, "\(note ?? "")")
        #expect(found.feed == "bart-2018-05-26" && found.agency == "Bay Area Rapid Transit", "\(found)")
        #expect(found.routeID == "01" && found.routeName == "Antioch - SFIA/Millbrae" && found.direction == 1, "\(found)")
        #expect(found.board.stopID == "CONC" && found.board.name == "Concord" && found.alight.stopID == "NCON", "\(found)")
        #expect(found.routeTypeName == "subway" && found.kind == .rail && found.stationStops == 2, "\(found)")
    }
}
