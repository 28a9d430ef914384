import Foundation
import MobilityCore
import Reports
import TestSupport
import Testing

/// People's corrections (`--corrections`, `LegCorrections`): a leg someone says was a bus is a
/// bus in every table, on every run (with `--force`, with the file moved), and without the file
/// the outputs are byte for byte what they were.
@Suite struct CorrectionsTests {
    let cli = PipelineCLI()

    @Test func aCorrectedLegIsABusEverywhereOnEveryRunAndWithoutTheFileNothingChanged() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "6", "--days", "1", "--seed", "23", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        func run(_ extra: [String]) throws -> String {
            let run = try cli.pipeline(["run", "city", "--out", "out"] + extra, in: folder.path)
            try #require([0, 2].contains(run.status), "\(run.stderr)")
            return run.stderr
        }
        func bytes(_ file: String) -> Data? { FileManager.default.contents(atPath: OutputLayout.path(file, in: folder.file("out"))) }
        _ = try run([])
        let before = ["triplegs.csv", "trips.csv", "modal_split.csv", "mode_shares.csv"].map(bytes)

        // The longest leg that is neither still nor a bus, said to be a bus by its owner.
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let c = { (name: String) in legs.columns.firstIndex(of: name)! }
        let leg = try #require(
            legs.rows.filter { !["still", "bus"].contains($0[c("travel_mode")] ?? "") && $0[c("travel_mode")] != nil }
                .max { Double($0[c("duration_s")]!)! < Double($1[c("duration_s")]!)! })
        let id = leg[c("tripleg_id")]!
        // And a stay its owner says was at work: the trips to and from it follow.
        let stays = try CSVTable.read(path: folder.file("out/restricted/staypoints.csv"))
        let s = { (name: String) in stays.columns.firstIndex(of: name)! }
        let stay = try #require(
            stays.rows.first { $0[s("purpose")] != nil && $0[s("purpose")] != "work" && $0[s("is_activity")] == "true" })
        try folder.write(
            "corrections.csv",
            "device,start,end,travel_mode,purpose\n\(leg[c("device")]!),\(leg[c("started_at")]!),\(leg[c("finished_at")]!),Bus,\n"
                + "\(stay[s("device")]!),\(stay[s("started_at")]!),\(stay[s("finished_at")]!),,Work\n")
        _ = try run(["--corrections", "corrections.csv"])
        let correctedStays = try CSVTable.read(path: folder.file("out/restricted/staypoints.csv"))
        let workStay = try #require(correctedStays.rows.first { $0[s("staypoint_id")] == stay[s("staypoint_id")] })
        #expect(workStay[s("purpose")] == "work", "\(workStay)")
        let tripsAfter = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        let ta = { (name: String) in tripsAfter.columns.firstIndex(of: name)! }
        let arriving = tripsAfter.rows.filter { $0[ta("destination_staypoint_id")] == stay[s("staypoint_id")] }
        #expect(arriving.allSatisfy { $0[ta("destination_purpose")] == "work" }, "\(arriving)")
        let corrected = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let row = try #require(corrected.rows.first { $0[c("tripleg_id")] == id })
        #expect(row[c("travel_mode")] == "bus" && row[c("mode_source")] == "correction", "\(row)")
        #expect(row[c("mode_note")]?.contains("corrections.csv line 2 says bus") == true, "\(row[c("mode_note")] ?? "")")
        // The trip follows: its legs' modes name the bus.
        let trips = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        let t = { (name: String) in trips.columns.firstIndex(of: name)! }
        let trip = try #require(trips.rows.first { $0[t("trip_id")] == row[c("trip_id")] })
        #expect(trip[t("leg_modes")]?.contains("bus") == true, "\(trip)")
        // A corrected leg is not asked about again.
        let review = try CSVTable.read(path: folder.file("out/restricted/review.csv"))
        #expect(!review.rows.contains { $0[review.columns.firstIndex(of: "tripleg_id")!] == id })
        let afterCorrection = bytes("triplegs.csv")

        // It holds with --force, and with the file moved (the run is then up to date).
        _ = try run(["--corrections", "corrections.csv", "--force"])
        #expect(bytes("triplegs.csv") == afterCorrection)
        try FileManager.default.moveItem(atPath: folder.file("corrections.csv"), toPath: folder.file("said-by-phone-owners.csv"))
        let moved = try run(["--corrections", "said-by-phone-owners.csv"])
        #expect(moved.contains("nothing changed since the last run"), "\(moved)")

        // Without corrections, every table is what it was, byte for byte.
        _ = try run([])
        #expect(["triplegs.csv", "trips.csv", "modal_split.csv", "mode_shares.csv"].map(bytes) == before)
    }

    /// A trip its owner says was no trip (GPS drift at home, a phone left in a car): its legs
    /// take `still` and join no trip, so the trip is gone from every table that counts trips.
    @Test func aTripItsOwnerSaysWasNoTripIsInNoTable() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "6", "--days", "1", "--seed", "23", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        func run(_ extra: [String]) throws {
            let run = try cli.pipeline(
                ["run", "city", "--out", "out", "--allow-identifying-k", "--config", "k1.yaml"] + extra, in: folder.path)
            try #require([0, 2].contains(run.status), "\(run.stderr)")
        }
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        try run([])
        let before = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        let t = { (name: String) in before.columns.firstIndex(of: name)! }
        // The first trip of more than one leg.
        let trip = try #require(before.rows.first { Int($0[t("legs")]!)! > 1 })
        func modalTrips() throws -> Int {
            let split = try CSVTable.read(path: folder.file("out/modal_split.csv"))
            let m = { (name: String) in split.columns.firstIndex(of: name)! }
            return split.rows.filter { $0[m("dimension")] == "all" }.reduce(0) { $0 + Int($1[m("trips")]!)! }
        }
        let tripsBefore = try modalTrips()
        try folder.write(
            "corrections.csv",
            "device,start,end,travel_mode\n\(trip[t("device")]!),\(trip[t("started_at")]!),\(trip[t("finished_at")]!),not a trip\n")
        try run(["--corrections", "corrections.csv"])

        let after = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        #expect(after.rows.count == before.rows.count - 1)
        let (start, end) = (Double(trip[t("started_unix_s")]!)!, Double(trip[t("finished_unix_s")]!)!)
        #expect(
            !after.rows.contains {
                $0[t("device")] == trip[t("device")] && Double($0[t("started_unix_s")]!)! < end
                    && Double($0[t("finished_unix_s")]!)! > start
            }, "no trip is left in its time")
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let l = { (name: String) in legs.columns.firstIndex(of: name)! }
        let said = legs.rows.filter { $0[l("mode_note")]?.contains("corrections.csv line 2 says not a trip") == true }
        #expect(said.count == Int(trip[t("legs")]!)!, "\(said)")
        #expect(said.allSatisfy { $0[l("travel_mode")] == "still" && $0[l("mode_source")] == "correction" && $0[l("trip_id")] == nil })
        #expect(said.allSatisfy { $0[l("co2e_g")] == "0.0" }, "no travel, no CO2e")
        #expect(try modalTrips() == tripsBefore - 1, "the modal split follows")
    }

    @Test func aCorrectionThatCannotBeReadNamesItsLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/empty.gpx", "<gpx version=\"1.1\"></gpx>")
        try folder.write("corrections.csv", "device,start,end,travel_mode\nphone,2024-05-06T08:00:00Z,2024-05-06T08:30:00Z,hovercraft\n")
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--corrections", "corrections.csv"], in: folder.path)
        #expect(run.status == 1 && run.stderr.contains("corrections.csv:2: travel_mode hovercraft is no mode"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")), "stopped before any work")
    }
}
