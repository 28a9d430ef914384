import Foundation
import MobilityCore
import TestSupport
import Testing

/// `pipeline run --transit` on a GTFS feed the test writes (`SyntheticGTFS`: a bus line along
/// a street, a subway line 2 km north): a GPS-only bus ride is named bus and says why in
/// `triplegs.csv`, and a long ride underground is a ride, not a stay.
@Suite(.serialized) struct TransitTests {
    let cli = PipelineCLI()

    /// A GPS track written fix by fix, in metres east and north of the street's start.
    struct Track {
        var points: [GPXBuilder.Point] = []
        var clock: Timestamp

        /// A fix here now, and the next `seconds` later.
        mutating func at(_ east: Double, _ north: Double, seconds: Double) {
            let (lat, lon) = SyntheticGTFS.position(east: east, north: north)
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
        try SyntheticGTFS.writeFeed(folder.file("feed"))
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
        try SyntheticGTFS.writeFeed(folder.file("feed"))
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
        #expect(
            run.status == 0
                && run.stderr.contains("transit: feed (feed): no agency named, no calendar; 21 stops (7 rail, 14 bus), 2 corridors"),
            "\(run.stderr)")
        let everyLeg = try Self.legs(folder.file("out/restricted/triplegs.csv"))
        let named = everyLeg.filter { $0["mode_source"] == "transit" }.count
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        let operatorsPage = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        let gave = "of \(everyLeg.count) triplegs start or end within 2 km of its stops, \(named) named by it"
        #expect(
            named > 0 && report.contains("Transit feed feed: 21 stops (7 rail, 14 bus), 2 corridors")
                && !report.contains("triplegs start or end within 2 km")
                && operatorsPage.contains("Transit feed feed: 21 stops (7 rail, 14 bus), 2 corridors") && operatorsPage.contains(gave),
            "the published report names the feed; only the operator's page counts the legs it gave (counts of legs, not of k persons)")
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
        let line = try #require(underground.first)
        #expect(
            line["transit_feed"] == "feed" && line["transit_route_id"] == "M1" && line["transit_route_name"] == "M"
                && line["transit_route_type"] == "subway" && line["transit_direction"] == "" && line["board_stop_id"] == "S0P"
                && line["board_stop_name"] == "Station 0 platform" && line["alight_stop_id"] == "S1P"
                && line["transit_station_stops"] == "2" && line["transit_line_note"] == "",
            "the ride underground is line M from station 0 to station 1: \(line)")
        #expect(
            metro.filter { $0["travel_mode"] == "walk" }.allSatisfy { $0["transit_route_id"] == "" && $0["transit_line_note"] == "" },
            "no line is sought for a walk")
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
            // The ride began at the street's start, 400 m before the line's first stop and off its path: no line, and why.
            #expect(
                leg["transit_route_id"] == ""
                    && leg["transit_line_note"] == "no route of the feeds calls near both ends of the ride in this order",
                "\(leg)")
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

    /// A region's feeds together: `--transit` twice, a folder of feeds, or `transit.feeds`, each
    /// feed with its own `--json` object; a feed that cannot be read stops the run before any
    /// stage, naming its file and line.
    @Test func severalFeedsServeTheLegsTogetherAndEachSaysWhatItGave() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("region/city"))
        // Another agency's feed, one bus stop 100 km away, with equal ids and a calendar.
        _ = try folder.write("region/far/agency.txt", "agency_name,agency_timezone\nFar Buses,Europe/Paris\n")
        _ = try folder.write("region/far/stops.txt", "stop_id,stop_lat,stop_lon\nB1,49.0,3.2\n")
        _ = try folder.write("region/far/routes.txt", "route_id,route_type\nR1,3\n")
        _ = try folder.write("region/far/trips.txt", "route_id,service_id,trip_id\nR1,WD,bus1\n")
        _ = try folder.write("region/far/stop_times.txt", "trip_id,stop_id,stop_sequence\nbus1,B1,1\n")
        _ = try folder.write(
            "region/far/calendar.txt",
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20240101,20241231\n")
        _ = try folder.write("in/commuter.gpx", Self.day())
        let model = try Self.rulesForGPS(in: folder)
        func feeds(_ run: PipelineCLI.Outcome) throws -> [[String: Any]] {
            let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
            return try #require(summary["transit"] as? [[String: Any]], "\(run.stdout)")
        }
        let twice = try cli.pipeline(
            ["run", "in", "--out", "twice", "--model", model, "--transit", "region/city", "--transit", "region/far", "--json"],
            in: folder.path)
        #expect(twice.status == 0, "\(twice.stderr)")
        let given = try feeds(twice)
        #expect(given.map { $0["feed"] as? String } == ["city", "far"], "both feeds, in the order given: \(given)")
        #expect((given[0]["legs_matched"] as? Int ?? 0) >= 1 && given[1]["legs_matched"] as? Int == 0, "\(given)")
        #expect(given[1]["agency"] as? String == "Far Buses" && given[1]["service_start"] as? String == "2024-01-01")
        #expect(given[1]["legs_outside_dates"] as? Int == 0 && given[0]["service_start"] is NSNull && given[0]["warning"] is String)
        #expect(
            twice.stderr.contains("transit: far (region/far): Far Buses, service 2024-01-01 – 2024-12-31 (Europe/Paris); 1 stops"),
            "\(twice.stderr)")
        #expect(twice.stderr.contains("warning: transit: region/city has no calendar.txt or calendar_dates.txt"), "\(twice.stderr)")
        let bus = try Self.legs(folder.file("twice/restricted/triplegs.csv")).filter { $0["mode_source"] == "transit" }
        #expect(!bus.isEmpty && bus.allSatisfy { $0["travel_mode"] == "bus" }, "the city's bus line still names its ride: \(bus)")

        let report = try String(contentsOfFile: folder.file("twice/report.html"), encoding: .utf8)
        let operatorsPage = try String(contentsOfFile: folder.file("twice/restricted/report.html"), encoding: .utf8)
        #expect(
            report.contains("Transit feeds city: 21 stops (7 rail, 14 bus), 2 corridors") && !report.contains("along its lines")
                && operatorsPage.contains("Transit feeds city: 21 stops (7 rail, 14 bus), 2 corridors")
                && operatorsPage.contains("; far: 0 along its lines"),
            "the report names each feed; the operator's page what each gave")

        let whole = try cli.pipeline(["run", "in", "--out", "whole", "--model", model, "--transit", "region", "--json"], in: folder.path)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try feeds(whole).map { $0["feed"] as? String } == ["city", "far"], "a folder of feeds: \(whole.stderr)")
        _ = try folder.write("config.yaml", "transit:\n  feeds: [region/city, region/far]\n")
        let configured = try cli.pipeline(
            ["run", "in", "--out", "configured", "--model", model, "--config", "config.yaml", "--json"], in: folder.path)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(try feeds(configured).count == 2, "\(configured.stderr)")
        #expect(
            try String(contentsOfFile: folder.file("configured/restricted/triplegs.csv"), encoding: .utf8)
                == String(contentsOfFile: folder.file("twice/restricted/triplegs.csv"), encoding: .utf8), "the same feeds, the same legs")

        _ = try folder.write("region/far/routes.txt", "route_id\nR1\n")
        let broken = try cli.pipeline(["run", "in", "--out", "broken", "--model", model, "--transit", "region"], in: folder.path)
        #expect(
            broken.status == 64 && broken.stderr.contains("region/far/routes.txt:1") && broken.stderr.contains("route_type"),
            "exit 64 naming the file and line: \(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("broken/restricted/pipeline.sqlite")), "before any stage, no store")
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
