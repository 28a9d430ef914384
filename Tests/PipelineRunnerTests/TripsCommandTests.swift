import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing
import Trips

/// `pipeline trips` on a store made by the real ingest from GPX and geofence files.
@Suite struct TripsCommandTests {
    static let start = 1_700_000_000.0
    static let metresPerDegree = 111_195.0

    /// A commute east along latitude 48: 30 min home, walk 400 m, drive 6 km, walk 240 m, 30 min at work; a fix every 5 s.
    static func commute() -> [GPXBuilder.Point] {
        var points: [GPXBuilder.Point] = []
        var time = start, east = 0.0
        func fix() {
            points.append(
                GPXBuilder.Point(48, 2 + east / (metresPerDegree * cos(48 * Double.pi / 180)), time: Timestamp(secondsSince1970: time)))
            time += 5
        }
        for _ in 0..<360 { fix() }
        for (distance, speed) in [(400.0, 1.4), (6000, 10), (240, 1.4)] {
            let target = east + distance
            while east < target { fix(); east = min(target, east + speed * 5) }
        }
        for _ in 0..<360 { fix() }
        return points
    }

    func makeStore(_ folder: TemporaryFolder, commuters: [String] = ["ana"]) throws -> String {
        var gpx = GPXBuilder()
        gpx.tracks = [[Self.commute()]]
        for commuter in commuters { try folder.write("traces/\(commuter)/commute.gpx", gpx.text) }
        let workLongitude = 2 + 6640 / (Self.metresPerDegree * cos(48 * Double.pi / 180))
        try folder.write(
            "traces/zones.csv", "id,name,kind,lat,lon,radius_m\nhome,Home,home,48,2,100\nwork,Office,work,48,\(workLongitude),100\n")
        var options = IngestOptions(paths: [folder.file("traces")], storePath: folder.file("out/pipeline.sqlite"))
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        return folder.file("out/pipeline.sqlite")
    }

    /// k counts persons on the geofence OD table: three persons' commutes make a published
    /// pair; two persons' (one of them with two phones) are suppressed, counted, and absent
    /// from the report's busiest pairs.
    @Test func aPairFewerThanKPersonsMadeIsNeverPublished() throws {
        let three = try TemporaryFolder()
        let summary = try TripsRun(storePath: try makeStore(three, commuters: ["ana", "ben", "cat"]), reportsFolder: three.file("out"))
            .run(progress: ProgressReporter(quiet: true))
        // The whole day's row, and the same commutes in their time band's (every commute leaves at one hour).
        let od = try CSVRows.read(three.file("out/od_matrix.csv"))
        #expect(od.count == 2 && od.map { $0["time_band"] == "all_day" } == [true, false], "\(od)")
        #expect(od.allSatisfy { $0["persons"] == "3" && $0["devices"] == "3" && $0["trips"] == "3" }, "\(od)")
        #expect(summary.odMatrix.pairs == 1 && summary.odMatrix.suppressedPairs == 0 && summary.odMatrix.minimumPersons == 3)

        let two = try TemporaryFolder()
        try two.write("traces/manifest.csv", "path,device,person\nana/*,ana-phone,ana\nana2/*,ana-tablet,ana\nben/*,ben-phone,ben\n")
        let store = try makeStore(two, commuters: ["ana", "ana2", "ben"])
        let suppressed = try TripsRun(storePath: store, reportsFolder: two.file("out")).run(progress: ProgressReporter(quiet: true))
        #expect(try CSVRows.read(two.file("out/od_matrix.csv")).isEmpty, "three devices, two persons: under k = 3")
        #expect(
            suppressed.odMatrix.suppressedPairs == 1 && suppressed.odMatrix.suppressedTrips == 3 && suppressed.odMatrix.minimumPersons == 3)
        let pairs = try PipelineStore(path: store).busiestGeofencePairs(limit: 20, minimumPersons: 3)
        #expect(pairs.pairs.isEmpty && pairs.suppressed == 1)
        #expect(try PipelineStore(path: store).busiestGeofencePairs(limit: 20, minimumPersons: 2).pairs.first?.persons == 2)
    }

    @Test func aCommuteGivesStaysDwellsATripAndEveryTable() throws {
        let folder = try TemporaryFolder()
        let store = try makeStore(folder)
        var run = TripsRun(storePath: store, reportsFolder: folder.file("out"))
        run.minimumPersons = 1 // one commuter: her OD pair is published only at k = 1 (aPairFewerThanKPersonsMadeIsNeverPublished)
        let summary = try run.run(progress: ProgressReporter(quiet: true))
        #expect(summary.devices == 1 && summary.staypoints == 2 && summary.dwells == 2 && summary.trips == 1 && summary.locations == 2)
        #expect(summary.legsByModeSource.keys.sorted() == ["gps_rules"])

        let trips = try CSVRows.read(folder.file("out/restricted/trips.csv"))
        #expect(trips.count == 1)
        #expect(
            trips[0]["origin_geofence_name"] == "Home" && trips[0]["destination_geofence_name"] == "Office"
                && trips[0]["main_mode"] == "car")
        #expect(trips[0]["leg_modes"] == "walk>car>walk")
        let od = try CSVRows.read(folder.file("out/od_matrix.csv")).filter { $0["time_band"] == "all_day" }
        #expect(od.count == 1 && od[0]["origin_name"] == "Home" && od[0]["destination_name"] == "Office" && od[0]["share_car"] == "1.0000")
        let split = try CSVRows.read(folder.file("out/modal_split.csv")).filter { $0["dimension"] == "all" }
        #expect(split.map { $0["travel_mode"]! } == ["walk", "car"] && split.first { $0["travel_mode"] == "car" }?["trips"] == "1")
        let stats = try CSVRows.read(folder.file("out/restricted/device_stats.csv"))
        // 22:13–23:30 UTC on 14 November 2023, at 48° N 2° E: in Paris's local time (UTC+1) that is two days.
        #expect(stats.count == 1 && stats[0]["device"] == "ana" && stats[0]["trips"] == "1" && stats[0]["days_observed"] == "2")
        let days = try CSVRows.read(folder.file("out/restricted/person_days.csv"))
        #expect(days.map { $0["local_date"]! } == ["2023-11-14", "2023-11-15"] && days.allSatisfy { $0["time_zone"] == "Europe/Paris" })
        #expect(summary.zoneSources == ["fixes": 1] && summary.zones == ["Europe/Paris"])
        #expect(try CSVRows.read(folder.file("out/restricted/dwells.csv")).map { $0["geofence_name"]! } == ["Home", "Office"])

        let legs =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("out/restricted/triplegs.geojson"))))
            as? [String: Any]
        let features = try #require(legs?["features"] as? [[String: Any]])
        #expect(features.count == 3)
        let properties = features.map { $0["properties"] as! [String: Any] }
        #expect(
            properties.map { $0["travel_mode"] as! String } == ["walk", "car", "walk"] && properties[1]["stroke"] as? String == "#c62828")
        for name in ["staypoints.geojson", "dwells.geojson"] {
            let object =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("out/restricted/\(name)"))))
                as? [String: Any]
            #expect((object?["features"] as? [Any])?.count == 2, "\(name)")
        }

        let counts = try PipelineStore(path: store).tableCounts()
        #expect(
            counts["staypoints"] == 2 && counts["dwells"] == 2 && counts["trips"] == 1 && counts["triplegs"] == 3
                && counts["locations"] == 2)
        let linked = try PipelineStore(path: store).rows(
            """
            SELECT t.id FROM trips t JOIN staypoints o ON o.id = t.origin_staypoint_id JOIN staypoints d ON d.id = t.destination_staypoint_id
            JOIN triplegs l ON l.trip_id = t.id WHERE o.geofence_id = 'home' AND d.geofence_id = 'work'
            """)
        #expect(linked.count == 3)
    }

    @Test func runningAgainReplacesRatherThanDuplicates() throws {
        let folder = try TemporaryFolder()
        let store = try makeStore(folder)
        let run = TripsRun(storePath: store, reportsFolder: folder.file("out"))
        _ = try run.run(progress: ProgressReporter(quiet: true))
        let first = try PipelineStore(path: store).tableCounts()
        let firstTrips = try String(contentsOfFile: folder.file("out/restricted/trips.csv"), encoding: .utf8)
        _ = try run.run(progress: ProgressReporter(quiet: true))
        #expect(try PipelineStore(path: store).tableCounts().filter { $0.key != "runs" } == first.filter { $0.key != "runs" })
        #expect(try String(contentsOfFile: folder.file("out/restricted/trips.csv"), encoding: .utf8) == firstTrips)
    }

    @Test func classifiedWindowsInTheStoreDecideTheLegsTheyCover() throws {
        let folder = try TemporaryFolder()
        let store = try makeStore(folder)
        // Say an IMU model called the drive a bus ride: its windows outrank the GPS rules for the
        // family, but the window model's types do not transfer to other people (TMD's bus and
        // train are one user's each), and with no GPS leg model to read the leg it is `vehicle`.
        let rows = stride(from: Self.start + 1800 + 300, to: Self.start + 1800 + 900, by: 2.5).map {
            PipelineStore.ModeWindowRow(
                device: "ana", trace: "ana/phone.csv", startSeconds: $0, endSeconds: $0 + 5, mode: .bus, rawMode: .bus,
                probability: 0.9, decidedBy: "model")
        }
        try PipelineStore(path: store).replaceModeWindows(rows)
        try PipelineStore(path: store).replaceModeWindows(rows)
        #expect(try PipelineStore(path: store).tableCounts()["mode_windows"] == rows.count)
        let summary = try TripsRun(storePath: store, reportsFolder: folder.file("out")).run(progress: ProgressReporter(quiet: true))
        #expect(summary.legsByModeSource["model"] == 1)
        let trips = try CSVRows.read(folder.file("out/restricted/trips.csv"))
        #expect(trips[0]["main_mode"] == "vehicle")
        let drive = try CSVRows.read(folder.file("out/restricted/triplegs.csv")).filter { $0["mode_source"] == "model" }
        #expect(drive.count == 1 && drive.first?["travel_mode"] == "vehicle", "\(drive)")
        #expect(drive.first?["mode_note"]?.contains("no GPS leg model read the leg") == true, "\(drive)")
    }
}
