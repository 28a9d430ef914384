import Foundation
import Reports
import GRDB
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing
import Trips

/// `pipeline run` and `pipeline simulate` as a user runs them, on simulated data.
@Suite(.serialized) struct RunCommandTests {
    let cli = PipelineCLI()

    /// Six residents for a day, IMU for the first two, one cut-off GPX and one bad rating.
    func simulate(_ folder: TemporaryFolder, devices: Int = 6, days: Int = 1, imu: Bool = true) throws {
        var arguments = [
            "simulate", "--out", "traces", "--devices", "\(devices)", "--days", "\(days)", "--seed", "7",
            "--gps-still-interval", "30", "--faults"
        ]
        arguments += imu ? ["--imu-devices", "2", "--imu-trips-per-day", "1"] : ["--imu-rate", "0"]
        let outcome = try cli.pipeline(arguments, in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    func run(_ folder: TemporaryFolder, out: String = "out", _ extra: [String] = []) throws -> (PipelineCLI.Outcome, [String: Any]) {
        let outcome = try cli.pipeline(
            ["run", "traces", "--out", out, "--json", "--model", SharedData.projectRoot + "/models/mode-model.json"] + extra,
            in: folder.path)
        let json = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
        return (outcome, json)
    }

    /// Every output file's bytes; the GeoPackage's as the rows of its tables, without the
    /// `gpkg_contents.last_change` time (when the file was written, as the spec asks).
    /// Every output file below `folder` but the store, by its path below it (`restricted/modes.csv`).
    func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder)
        where !(name as NSString).lastPathComponent.hasPrefix(StoreLocation.fileName) {
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] =
                (name as NSString).lastPathComponent == GeoPackageOutput.fileName
                ? try Self.geoPackageRows(path) : FileManager.default.contents(atPath: path)
        }
        return files
    }

    static func geoPackageRows(_ path: String) throws -> Data {
        Data(try Normaliser.rows(path).utf8)
    }

    @Test func aRunWritesEveryOutputThenChangesNothingThenReadsOnlyANewFile() throws {
        let folder = try TemporaryFolder()
        try simulate(folder)
        let (first, summary) = try run(folder)
        #expect(first.status == 2, "one input is quarantined on purpose: \(first.stderr)")
        #expect(summary["quarantined"] as? Int == 1 && summary["up_to_date"] as? Bool == false)
        #expect((summary["classified_files"] as? Int ?? 0) == 2 && (summary["trips"] as? Int ?? 0) > 10)
        for name in [
            "quarantine.csv", "modes.csv", "staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv",
            "od_matrix.csv", "modal_split.csv", "device_stats.csv", "staypoints.geojson", "triplegs.geojson", "dwells.geojson",
            "heatmap.csv", "heatmap.geojson", "heatmap.png", "heatmap-walk.png", "heatmap-still.png", "report.html"
        ] {
            #expect(FileManager.default.fileExists(atPath: OutputLayout.path(name, in: folder.file("out"))), "missing \(name)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")), "the store is in restricted/")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/pipeline.sqlite")), "no store among what publishes")
        let png = try #require(FileManager.default.contents(atPath: folder.file("out/heatmap.png")))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let html = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(!html.contains("http://") || !html.contains("src=\"http"), "the report loads nothing from the network")
        for text in ["Inputs", "Modal split", "<svg", "Origin–destination", "Top dwell places", "data:image/png;base64,", "Transport modes"]
        {
            #expect(html.contains(text), "report.html lacks \(text)")
        }
        // The page that publishes names no input file; the operator's page in restricted/ does, with the labels' agreement.
        let operatorPage = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(!html.contains("cut-off.gpx") && operatorPage.contains("cut-off.gpx") && operatorPage.contains("Leg modes against labels"))
        let before = try contents(folder.file("out"))

        let (second, again) = try run(folder)
        // The cut-off upload was quarantined by the first run: carried over, not new, so exit 0.
        #expect(second.status == 0 && again["up_to_date"] as? Bool == true && again["ingested"] as? Int == 0)
        #expect((again["carried_over_quarantines"] as? [String])?.count == 1)
        #expect(second.stderr.contains("nothing changed"))
        #expect(try contents(folder.file("out")) == before, "an up-to-date run rewrites nothing")

        // One new recording (a GPS day and an IMU file of a new phone): only it is read and classified.
        let phone = try FileManager.default.contentsOfDirectory(atPath: folder.file("traces/phone-01")).sorted()
        let gpx = try #require(phone.first { $0.hasSuffix(".gpx") && !$0.contains("cut-off") })
        let imu = try #require(phone.first { $0.hasSuffix(".csv.gz") })
        try FileManager.default.createDirectory(atPath: folder.file("traces/phone-99"), withIntermediateDirectories: true)
        let track = try String(contentsOfFile: folder.file("traces/phone-01/\(gpx)"), encoding: .utf8)
        try folder.write("traces/phone-99/\(gpx)", track.replacingOccurrences(of: "phone-01", with: "phone-99")) // the GPX names its author
        try FileManager.default.copyItem(atPath: folder.file("traces/phone-01/\(imu)"), toPath: folder.file("traces/phone-99/\(imu)"))
        let (_, third) = try run(folder)
        #expect(third["ingested"] as? Int == 2 && third["classified_files"] as? Int == 1 && third["up_to_date"] as? Bool == false)
        let devices = try readCSV(folder.file("out/restricted/device_stats.csv")).map { $0["device"] ?? "" }
        #expect(devices.contains("phone-99"))
        let (_, forced) = try run(folder, out: "out", ["--force"])
        #expect(
            forced["classified_files"] as? Int == 3 && forced["unchanged"] as? Int == 0, "--force reads and classifies everything again")
    }

    /// The coverage alarm's earlier runs are earlier nights: `--force` over the same recordings
    /// makes its night again, it does not add one, and a night of new recordings does.
    @Test func aForcedRunIsNotAnotherNightForTheCoverageAlarm() throws {
        let folder = try TemporaryFolder()
        try simulate(folder, devices: 3, imu: false)
        func earlierRuns(_ json: [String: Any]) -> Int? { (json["coverage"] as? [String: Any])?["earlier_runs"] as? Int }
        func history() throws -> [CoverageHistory.Run] {
            let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
            return CoverageHistory(text: try store.derivedState(PipelineStore.coverageHistoryKey)).runs
        }
        let first = try run(folder)
        #expect(earlierRuns(first.1) == 0, "\(first.0.stderr)")
        for _ in 0..<2 {
            let forced = try run(folder, ["--force"])
            #expect(earlierRuns(forced.1) == 0, "the same night, made again, is not its own earlier run")
        }
        #expect(try history().count == 1)
        // A second day of recordings: one earlier night.
        let day = try cli.pipeline(
            [
                "simulate", "--out", "traces/day2", "--devices", "3", "--days", "1", "--seed", "8", "--start-day", "2024-05-07",
                "--imu-rate", "0"
            ],
            in: folder.path)
        #expect(day.status == 0, "\(day.stderr)")
        let next = try run(folder)
        let runs = try history().count
        #expect(earlierRuns(next.1) == 1 && runs == 2, "\(next.0.stderr)")
    }

    @Test func aRunKilledAtAnyPointIsFinishedByTheNextOne() throws {
        let folder = try TemporaryFolder()
        try simulate(folder, devices: 8)
        let started = Date()
        #expect(try run(folder, out: "reference").0.status == 2)
        // Kills at shares of an uninterrupted run's time, so they land mid-run whatever the build
        // (a release build runs this in under 2 s, a debug build in about 5) and the machine.
        let whole = Date().timeIntervalSince(started)
        let expected = try contents(folder.file("reference"))
        var interrupted = 0
        for share in [0.1, 0.2, 0.3, 0.45] {
            let delay = share * whole
            let process = Process()
            process.executableURL = URL(fileURLWithPath: PipelineCLI.executable)
            process.arguments = ["run", "traces", "--out", "resumed", "--model", SharedData.projectRoot + "/models/mode-model.json"]
            process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { interrupted += 1 }
            let store = try PipelineStore(path: folder.file("resumed/restricted/pipeline.sqlite"))
            #expect(try store.rows("PRAGMA integrity_check").first?["integrity_check"] == "ok")
        }
        #expect(interrupted >= 3, "most kills land before the run completes (\(interrupted) of 4 did)")
        // 2 when the last kill landed before the cut-off upload was quarantined, else 0 (carried over).
        #expect([0, 2].contains(try run(folder, out: "resumed").0.status))
        let resumed = try contents(folder.file("resumed"))
        #expect(Set(resumed.keys) == Set(expected.keys))
        for (name, data) in expected where name != "restricted/quarantine.csv" {
            #expect(resumed[name] == data, "\(name) differs from the uninterrupted run's")
        }
        // quarantine.csv also says when each file was quarantined, which differs between two runs.
        let withoutTime = { (name: String) in
            try readCSV(folder.file("\(name)/restricted/quarantine.csv")).map { $0.filter { !$0.key.hasPrefix("run_started") } }
        }
        #expect(try withoutTime("resumed") == withoutTime("reference"))
        let a = try PipelineStore(path: folder.file("reference/restricted/pipeline.sqlite")),
            b = try PipelineStore(path: folder.file("resumed/restricted/pipeline.sqlite"))
        for table in ["fixes", "mode_windows", "staypoints", "dwells", "triplegs", "trips", "heatmap_cells", "input_files", "quarantine"] {
            let sql = "SELECT COUNT(*) AS n FROM \(table)"
            #expect(try a.rows(sql) == b.rows(sql), "\(table) row counts differ")
        }
    }

    /// `--jobs 1` works on one recording or device at a time and gives the same bytes as the
    /// default; 0 is refused.
    @Test func oneJobAtATimeGivesTheSameOutputs() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "4", "--days", "1", "--seed", "5", "--imu-rate", "20"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        for (out, extra) in [("wide", [String]()), ("one", ["--jobs", "1"])] {
            let run = try cli.pipeline(["run", "city", "--out", out] + extra, in: folder.path)
            try #require([0, 2].contains(run.status), "\(run.stderr)")
        }
        for file in ["restricted/triplegs.csv", "restricted/trips.csv", "restricted/modes.csv", "modal_split.csv", "heatmap.csv"] {
            #expect(
                FileManager.default.contents(atPath: folder.file("wide/" + file))
                    == FileManager.default.contents(atPath: folder.file("one/" + file)), "\(file)")
        }
        let refused = try cli.pipeline(["run", "city", "--out", "zero", "--jobs", "0"], in: folder.path)
        #expect(refused.status == 64 && refused.stderr.contains("--jobs must be at least 1"), "\(refused.stderr)")
    }

    @Test func aSecondRunOnTheSameStoreRefusesCleanly() throws {
        let folder = try TemporaryFolder()
        try simulate(folder, devices: 8)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: PipelineCLI.executable)
        first.arguments = ["run", "traces", "--out", "out", "--model", SharedData.projectRoot + "/models/mode-model.json"]
        first.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        first.standardError = FileHandle.nullDevice
        try first.run()
        let lock = folder.file("out/restricted/pipeline.sqlite.lock")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? String(contentsOfFile: lock, encoding: .utf8)) ?? "").contains("pid") {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let second = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        first.waitUntilExit()
        #expect(second.status == 75, "\(second.stderr)")
        #expect(
            second.stderr.contains("another pipeline run is using this store") && second.stderr.contains("pid \(first.processIdentifier)"))
        #expect(first.terminationStatus == 2)
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        #expect(try store.rows("PRAGMA integrity_check").first?["integrity_check"] == "ok")
        #expect(try run(folder).1["up_to_date"] as? Bool == true, "the first run completed and the refused one left no trace")
    }

    @Test func theConfigurationIsPrintedCheckedAndUsed() throws {
        let folder = try TemporaryFolder()
        let printed = try cli.pipeline(["config", "--print"], in: folder.path)
        #expect(printed.status == 0)
        for key in [
            "cleaning:", "max_accuracy_meters: 150", "staypoints:", "distance_meters: 100", "heatmap:", "cell_meters: 100",
            "privacy:", "  k: 3", "switch_penalty_nats: 6", "transfer_kinds:", "time_zone: null", "utc_offset_hours: null",
            "minimum_coverage: 0.6", "model: \"models/mode-model.json\""
        ] {
            #expect(printed.stdout.contains(key), "config --print lacks \(key)")
        }
        try folder.write("defaults.yaml", printed.stdout)
        let reread = try cli.pipeline(["config", "--print", "--config", "defaults.yaml"], in: folder.path)
        #expect(reread.stdout == printed.stdout, "the printed configuration reads back to itself")
        // --json: the same tree, for programs (the Spark job reads it instead of parsing YAML).
        try folder.write("cell.yaml", "heatmap:\n  cell_meters: 250\n")
        let json = try cli.pipeline(["config", "--json", "--config", "cell.yaml"], in: folder.path)
        let tree = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((tree?["heatmap"] as? [String: Any])?["cell_meters"] as? Double == 250)
        #expect((tree?["calendar"] as? [String: Any])?["utc_offset_hours"] is NSNull, "no fixed offset: each device's zone")
        #expect((tree?["person_days"] as? [String: Any])?["coverage_floor"] as? Double == 0.5)
        #expect(
            Set(tree?.keys.map { $0 } ?? [])
                == Set(printed.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.dropLast()) }),
            "the JSON has the YAML's sections")

        try folder.write("typo.yaml", "heatmap:\n  cell_meter: 50\n")
        let typo = try cli.pipeline(["config", "--config", "typo.yaml"], in: folder.path)
        #expect(typo.status == 64 && typo.stderr.contains("unknown key heatmap.cell_meter"), "\(typo.stderr)")
        try folder.write("wrong.yaml", "trips:\n  staypoints:\n    distance_meters: far\n")
        let wrong = try cli.pipeline(["config", "--config", "wrong.yaml"], in: folder.path)
        #expect(wrong.status == 64 && wrong.stderr.contains("distance"), "\(wrong.stderr)")
        try folder.write("negative.yaml", "classification:\n  switch_penalty_nats: -1\n")
        let negative = try cli.pipeline(["config", "--config", "negative.yaml"], in: folder.path)
        #expect(negative.status == 64 && negative.stderr.contains("switch_penalty_nats"), "\(negative.stderr)")

        try simulate(folder, devices: 4, imu: false)
        // k is one setting, privacy.k; its old key, heatmap.minimum_devices, is still read with a warning, and both
        // given with different values is a usage error.
        #expect(!printed.stdout.contains("minimum_devices"), "k is printed once, as privacy.k")
        try folder.write("both.yaml", "heatmap:\n  minimum_devices: 1\nprivacy:\n  k: 3\n")
        let both = try cli.pipeline(["config", "--config", "both.yaml"], in: folder.path)
        #expect(both.status == 64 && both.stderr.contains("privacy.k is 3 and heatmap.minimum_devices is 1"), "\(both.stderr)")
        try folder.write("old.yaml", "heatmap:\n  minimum_devices: 4\n")
        let old = try cli.pipeline(["config", "--print", "--config", "old.yaml"], in: folder.path)
        #expect(old.status == 0 && old.stdout.contains("privacy:\n  k: 4") && old.stderr.contains("heatmap.minimum_devices is deprecated"))
        try folder.write("k1.yaml", "heatmap:\n  cell_meters: 250\nprivacy:\n  k: 1\nclassification:\n  rules_only: true\n")
        let (_, k3) = try run(folder, out: "k3")
        let refused = try cli.pipeline(["run", "traces", "--out", "k1", "--config", "k1.yaml"], in: folder.path)
        #expect(refused.status == 64 && refused.stderr.contains("--allow-identifying-k"), "k = 1 only when asked for by name")
        let (_, k1) = try run(folder, out: "k1", ["--config", "k1.yaml", "--allow-identifying-k"])
        let (_, k1Option) = try run(folder, out: "k1-option", ["--k", "1", "--allow-identifying-k"])
        #expect(k1Option["suppressed_cells"] as? Int == 0, "--k on run overrides privacy.k")
        #expect((k1["cells"] as? Int ?? 0) > (k3["cells"] as? Int ?? 0) && k1["suppressed_cells"] as? Int == 0)
        #expect(try readCSV(folder.file("k1/heatmap.csv")).first?["cell_id"]?.hasPrefix("250m:") == true)
        let noModel = try cli.pipeline(["run", "traces", "--out", "gps-only", "--model", "missing.json"], in: folder.path)
        #expect(noModel.status == 2, "GPS-only traces need no model: \(noModel.stderr)")
    }

    @Test func trainRidesAreMeasuredAndCheckInsWithoutDataReported() throws {
        let folder = try TemporaryFolder()
        // The train commuter (phone-04) records IMU on every trip; a check-in of a phone that sent nothing.
        #expect(
            try cli.pipeline(
                [
                    "simulate", "--out", "traces", "--devices", "4", "--days", "1", "--seed", "7", "--gps-still-interval", "30",
                    "--imu-devices", "4", "--faults"
                ], in: folder.path
            ).status == 0)
        let checkins = try String(contentsOfFile: folder.file("traces/checkins.csv"), encoding: .utf8)
        try folder.write("traces/checkins.csv", checkins + "ghost,TER 1,station-south,station-central,2024-05-06T08:00:00Z,,,3,,,,,\n")
        let (outcome, summary) = try run(folder)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let rides = try readCSV(folder.file("out/restricted/rides.csv")), truth = try readCSV(folder.file("traces/.truth/rides.csv"))
        #expect(rides.count == truth.count + 1 && summary["rides"] as? Int == truth.count + 1)
        #expect(rides.first { $0["device"] == "ghost" }?["status"] == "no_data")
        let measured = rides.filter { $0["status"] == "measured" }
        #expect(measured.count == truth.count && summary["measured_rides"] as? Int == truth.count, "every simulated ride had IMU")
        for ride in measured {
            let nmv = Double(ride["nmv"] ?? "") ?? -1, av = Double(ride["a_v_mps2"] ?? "") ?? -1
            #expect((0.5...4).contains(nmv) && (0.05...1).contains(av), "plausible regional-train comfort: N_MV \(nmv), a_v \(av)")
            let departure = { (row: [String: String]) in row["scheduled_departure_at"].flatMap { ISO8601.parse($0) } }
            let match = try #require(
                truth.first { $0["device"] == ride["device"] && departure($0) != nil && departure($0) == departure(ride) })
            for (ours, theirs) in [("departure_delay_s", "departure_delay_s"), ("arrival_delay_s", "arrival_delay_s")] {
                let error = abs((Double(ride[ours] ?? "") ?? .nan) - (Double(match[theirs] ?? "") ?? .nan))
                #expect(error <= 40, "\(ours) within 40 s of the truth (geofence edge vs platform): off by \(error) s")
            }
        }
        // At k = 3 a train fewer persons rode is not published, nor a ride's own values in the report.
        let trains = try readCSV(folder.file("out/train_comfort.csv"))
        #expect(trains.allSatisfy { (Int($0["persons"] ?? "") ?? 0) >= 3 })
        let html = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(
            html.contains("Train comfort and punctuality") && html.contains("1 no data") && !html.contains("N_MV of each measured ride")
                && !html.contains("Continuous comfort, "))
        // At k = 1, asked for by name, every ride is in a train's summary.
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        _ = try run(folder, out: "k1", ["--config", "k1.yaml", "--allow-identifying-k"])
        let all = try readCSV(folder.file("k1/train_comfort.csv"))
        #expect(all.reduce(0) { $0 + (Int($1["rides"] ?? "") ?? 0) } == truth.count + 1)
    }

    /// The bundled traces (`scripts/data/make_traces.sh`) against their own truth, IMU model included.
    /// The shipped model learnt from real people only, so only walking is asserted (a simulated
    /// walk is a plausible human walk); the simulator's bikes, cars and trains keep steady
    /// speeds without stops that no real vehicle has, and what the model calls them is printed.
    @Test func theBundledTracesRecoverTheirTruth() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(
            [
                "run", SharedData.projectRoot + "/traces", "--out", "out", "--json",
                "--model", SharedData.projectRoot + "/models/mode-model.json"
            ], in: folder.path)
        #expect(outcome.status == 2, "one cut-off upload is quarantined: \(outcome.stderr)")
        let comparison = try TruthComparison(truth: SharedData.projectRoot + "/traces/.truth", output: folder.file("out"))
        print(
            "truth recovery (bundled traces, IMU model): \(comparison); by true mode: "
                + comparison.secondsByTrueMode.keys.sorted().map { String(format: "%@ %.2f", $0, comparison.accuracy(of: $0)) }.joined(
                    separator: ", "))
        #expect(comparison.tripRecall.value >= 0.9 && comparison.accuracy(of: "walk") >= 0.9, "\(comparison)")
    }

    @Test func theSimulatorsTruthIsRecovered() throws {
        let folder = try TemporaryFolder()
        try simulate(folder, devices: 8, days: 3, imu: false)
        let (outcome, _) = try run(folder)
        #expect(outcome.status == 2)
        let comparison = try TruthComparison(truth: folder.file("traces/.truth"), output: folder.file("out"))
        print("truth recovery (8 devices x 3 days, GPS only): \(comparison)")
        #expect(comparison.stayRecall.value >= 0.95 && comparison.stayPrecision.value >= 0.95, "\(comparison)")
        #expect(comparison.dwellRecall.value >= 0.95 && comparison.dwellPrecision.value >= 0.9, "\(comparison)")
        #expect(comparison.tripRecall.value >= 0.9 && comparison.tripPrecision.value >= 0.9, "\(comparison)")
    }
}
