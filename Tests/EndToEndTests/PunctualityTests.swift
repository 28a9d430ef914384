import Foundation
import MobilityCore
import TestSupport
import Testing

/// `punctuality.csv` through the real binary: three persons ride the town's route 7 north
/// (`SyntheticGTFS.writeTown`, trip `up` leaving `N0` at 08:10 on Tuesday 2024-03-05) and
/// leave 20 s, 60 s and 120 s after it; the table names the line, its direction and band, and
/// says in the log, `--json` and the report what it published and left out.
@Suite(.serialized) struct PunctualityTests {
    let cli = PipelineCLI()

    /// A day of one rider: 20 min at home 200 m west of `N0`, a walk to the stop, the bus north
    /// from `N0` at 08:10 + `lateSeconds` to `N4` (600 m in 50 s, 10 s at each stop between, as
    /// the timetable's minute a stop), a walk 150 m east and 20 min at work.
    static func rider(lateSeconds: Double) -> String {
        let leave = SyntheticGTFS.tuesday(8, 10) + lateSeconds
        var track = TransitTests.Track(clock: Timestamp(secondsSince1970: leave - 1_200 - 150))
        func at(_ east: Double, _ north: Double, seconds: Double) { track.at(east, north, seconds: seconds) }
        for _ in 0..<120 { at(-200, 0, seconds: 10) } // home
        for step in 0..<75 { at(-200 + Double(step) * 200 / 75, 0, seconds: 2) } // to the stop, 1.3 m/s
        for segment in 0..<4 { // the bus: 12 m/s between stops, 10 s at each
            for step in 0..<25 { at(0, Double(segment) * 600 + Double(step) * 24, seconds: 2) }
            if segment < 3 { for _ in 0..<5 { at(0, Double(segment + 1) * 600, seconds: 2) } }
        }
        for step in 0..<100 { at(Double(step) * 1.5, 2_400, seconds: 1) } // to work
        for _ in 0..<120 { at(150, 2_400, seconds: 10) }
        return track.gpx
    }

    func summary(_ run: PipelineCLI.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
    }

    @Test func threeRidersOnTheTimetabledBusMakeItsPunctualityRows() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeTown(folder.file("town"))
        for (name, late) in [("ann", 20.0), ("bo", 60.0), ("cy", 120.0)] {
            _ = try folder.write("in/\(name).gpx", Self.rider(lateSeconds: late))
        }
        let model = try TransitTests.rulesForGPS(in: folder)
        let run = try cli.pipeline(["run", "in", "--out", "out", "--model", model, "--transit", "town", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let legs = try CSVRows.read(folder.file("out/restricted/triplegs.csv")).filter { $0["transit_trip_id"] != "" }
        #expect(
            legs.count == 3 && legs.allSatisfy { $0["travel_mode"] == "bus" && $0["transit_trip_id"] == "up" },
            "each rider's bus leg on trip up: \(legs.map { "\($0["travel_mode"]!) \($0["transit_trip_id"]!) \($0["timetable_note"]!)" })")
        let delays = legs.compactMap { Double($0["arrival_delay_s"]!) }.sorted()
        #expect(
            delays.count == 3 && zip(delays, [20.0, 60, 120]).allSatisfy { abs($0 - $1) <= 30 },
            "arrivals at N4 about as late as the departures from N0: \(delays)")

        // k = 3 and all three on time (at most 5 min late): the whole day and the morning peak.
        let rows = try CSVRows.read(folder.file("out/punctuality.csv"))
        #expect(
            rows.map { "\($0["feed"]!) \($0["agency"]!) \($0["route_id"]!) \($0["route_name"]!) \($0["route_type"]!) \($0["direction"]!)" }
                == Array(repeating: "town Town Buses L 7 bus 0", count: 2), "\(rows)")
        #expect(
            rows.map { "\($0["time_band"]!) \($0["persons"]!) \($0["rides"]!) \($0["on_time_share"]!)" } == [
                "all_day 3 3 1.0000", "am_peak 3 3 1.0000"
            ])
        #expect(rows.allSatisfy { abs(Double($0["median_arrival_delay_s"]!)! - delays[1]) < 1e-6 && $0["on_time_late_s"] == "300" })
        let counts = try #require(try summary(run)["punctuality"] as? [String: Any])
        #expect(
            counts["rides_matched"] as? Int == 3 && counts["rides_timed"] as? Int == 3 && counts["rows"] as? Int == 2
                && counts["k"] as? Int == 3 && counts["on_time_early_s"] is NSNull && counts["suppressed_shares"] as? Int == 0,
            "\(counts)")
        #expect(run.stderr.contains("punctuality: 3 rides on a scheduled trip, 3 with their arrival seen"), "\(run.stderr)")
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(report.contains("Punctuality per line") && report.contains("Town Buses"))

        // At most 90 s late: cy's ride is late, ann's and bo's are not, each part fewer than
        // k = 3 persons'. Left out, the on-time rides would still lie between 0 and the row's 3
        // rides, short of the k the audit asks of their interval (2 + 3): the rows go too, as
        // rows beside the ones under k.
        let strict = try cli.pipeline(
            ["run", "in", "--out", "strict", "--model", model, "--transit", "town", "--on-time-late-s", "90", "--json"], in: folder.path)
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(try CSVRows.read(folder.file("strict/punctuality.csv")).isEmpty)
        let strictCounts = try #require(try summary(strict)["punctuality"] as? [String: Any])
        #expect(
            strictCounts["rows"] as? Int == 0 && strictCounts["complementary_rows"] as? Int == 2
                && strictCounts["on_time_late_s"] as? Double == 90, "\(strictCounts)")
        #expect(strict.stderr.contains("0 rows published, 0 made by fewer than k = 3 persons left out and 2 beside them"))

        // The same window from the configuration, beside the feed; a negative one is refused
        // before any stage, naming the file and the key.
        _ = try folder.write("strict.yaml", "transit:\n  feeds: [town]\n  on_time_late_seconds: 90\n")
        let configured = try cli.pipeline(
            ["run", "in", "--out", "configured", "--model", model, "--config", "strict.yaml"], in: folder.path)
        #expect(configured.status == 0 && configured.stderr.contains("and 2 beside them"), "\(configured.stderr)")
        _ = try folder.write("early.yaml", "transit:\n  on_time_early_seconds: -60\n")
        let refused = try cli.pipeline(["run", "in", "--out", "refused", "--model", model, "--config", "early.yaml"], in: folder.path)
        #expect(
            refused.status == 64 && refused.stderr.contains("early.yaml")
                && refused.stderr.contains("transit.on_time_late_seconds and on_time_early_seconds"),
            "\(refused.stderr)")
        let flag = try cli.pipeline(["run", "in", "--out", "refused", "--model", model, "--on-time-early-s=-1"], in: folder.path)
        #expect(flag.status == 64 && flag.stderr.contains("--on-time-late-s and --on-time-early-s must be ≥ 0"), "\(flag.stderr)")

        // Two riders only: fewer than k = 3 persons, no row; the log says so.
        try FileManager.default.removeItem(atPath: folder.file("in/cy.gpx"))
        let two = try cli.pipeline(["run", "in", "--out", "two", "--model", model, "--transit", "town"], in: folder.path)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(try CSVRows.read(folder.file("two/punctuality.csv")).isEmpty)
        #expect(two.stderr.contains("0 rows published, 2 made by fewer than k = 3 persons left out"), "\(two.stderr)")
    }
}
