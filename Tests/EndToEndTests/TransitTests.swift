import Classify
import Foundation
import Fusion
import MobilityCore
import TestSupport
import Testing
import Transit
import Trips
import ZIPFoundation

/// Transit context from a GTFS feed the test writes: a bus line with stops every 400 m along
/// a street at 48° N, and a subway line 2 km north with three stations (one with an entrance).
/// The feed is read from a folder and a zip, indexed, matched against legs, and `pipeline run
/// --transit` names a GPS-only bus ride bus and says why in `triplegs.csv`.
@Suite(.serialized) struct TransitTests {
    let cli = PipelineCLI()
    static let latitude = 48.0, longitude = 2.0
    static let metresPerDegreeLatitude = Geodesy.earthRadiusMeters * Double.pi / 180
    static var metresPerDegreeLongitude: Double { metresPerDegreeLatitude * cos(latitude * Double.pi / 180) }

    /// The position `east` metres east and `north` metres north of the street's start.
    static func position(east: Double, north: Double = 0) -> (Double, Double) {
        (latitude + north / metresPerDegreeLatitude, longitude + east / metresPerDegreeLongitude)
    }

    static func writeFeed(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) throws {
            try (lines.joined(separator: "\r\n") + "\r\n").write(
                toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var stops = ["\u{FEFF}stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station"]
        var times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        for k in 1...14 {
            let (lat, lon) = position(east: Double(k) * 400, north: 8)
            stops.append("B\(k),\"Main St \(k)\",\(lat),\(lon),0,")
            times.append("bus1,08:\(String(format: "%02d", k)):00,08:\(String(format: "%02d", k)):00,B\(k),\(k)")
        }
        for (k, east) in [0.0, 3000, 6000].enumerated() {
            let (lat, lon) = position(east: east, north: 2000)
            stops.append("S\(k),Station \(k),\(lat),\(lon),1,")
            stops.append("S\(k)P,Station \(k) platform,\(lat),\(lon),0,S\(k)")
            times.append("metro1,09:0\(k):00,09:0\(k):00,S\(k)P,\(k + 1)")
        }
        let (entranceLatitude, entranceLongitude) = position(east: 3000, north: 2150)
        stops.append("S1E,Station 1 entrance,\(entranceLatitude),\(entranceLongitude),2,S1")
        stops.append("X,No coordinates,,,0,")
        try write("stops.txt", stops)
        try write("stop_times.txt", times)
        try write("routes.txt", ["route_id,route_short_name,route_type", "R1,1,3", "M1,M,1", "G,gondola,6"])
        try write("trips.txt", ["route_id,service_id,trip_id,shape_id", "R1,WD,bus1,", "M1,WD,metro1,shM", "G,WD,gondola1,"])
        var shape = ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"]
        for (n, east) in stride(from: 0.0, through: 6000, by: 500).enumerated().reversed() { // out of order on purpose
            let (lat, lon) = position(east: east, north: 2000)
            shape.append("shM,\(lat),\(lon),\(n + 1)")
        }
        try write("shapes.txt", shape)
    }

    @Test func aFeedGivesStopKindsAndCorridorsFromAFolderOrAZip() throws {
        let folder = try TemporaryFolder()
        try Self.writeFeed(folder.file("feed"))
        let feed = try GTFSFeed.load(path: folder.file("feed"))
        #expect(feed.routes == 3 && feed.routesWithoutKind == 1, "the gondola has no kind")
        #expect(feed.skippedRows == 1, "the stop without coordinates")
        let kinds = Dictionary(uniqueKeysWithValues: feed.stops.map { ($0.id, $0.kinds) })
        #expect(kinds["B3"] == TransitKinds(.bus) && kinds["S1P"] == TransitKinds(.rail))
        #expect(kinds["S1"] == TransitKinds(.rail) && kinds["S1E"] == TransitKinds(.rail), "up to the station, down to its entrance")
        #expect(feed.stopsPerKind == [.bus: 14, .rail: 7], "3 stations, their 3 platforms and an entrance")
        // The metro's shape (13 points, read in sequence order) and the bus's stop pattern.
        #expect(feed.shapesUsed == 1 && feed.stopPatterns == 1 && feed.corridors.count == 2)
        let rail = try #require(feed.corridors.first { $0.kinds == TransitKinds(.rail) })
        #expect(rail.points.count == 13 && rail.points.first!.1 < rail.points.last!.1)

        let zip = folder.file("feed.zip")
        let archive = try Archive(url: URL(fileURLWithPath: zip), accessMode: .create, pathEncoding: nil)
        try FileManager.default.createDirectory(atPath: folder.file("wrapped"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.file("feed"), toPath: folder.file("wrapped/gtfs"))
        for name in ["stops.txt", "stop_times.txt", "routes.txt", "trips.txt", "shapes.txt"] { // in one folder, as some agencies zip it
            try archive.addEntry(
                with: "gtfs/" + name, relativeTo: URL(fileURLWithPath: folder.file("wrapped")), compressionMethod: .deflate)
        }
        let zipped = try GTFSFeed.load(path: zip)
        #expect(zipped.stops.count == feed.stops.count && zipped.corridors.count == 2 && zipped.summary == feed.summary)

        try FileManager.default.removeItem(atPath: folder.file("feed/trips.txt"))
        let thrown1 = #expect(throws: PipelineError.self) { try GTFSFeed.load(path: folder.file("feed")) }
        #expect(thrown1?.code == .invalidTransitFeed)
        do { _ = try GTFSFeed.load(path: folder.file("feed")) } catch { #expect("\(error)".contains("needs trips.txt")) }
    }

    /// The grid's answers against brute force over every stop, with haversine distances.
    @Test func theIndexFindsWhatBruteForceFinds() throws {
        let folder = try TemporaryFolder()
        try Self.writeFeed(folder.file("feed"))
        let feed = try GTFSFeed.load(path: folder.file("feed"))
        let index = TransitIndex(feed)
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<300 {
            let east = Double(generator.next() % 8000) - 1000, north = Double(generator.next() % 3000) - 500
            let (lat, lon) = Self.position(east: east, north: north)
            for kind in [TransitKind.bus, .rail] {
                let brute = feed.stops.filter { $0.kinds.contains(kind) }
                    .map {
                        Geodesy.haversineMeters(
                            latitude1: lat, longitude1: lon, latitude2: $0.latitudeDegrees, longitude2: $0.longitudeDegrees)
                    }.min()!
                let found = index.nearestStopMeters(lat, lon, kind: kind)
                #expect(
                    abs(found - min(brute, TransitIndex.maxSearchMeters)) <= 0.005 * brute + 0.01,
                    "\(kind) at \(east), \(north): \(found) vs \(brute)")
            }
            // Within 30 m of the metro's line (north = 2000 from east 0 to 6000), and only there.
            let nearRail = abs(north - 2000) <= 29.9 && east >= 0 && east <= 6000
            let farRail = abs(north - 2000) >= 30.1 || east < -30.1 || east > 6030.1
            let kinds = index.corridorKinds(lat, lon, within: 30)
            if nearRail { #expect(kinds.contains(.rail)) }
            if farRail { #expect(!kinds.contains(.rail)) }
        }
    }

    @Test func aMotorisedRideIsTrainOrBusOnlyWithTheFeedsEvidence() {
        let fusion = LegFusion(legModel: nil, imuClasses: [], transit: nil)
        var match = TransitMatch()
        match.corridorShare = [.rail: 0.1, .bus: 0.95]
        match.stoppedAt = [.rail: 0, .bus: 6]
        match.stops = 8
        match.startMeters = [.rail: 1500, .bus: 20]
        match.endMeters = [.rail: 1800, .bus: 25]
        #expect(fusion.transitMode(match) == .bus)
        match.stops = 14 // most stops are not at bus stops: a car at lights along a bus route
        #expect(fusion.transitMode(match) == nil)
        match.stops = 8
        match.stoppedAt[.bus] = 1
        #expect(fusion.transitMode(match) == nil, "one stop at a bus stop is not a bus")
        // Underground: both ends at stations, no fixes for four minutes between.
        var metro = TransitMatch()
        metro.corridorShare = [.rail: 0, .bus: 0]
        metro.startMeters = [.rail: 120, .bus: 600]
        metro.endMeters = [.rail: 80, .bus: 700]
        metro.longestGapSeconds = 240
        #expect(fusion.transitMode(metro) == .train)
        metro.longestGapSeconds = 30
        #expect(fusion.transitMode(metro) == nil)
        metro.corridorShare[.rail] = 0.9
        #expect(fusion.transitMode(metro) == .train, "along rail and starting at a station")
    }

    /// The feed never overrules a vehicle type the IMU named with confidence; it types a leg the
    /// IMU only knows to be a vehicle.
    @Test func aFeedTypesAVehicleLegButNeverOverrulesAConfidentIMU() throws {
        let folder = try TemporaryFolder()
        try Self.writeFeed(folder.file("feed"))
        let transit = TransitIndex(try GTFSFeed.load(path: folder.file("feed")))
        // The bus ride along Main St: 10 m/s, 30 s at each of its stops.
        var points: [TrackPoint] = [], clock = 1_700_000_000.0, east = 0.0
        while east < 4000 {
            let (lat, lon) = Self.position(east: east)
            points.append(TrackPoint(timeSeconds: clock, latitudeDegrees: lat, longitudeDegrees: lon))
            clock += 2
            let next = east + 20
            if Int(next) % 400 == 0 {
                for _ in 0..<15 {
                    let (lat, lon) = Self.position(east: next)
                    points.append(TrackPoint(timeSeconds: clock, latitudeDegrees: lat, longitudeDegrees: lon))
                    clock += 2
                }
            }
            east = next
        }
        let track = DeviceTrack(device: "eve", points: points)
        func decide(_ windows: [Mode]) -> Tripleg {
            let spans = stride(from: points[0].timeSeconds, to: points.last!.timeSeconds, by: 30).enumerated().map { index, t in
                ModeSpan(startSeconds: t, endSeconds: t + 30, mode: windows[index % windows.count], source: .model)
            }
            var legs = [
                Tripleg(
                    device: "eve", firstFix: 0, lastFix: points.count - 1, startSeconds: points[0].timeSeconds,
                    endSeconds: points.last!.timeSeconds, distanceMeters: 4000, mode: windows[0], modeSource: .model)
            ]
            LegFusion(legModel: nil, imuClasses: [.still, .walk, .car, .bus, .train], transit: transit).apply(
                track, legs: &legs, imuSpans: spans)
            return legs[0]
        }
        let confident = decide([.car])
        #expect(confident.mode == .car && confident.modeSource == .model && confident.evidence?.transit != nil)
        #expect(confident.modeNote == "the IMU windows' car stands against the transit feed's bus", "\(confident.modeNote ?? "")")
        // Car and train in turn: a vehicle, not which (no GPS leg model); the feed says bus.
        let vehicle = decide([.car, .train])
        #expect(
            vehicle.mode == .bus && vehicle.modeSource == .transit,
            "\(String(describing: vehicle.mode)) \(String(describing: vehicle.modeSource))")
    }

    /// A GPS track written fix by fix, in metres east and north of the street's start.
    struct Track {
        var points: [GPXBuilder.Point] = []
        var clock: Timestamp

        /// A fix here now, and the next `seconds` later.
        mutating func at(_ east: Double, _ north: Double, seconds: Double) {
            let (lat, lon) = position(east: east, north: north)
            points.append(GPXBuilder.Point(lat, lon, time: clock))
            clock = clock.adding(seconds: seconds)
        }

        var gpx: String {
            var builder = GPXBuilder()
            builder.tracks = [[points]]
            return builder.text
        }
    }

    /// A GPS-only day: home, a bus ride of 4 km stopping 30 s at every bus stop, the office; then
    /// a drive on a road 1 km south (no route) stopping at lights, and home.
    static func day() -> String {
        var track = Track(clock: Timestamp(secondsSince1970: 1_700_000_000))
        func at(_ east: Double, _ north: Double, seconds: Double) { track.at(east, north, seconds: seconds) }
        for _ in 0..<120 { at(-300, 0, seconds: 10) } // 20 min at home
        for step in 0..<108 { at(-300 + Double(step) * 2.8, 0, seconds: 2) } // walk to the stop
        var east = 0.0
        while east < 4000 { // the bus: 10 m/s, 30 s at each stop
            at(east, 0, seconds: 2)
            let next = east + 20
            if Int(next) % 400 == 0 { for _ in 0..<15 { at(next, 0, seconds: 2) } }
            east = next
        }
        for step in 0..<36 { at(4000, Double(step) * 2.8, seconds: 2) } // walk to the office
        for _ in 0..<120 { at(4000, 100, seconds: 10) }
        for step in 0..<36 { at(4000, 100 - Double(step) * 3, seconds: 2) }
        east = 4000
        var north = -1000.0
        for step in 0..<50 { at(4000, -Double(step) * 20, seconds: 2) } // to the southern road
        while east > 0 { // the car: 14 m/s, a 30 s light every 700 m
            at(east, north, seconds: 2)
            east -= 28
            if Int(east) % 700 < 28 { for _ in 0..<15 { at(east, north, seconds: 2) } }
        }
        north = -1000
        for _ in 0..<120 { at(0, north, seconds: 10) }
        return track.gpx
    }

    /// Another person, GPS only, takes the metro: a walk to station 0, four minutes without a fix
    /// underground, then a walk from station 1, 3 km east. (Five minutes or more without a fix
    /// make a staypoint at station 0, as trackintel's sliding method does, and no leg holds
    /// the ride: see the README.)
    static func metroDay(undergroundSeconds: Double = 240) -> String {
        var track = Track(clock: Timestamp(secondsSince1970: 1_700_100_000))
        func at(_ east: Double, _ north: Double, seconds: Double) { track.at(east, north, seconds: seconds) }
        for _ in 0..<120 { at(-250, 2000, seconds: 10) }
        // The last fix at the station, then underground.
        for step in 0...90 { at(-250 + Double(step) * 2.8, 2000, seconds: step == 90 ? undergroundSeconds : 2) }
        for step in 0..<72 { at(3000, 2000 + Double(step) * 2.8, seconds: 2) }
        for _ in 0..<120 { at(3000, 2200, seconds: 10) }
        return track.gpx
    }

    @Test func aLongRideUndergroundIsARideNotAStayAtItsFirstStation() throws {
        // Ten minutes without a fix between two stations 3.3 km apart: by trackintel's sliding
        // method (100 m, 5 min) a staypoint at the first station that holds the ride, and no
        // leg; with the feed, the stay ends at the last fix before the tunnel and the ride is a
        // train leg between the two walks, inside one trip from home to work.
        let folder = try TemporaryFolder()
        try Self.writeFeed(folder.file("feed"))
        _ = try folder.write("in/rider.gpx", Self.metroDay(undergroundSeconds: 600))
        let model = try Self.rulesForGPS(in: folder)
        let plain = try cli.pipeline(["run", "in", "--out", "plain", "--model", model], in: folder.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        let bareStays = try Self.legs(folder.file("plain/restricted/staypoints.csv"))
        #expect(
            bareStays.count == 3 && bareStays.contains { Double($0["duration_s"]!)! >= 600 && Double($0["duration_s"]!)! < 700 },
            "without a feed the ride is a stay at the first station: \(bareStays.map { $0["duration_s"]! })")
        #expect(try !Self.legs(folder.file("plain/restricted/triplegs.csv")).contains { $0["travel_mode"] == "train" })

        let run = try cli.pipeline(["run", "in", "--out", "out", "--model", model, "--transit", "feed"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let stays = try Self.legs(folder.file("out/restricted/staypoints.csv"))
        #expect(
            stays.count == 2 && stays.allSatisfy { Double($0["duration_s"]!)! >= 1190 },
            "home and work only: \(stays.map { $0["duration_s"]! })")
        let legs = try Self.legs(folder.file("out/restricted/triplegs.csv"))
        #expect(
            legs.map { $0["travel_mode"]! } == ["walk", "train", "walk"], "\(legs.map { "\($0["travel_mode"]!) \($0["duration_s"]!) s" })")
        #expect(legs[1]["duration_s"] == "600.0" && legs[1]["mode_source"] == "transit" && legs[1]["longest_gap_s"] == "600.0")
        let trips = try Self.legs(folder.file("out/restricted/trips.csv"))
        let legSeconds = legs.map { Double($0["duration_s"]!)! }.reduce(0, +)
        #expect(
            trips.count == 1 && abs(Double(trips[0]["duration_s"]!)! - legSeconds) < 1,
            "one trip from home to work, its legs end to end: \(trips)")
    }

    @Test func runWithTransitNamesTheBusRideAndKeepsItsEvidence() throws {
        let folder = try TemporaryFolder()
        try Self.writeFeed(folder.file("feed"))
        _ = try folder.write("in/commuter.gpx", Self.day())
        _ = try folder.write("in/rider.gpx", Self.metroDay())
        // The shipped model without its GPS leg model, so that without a feed the speed rules
        // name the GPS-only legs (the bus ride car, at 10 m/s) and the feed's part is plain.
        let shipped = try Self.rulesForGPS(in: folder)
        let plain = try cli.pipeline(["run", "in", "--out", "plain", "--model", shipped], in: folder.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        let bare = try Self.legs(folder.file("plain/restricted/triplegs.csv"))
        #expect(bare.allSatisfy { $0["bus_corridor_share"] == "" && $0["end_rail_stop_m"] == "" }, "no feed: transit columns empty")
        #expect(
            !bare.contains { $0["device"] == "rider" && $0["travel_mode"] == "train" }, "without a feed the metro ride is hidden in a walk")
        print(
            "without a feed: "
                + bare.map { "\($0["travel_mode"]!) (\($0["mode_source"]!), \($0["duration_s"]!) s)" }.joined(separator: ", "))
        let start = 1_700_000_000.0 + 1200 + 216, busEnd = start + 700 // 400 s driving, 10 stops of 30 s
        func ride(_ legs: [[String: String]]) -> [[String: String]] {
            legs.filter {
                $0["device"] == "commuter" && Double($0["started_unix_s"]!)! >= start - 30 && Double($0["finished_unix_s"]!)! <= busEnd + 30
                    && $0["travel_mode"] != "walk" && $0["travel_mode"] != "still"
            }
        }
        #expect(
            !ride(bare).isEmpty && ride(bare).allSatisfy { $0["travel_mode"] == "car" && $0["mode_source"] == "gps_rules" }, "\(ride(bare))"
        )
        let plainReport = try String(contentsOfFile: folder.file("plain/report.html"), encoding: .utf8)
        #expect(!plainReport.contains("Transit feed"), "no feed, no feed line")

        let run = try cli.pipeline(["run", "in", "--out", "out", "--model", shipped, "--transit", "feed"], in: folder.path)
        #expect(run.status == 0 && run.stderr.contains("transit: feed: 21 stops (7 rail, 14 bus), 2 corridors"), "\(run.stderr)")
        let everyLeg = try Self.legs(folder.file("out/restricted/triplegs.csv"))
        let named = everyLeg.filter { $0["mode_source"] == "transit" }.count
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(
            named > 0 && report.contains("Transit feed feed: 21 stops (7 rail, 14 bus), 2 corridors")
                && report.contains("of \(everyLeg.count) triplegs start or end within 2 km of its stops, \(named) named by it"),
            "the report names the feed and what it gave the legs")
        let metro = everyLeg.filter { $0["device"] == "rider" }
        print(
            "the metro rider with the feed: "
                + metro.map { "\($0["travel_mode"]!) (\($0["mode_source"]!), \($0["duration_s"]!) s)" }.joined(separator: ", "))
        let underground = metro.filter { $0["travel_mode"] == "train" }
        #expect(
            underground.count == 1 && underground.first?["mode_source"] == "transit" && underground.first?["duration_s"] == "240.0",
            "\(metro)")
        #expect(
            Double(underground.first?["start_rail_stop_m"] ?? "") ?? 999 <= 20 && Double(underground.first?["longest_gap_s"] ?? "") == 240)
        #expect(metro.filter { $0["travel_mode"] == "walk" }.count == 2, "the walks to and from the stations stay walks: \(metro)")
        let legs = everyLeg.filter { $0["device"] == "commuter" }
        print(
            "with the feed: " + legs.map { "\($0["travel_mode"]!) (\($0["mode_source"]!), \($0["duration_s"]!) s)" }.joined(separator: ", ")
        )
        let busRide = ride(legs)
        let rideSeconds = busRide.map { Double($0["duration_s"]!)! }.reduce(0, +)
        let busSeconds = busRide.filter { $0["travel_mode"] == "bus" && $0["mode_source"] == "transit" }.map { Double($0["duration_s"]!)! }
            .reduce(0, +)
        #expect(rideSeconds > 300 && busSeconds >= 0.9 * rideSeconds, "bus \(busSeconds) of \(rideSeconds) s")
        for leg in busRide {
            #expect(Double(leg["bus_corridor_share"]!)! > 0.9 && Int(leg["bus_stops_stopped_at"]!)! >= 8, "\(leg)")
            #expect(Double(leg["start_rail_stop_m"]!)! > 1500 && leg["gps_p_bus"] == "", "no leg model, no probabilities: \(leg)")
        }
        let drive = legs.filter { Double($0["started_unix_s"]!)! > busEnd + 1200 && ["car", "bus", "train"].contains($0["travel_mode"]!) }
        #expect(
            !drive.isEmpty
                && drive.allSatisfy {
                    $0["travel_mode"] == "car" && $0["mode_source"] != "transit" && Double($0["bus_corridor_share"]!)! < 0.1
                }, "\(drive)")

        let again = try cli.pipeline(["run", "in", "--out", "out", "--model", shipped, "--transit", "feed"], in: folder.path)
        #expect(again.stderr.contains("nothing changed since the last run"), "\(again.stderr)")
        try "route_id,route_short_name,route_type\r\nR1,1,3\r\nM1,M,2\r\n".write(
            toFile: folder.file("feed/routes.txt"), atomically: true, encoding: .utf8)
        let changed = try cli.pipeline(["run", "in", "--out", "out", "--model", shipped, "--transit", "feed"], in: folder.path)
        #expect(!changed.stderr.contains("nothing changed since the last run"), "a changed feed re-runs the trips: \(changed.stderr)")
        let missing = try cli.pipeline(["run", "in", "--out", "out", "--transit", "nowhere.zip"], in: folder.path)
        #expect(
            missing.status == 64 && missing.stderr.contains("nowhere.zip: no such file or folder"),
            "said before any input is read: \(missing.stderr)")
        // A feed of another region (one bus stop 100 km away) decides nothing, and says so.
        _ = try folder.write("far/stops.txt", "stop_id,stop_lat,stop_lon\nF,49.0,3.2\n")
        _ = try folder.write("far/routes.txt", "route_id,route_type\nR,3\n")
        _ = try folder.write("far/trips.txt", "route_id,trip_id\nR,t\n")
        _ = try folder.write("far/stop_times.txt", "trip_id,stop_id,stop_sequence\nt,F,1\n")
        let far = try cli.pipeline(["run", "in", "--out", "far-out", "--model", shipped, "--transit", "far", "--json"], in: folder.path)
        let farSummary = try JSONSerialization.jsonObject(with: Data(far.stdout.utf8)) as! [String: Any]
        #expect(
            (farSummary["warnings"] as? [String])?.contains { $0.contains("within 2 km of a stop of the feed") } == true, "\(far.stderr)")
    }

    /// The shipped model without its GPS leg model, written into `folder`: GPS-only legs are
    /// then named by the speed rules, so what the feed changes is plain.
    static func rulesForGPS(in folder: TemporaryFolder) throws -> String {
        var json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: SharedData.projectRoot + "/models/mode-model.json"))) as! [String: Any]
        json.removeValue(forKey: "gps_legs")
        let path = folder.file("rules-for-gps.json")
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func legs(_ path: String) throws -> [[String: String]] {
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
    }
}
