import Foundation
import GRDB
import MobilityCore
import Store
import TestSupport
import Testing
import Trips

/// Releases on calendar windows (`ReleaseWindows`, `ReleaseRun`): two nightly runs that differ
/// by one person's day publish the same releases, so differencing them reveals nothing; a
/// closed window is never written again, and late data goes to the next window.
@Suite struct ReleaseTests {
    let cli = PipelineCLI()

    @Test func windowsFollowTheLocalCalendarAndISOWeeks() {
        let calendar = CalendarKeys()
        // 2024-05-06 was a Monday of ISO week 19; 2021-01-03 a Sunday of 2020-W53.
        let monday = 1_714_953_600.0
        #expect(ReleaseWindows.window(containing: monday + 3600, period: .day, calendar: calendar).id == "2024-05-06")
        let week = ReleaseWindows.window(containing: monday + 6 * 86_400 + 80_000, period: .week, calendar: calendar)
        #expect(week.id == "2024-W19" && week.startSeconds == monday && week.endSeconds == monday + 7 * 86_400)
        #expect(ReleaseWindows.window(containing: 1_609_675_200, period: .week, calendar: calendar).id == "2020-W53")
        let month = ReleaseWindows.window(containing: monday, period: .month, calendar: calendar)
        #expect(month.id == "2024-05" && month.endSeconds == 1_717_200_000) // 2024-06-01
        // At UTC+2, 23:30 UTC on Sunday is already Monday.
        #expect(
            ReleaseWindows.window(containing: monday - 1800, period: .day, calendar: CalendarKeys(utcOffsetSeconds: 7200)).id
                == "2024-05-06")
    }

    @Test func aDifferencingAttackOnTwoNightlyReleasesFindsNothing() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "all", "--devices", "6", "--days", "3", "--seed", "3", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        try folder.write("day.yaml", "release:\n  window: day\n  grace_hours: 0\n")
        let files = FileManager.default
        func copy(_ device: String, _ day: String) throws {
            try files.createDirectory(atPath: folder.file("night/\(device)"), withIntermediateDirectories: true)
            try files.copyItem(atPath: folder.file("all/\(device)/\(day).gpx"), toPath: folder.file("night/\(device)/\(day).gpx"))
        }
        try files.createDirectory(atPath: folder.file("night"), withIntermediateDirectories: true)
        for name in ["geofences.geojson", "stations.csv"] {
            try files.copyItem(atPath: folder.file("all/" + name), toPath: folder.file("night/" + name))
        }
        let devices = (1...6).map { String(format: "phone-%02d", $0) }
        // Night 1: Monday and Tuesday, but phone-01's Tuesday and phone-02's Monday are not uploaded yet.
        for device in devices {
            if device != "phone-02" { try copy(device, "2024-05-06") }
            if device != "phone-01" { try copy(device, "2024-05-07") }
        }
        func night() throws -> (json: [String: Any], releases: [String: Data], modalSplit: Data) {
            let run = try cli.pipeline(["run", "night", "--out", "out", "--config", "day.yaml", "--json"], in: folder.path)
            try #require([0, 2].contains(run.status), "\(run.stderr)")
            var releases: [String: Data] = [:]
            for name in try files.subpathsOfDirectory(atPath: folder.file("out/releases")) where name.contains(".") { // files, not folders
                releases[name] = files.contents(atPath: folder.file("out/releases/" + name))
            }
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return (summary, releases, try #require(files.contents(atPath: folder.file("out/modal_split.csv"))))
        }
        let first = try night()
        let said = try #require(first.json["releases"] as? [String: Any])
        #expect(said["period"] as? String == "day" && said["released"] as? [String] == ["2024-05-06"], "\(said)")
        let monday = Set(first.releases.keys)
        #expect(
            monday.allSatisfy { $0.hasPrefix("2024-05-06/") }
                && monday.isSuperset(of: [
                    "2024-05-06/od_matrix.csv", "2024-05-06/od_grid.csv", "2024-05-06/modal_split.csv", "2024-05-06/README.txt",
                    "2024-05-06/heatmap.csv", "2024-05-06/heatmap.geojson", "2024-05-06/heatmap.png"
                ]), "\(monday.sorted())")
        // The window's heat map holds k persons per cell, like every release table.
        let heat = try CSVTable.read(path: folder.file("out/releases/2024-05-06/heatmap.csv"))
        let persons = try #require(heat.columns.firstIndex(of: "persons"))
        #expect(!heat.rows.isEmpty && heat.rows.allSatisfy { Int($0[persons] ?? "") ?? 0 >= 3 }, "\(heat.rows.count) cells")

        // Night 2: the two late days arrive. The per-run tables change with them (the attack
        // surface: their difference is one person's day) …
        try copy("phone-01", "2024-05-07")
        try copy("phone-02", "2024-05-06")
        let second = try night()
        #expect(second.modalSplit != first.modalSplit, "the per-run modal split moves with phone-01's Tuesday")
        // … but the releases are byte for byte the same: nothing to subtract.
        #expect(second.releases == first.releases)
        #expect((second.json["releases"] as? [String: Any])?["released"] as? [String] == [])

        // Night 3: Wednesday closes Tuesday. Its release holds phone-01's Tuesday and phone-02's
        // late Monday (late data goes to the next window); Monday's is untouched.
        for device in devices { try copy(device, "2024-05-08") }
        let third = try night()
        #expect((third.json["releases"] as? [String: Any])?["released"] as? [String] == ["2024-05-07"])
        #expect(third.releases.filter { $0.key.hasPrefix("2024-05-06/") } == first.releases)
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let late = try store.rows(
            "SELECT window_id, MIN(started_unix_s) AS first FROM released_trips WHERE device = 'phone-02' GROUP BY window_id")
        #expect(late.map { $0["window_id"] } == ["2024-05-07"], "phone-02 had nothing in Monday's release: \(late)")
        let mondayTrips = try store.rows(
            """
            SELECT COUNT(*) AS n FROM released_trips WHERE device = 'phone-02' AND window_id = '2024-05-07' AND started_unix_s < 1715040000
            """)
        let lateCount = mondayTrips.first.flatMap { $0["n"] ?? nil }.flatMap { Int($0) } ?? 0
        #expect(lateCount > 0, "phone-02's Monday, uploaded late, is in Tuesday's release")
        let released = try store.rows("SELECT COUNT(*) AS n FROM released_trips GROUP BY device, started_unix_s HAVING n > 1")
        #expect(released.isEmpty, "no trip is in two releases")
        let readme = try String(contentsOfFile: folder.file("out/releases/2024-05-07/README.txt"), encoding: .utf8)
        #expect(readme.contains("final") && readme.contains("arrived after"))
        #expect(
            readme.firstMatch(of: /[0-9]+ (trips|persons)/) == nil,
            "a release's README gives no total of trips or persons (one person's, in a quiet window)")
    }
}
