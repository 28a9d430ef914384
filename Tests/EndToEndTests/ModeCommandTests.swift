import Foundation
import MobilityCore
import TestSupport
import Testing

/// `features`, `train`, `evaluate` and `classify` run as a user would, on generated IMU CSV
/// files named like TMD's (`<device>_<Mode>_<n>.csv`) so `--name-pattern` labels them.
@Suite struct ModeCommandTests {
    let runner = PipelineCLI()
    let pattern = #"(?<device>[a-z]+)_(?<mode>[A-Za-z]+)_\d+\.csv"#

    func writeRecordings(_ folder: TemporaryFolder, devices: [String]) throws {
        for (d, device) in devices.enumerated() {
            for (m, (motion, name)) in [(SyntheticIMU.Motion.walk, "Walking"), (.car, "Car"), (.still, "Still")].enumerated() {
                var imu = SyntheticIMU(seed: UInt64(10 * d + m + 1))
                imu.rotation = SyntheticIMU.rotation(axis: (1, Double(d), 0.5), degrees: 35 * Double(d + m))
                let streams = imu.streams(motion, seconds: 45)
                let rows = zip(streams[.accelerometer]!, streams[.gyroscope]!).map { a, g in
                    "\(a.time.secondsSince1970),\(a.x),\(a.y),\(a.z),\(g.x),\(g.y),\(g.z)"
                }
                try folder.write("traces/\(device)_\(name)_\(m).csv", "time,ax,ay,az,gx,gy,gz\n" + rows.joined(separator: "\n") + "\n")
            }
        }
    }

    @Test func featuresTrainEvaluateAndClassify() throws {
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann", "ben", "cat"])
        let features = try runner.pipeline(["features", "traces", "--name-pattern", pattern, "--out", "out/features.csv"], in: folder.path)
        #expect(features.status == 0, "\(features.stderr)")
        let csv = try String(contentsOfFile: folder.path + "/out/features.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv[0].hasPrefix("trace,device,started_at,started_unix_s,finished_at,finished_unix_s,label,label_mode,acc_mag_mean_mps2,"))
        // 45 s at 50 Hz → (2250 - 250) / 125 + 1 = 17 windows per recording, 9 recordings.
        #expect(csv.count == 1 + 9 * 17)
        #expect(csv[1].contains(",Car,car,") || csv[1].contains(",Still,still,") || csv[1].contains(",Walking,walk,"))

        let train = try runner.pipeline(["train", "traces", "--name-pattern", pattern, "--model", "m.json"], in: folder.path)
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.contains("car 51") && train.stderr.contains("walk 51"))

        let crossValidated = try runner.pipeline(["evaluate", "traces", "--name-pattern", pattern, "--json"], in: folder.path)
        #expect(crossValidated.status == 0, "\(crossValidated.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(crossValidated.stdout.utf8)) as! [String: Any]
        for key in [
            "accuracy", "macro_f1", "per_class", "confusion", "n_windows", "baseline", "unsmoothed", "folds",
            "macro_f1_interval", "recordings", "recording_majority_accuracy", "decided_by", "people"
        ] {
            #expect(scores[key] != nil, "evaluate --json lacks \(key)")
        }
        #expect(scores["nested"] as? Bool == true && scores["decided_by"] as? [String: Int] == ["model": 153])
        #expect((scores["recordings"] as? [Any])?.count == 9)
        let firstFold = (scores["folds"] as! [[String: Any]])[0]
        #expect((firstFold["options"] as? String)?.contains("inner macro-F1") == true, "\(firstFold)")
        #expect(scores["n_windows"] as? Int == 153 && (scores["folds"] as? [Any])?.count == 3)
        #expect((scores["macro_f1"] as! Double) > 0.9)
        let walk = (scores["per_class"] as! [String: [String: Any]])["walk"]!
        #expect(walk["support"] as? Int == 51 && walk["precision"] != nil && walk["recall"] != nil && walk["f1"] != nil)

        let twoModes = try runner.pipeline(
            ["evaluate", "traces", "--name-pattern", pattern, "--modes", "walk,still", "--json"], in: folder.path)
        #expect(twoModes.status == 0, "\(twoModes.stderr)")
        let twoScores = try JSONSerialization.jsonObject(with: Data(twoModes.stdout.utf8)) as! [String: Any]
        #expect(twoScores["n_windows"] as? Int == 102)
        #expect(Set((twoScores["per_class"] as! [String: Any]).keys) == ["still", "walk"])
        let unknownMode = try runner.pipeline(
            ["train", "traces", "--name-pattern", pattern, "--modes", "walk,hovercraft", "--model", "new.json"], in: folder.path)
        #expect(unknownMode.status == 64 && unknownMode.stderr.contains("unknown mode hovercraft"))

        let saved = try runner.pipeline(["evaluate", "traces", "--name-pattern", pattern, "--model", "m.json"], in: folder.path)
        #expect(saved.status == 0 && saved.stdout.contains("macro-F1") && saved.stdout.contains("confusion (rows: true mode"))

        let classify = try runner.pipeline(["classify", "traces", "--model", "m.json", "--out", "out/modes.csv"], in: folder.path)
        #expect(classify.status == 0, "\(classify.stderr)")
        let modes = try String(contentsOfFile: folder.path + "/out/modes.csv", encoding: .utf8).split(separator: "\n")
        #expect(
            modes[0]
                == "trace,device,started_at,started_unix_s,finished_at,finished_unix_s,travel_mode,raw_mode,raw_probability,decided_by,label_mode"
        )
        let walkRows = modes.filter { $0.contains("ann_Walking") }
        #expect(walkRows.count == 17 && walkRows.allSatisfy { $0.contains(",walk,walk,") })

        // A recording too short for one window is not scored, and evaluate says so and why.
        try folder.write(
            "traces/dan_Walking_9.csv",
            "time,ax,ay,az,gx,gy,gz\n" + (0..<100).map { "\(1_700_000_000 + Double($0) * 0.02),0.1,0.2,9.8,0,0,0" }.joined(separator: "\n")
                + "\n")
        let shortOne = try runner.pipeline(
            ["evaluate", "traces", "--name-pattern", pattern, "--model", "m.json", "--json"], in: folder.path)
        #expect(shortOne.status == 0, "\(shortOne.stderr)")
        let scored = try #require(
            (try JSONSerialization.jsonObject(with: Data(shortOne.stdout.utf8)) as? [String: Any])?["scored_data"] as? [String: Any])
        let unscored = (scored["unscored"] as? [[String: Any]]) ?? []
        #expect(
            unscored.count == 1 && (unscored.first?["trace"] as? String ?? "").hasSuffix("dan_Walking_9.csv")
                && !(unscored.first?["reason"] as? String ?? "").isEmpty,
            "\(unscored)")
        #expect(shortOne.stderr.contains("evaluate: not scored") && scored["files"] as? Int == 9)
    }

    /// Recordings that only train: a supplement's bike (here a fourth person's car recording,
    /// named as bike) reaches the model and its provenance, and is never scored.
    @Test func aSupplementTrainsAndIsNeverScored() throws {
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann", "ben", "cat", "dan"])
        try FileManager.default.createDirectory(atPath: folder.path + "/extra", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder.path + "/traces/dan_Car_1.csv", toPath: folder.path + "/extra/dan_Bike_1.csv")
        try FileManager.default.moveItem(
            atPath: folder.path + "/traces/dan_Walking_0.csv", toPath: folder.path + "/extra/dan_Walking_0.csv")
        try FileManager.default.removeItem(atPath: folder.path + "/traces/dan_Still_2.csv")
        let supplement = ["--supplement", "extra", "--supplement-modes", "bike", "--supplement-thin-hz", "5:10"]

        let train = try runner.pipeline(["train", "traces", "--name-pattern", pattern, "--model", "m.json"] + supplement, in: folder.path)
        #expect(train.status == 0, "\(train.stderr)")
        // 17 windows as read; thinned to 5-10 Hz the 45 s keep 17 each (the grid spans the kept samples).
        #expect(train.stderr.contains("supplement extra: bike windows, as read and 2× thinned to 5–10 Hz: "), "\(train.stderr)")
        let model =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/m.json"))) as! [String: Any]
        #expect(model["classes"] as? [String] == ["still", "walk", "bike", "car"])
        let provenance = model["provenance"] as! [String: Any]
        #expect((provenance["supplement"] as? String)?.contains("bike windows, as read and 2× thinned") == true)
        #expect((provenance["devices"] as? [String])?.contains("supplement:dan") == true)

        let scored = try runner.pipeline(
            ["evaluate", "traces", "--name-pattern", pattern, "--inner-folds", "0", "--json"] + supplement, in: folder.path)
        #expect(scored.status == 0, "\(scored.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as! [String: Any]
        #expect(scores["n_windows"] as? Int == 153, "only the three people's windows are scored")
        #expect((scores["evaluated"] as? String)?.contains("never scored") == true)

        let both = try runner.pipeline(["evaluate", "traces", "--name-pattern", pattern, "--model", "m.json"] + supplement, in: folder.path)
        #expect(both.status == 64 && both.stderr.contains("--supplement only trains"))
        let badRates = try runner.pipeline(
            [
                "train", "traces", "--name-pattern", pattern, "--supplement", "extra", "--supplement-thin-hz", "12",
                "--model", "new.json"
            ], in: folder.path)
        #expect(badRates.status == 64 && badRates.stderr.contains("expected LOW:HIGH"))
    }

    @Test func leaveOneDataSetOutScoresEachDataSetOnModelsThatNeverSawIt() throws {
        // Two data sets (folders) of two people each: --group-by dataset trains on one and
        // scores the other, both ways; every evaluation of two paths also scores each apart.
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann", "ben", "cat", "dan"])
        for name in ["lab", "city"] {
            try FileManager.default.createDirectory(atPath: folder.path + "/" + name, withIntermediateDirectories: true)
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path + "/traces") {
            let dataset = file.hasPrefix("ann") || file.hasPrefix("ben") ? "lab" : "city"
            try FileManager.default.moveItem(atPath: folder.path + "/traces/" + file, toPath: folder.path + "/\(dataset)/" + file)
        }
        let rotation = try runner.pipeline(
            ["evaluate", "lab", "city", "--name-pattern", pattern, "--group-by", "dataset", "--json"], in: folder.path)
        #expect(rotation.status == 0, "\(rotation.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(rotation.stdout.utf8)) as! [String: Any]
        #expect(scores["group_by"] as? String == "dataset" && scores["n_windows"] as? Int == 4 * 51)
        let folds = scores["folds"] as! [[String: Any]]
        #expect(Set(folds.map { $0["test_groups"] as! [String] }) == [["lab"], ["city"]])
        #expect(
            folds.allSatisfy { ($0["options"] as? String)?.contains("inner macro-F1") == true },
            "options chosen on the other data set's two people")
        let perDataset = scores["per_dataset"] as! [[String: Any]]
        #expect(perDataset.map { $0["dataset"] as! String } == ["city", "lab"])
        #expect(
            perDataset.allSatisfy { $0["windows"] as? Int == 102 && $0["devices"] as? Int == 2 && $0["macro_f1_interval"] is [String: Any] }
        )
        #expect(perDataset.allSatisfy { ($0["macro_f1"] as! Double) > 0.9 }, "\(perDataset)")

        try #expect(runner.pipeline(["train", "lab", "--name-pattern", pattern, "--model", "m.json"], in: folder.path).status == 0)
        let text = try runner.pipeline(["evaluate", "lab", "city", "--name-pattern", pattern, "--model", "m.json"], in: folder.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("per data set (model smoothed; intervals over that data set's persons):"))
        #expect(
            text.stdout.contains("  city: 102 windows, 2 devices, accuracy ")
                && text.stdout.contains("  lab: 102 windows, 2 devices, accuracy "))
        let one = try runner.pipeline(["evaluate", "lab", "--name-pattern", pattern, "--group-by", "dataset"], in: folder.path)
        #expect(one.status == 64 && one.stderr.contains("give two data sets or more"))
        let withModel = try runner.pipeline(
            ["evaluate", "lab", "city", "--name-pattern", pattern, "--group-by", "dataset", "--model", "m.json"], in: folder.path)
        #expect(withModel.status == 64 && withModel.stderr.contains("with --model nothing is trained"))
        let train = try runner.pipeline(
            ["train", "lab", "city", "--name-pattern", pattern, "--group-by", "dataset", "--model", "n.json"], in: folder.path)
        #expect(train.status == 64 && train.stderr.contains("--group-by dataset is evaluate's"))
    }

    @Test func aModelOfAnotherSchemaIsAClearError() throws {
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann"])
        #expect(try runner.pipeline(["train", "traces", "--name-pattern", pattern, "--model", "m.json"], in: folder.path).status == 0)
        let text = try String(contentsOfFile: folder.path + "/m.json", encoding: .utf8)
        try text.replacingOccurrences(of: "\"acc_horiz_std_mps2\"", with: "\"acc_horiz_sd_mps2\"").write(
            toFile: folder.path + "/m.json", atomically: true, encoding: .utf8)
        let outcome = try runner.pipeline(["classify", "traces", "--model", "m.json"], in: folder.path)
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("m.json") && outcome.stderr.contains("feature schema") && outcome.stderr.contains("acc_horiz_sd_mps2"))
    }

    @Test func unlabelledInputsCannotTrain() throws {
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann"])
        let outcome = try runner.pipeline(["train", "traces", "--model", "m.json"], in: folder.path)
        #expect(outcome.status == 1 && outcome.stderr.contains("at least two known modes"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/m.json"))
    }

    @Test func rulesNeedNoModel() throws {
        let folder = try TemporaryFolder()
        try writeRecordings(folder, devices: ["ann"])
        let outcome = try runner.pipeline(["classify", "traces", "--rules", "--out", "modes.csv"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let modes = try String(contentsOfFile: folder.path + "/modes.csv", encoding: .utf8)
        #expect(modes.contains(",rules,") && !modes.contains(",model,"))
    }
}

@Suite struct RecordingJoinTests {
    @Test func aDevicesGPSTrackJoinsItsIMURecording() throws {
        let folder = try TemporaryFolder()
        let streams = SyntheticIMU().streams(.car, seconds: 60, start: 1_700_000_030)
        let rows = streams[.accelerometer]!.map { "\($0.time.secondsSince1970),\($0.x),\($0.y),\($0.z)" }
        try folder.write("traces/dana/phone.csv", "time,ax,ay,az\n" + rows.joined(separator: "\n") + "\n")
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 120)]]
        try folder.write("traces/dana/track.gpx", gpx.text)
        let outcome = try PipelineCLI().pipeline(["features", "traces", "--out", "f.csv"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: folder.path + "/f.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        let header = try String(contentsOfFile: folder.path + "/f.csv", encoding: .utf8).split(separator: "\n")[0].split(separator: ",")
        let speed = header.firstIndex(of: "gps_speed_mean_mps")!, acc = header.firstIndex(of: "acc_mag_std_mps2")!
        let started = header.firstIndex(of: "started_unix_s")!
        let imuRows = lines.filter { $0.contains("phone.csv") }, gpsRows = lines.filter { $0.contains("track.gpx") }
        #expect(imuRows.count == 23)
        #expect(
            imuRows.allSatisfy { !$0.split(separator: ",", omittingEmptySubsequences: false)[speed].isEmpty },
            "IMU windows carry GPS features")
        // The track's fixes inside the IMU span (30–90 s) are not windowed again.
        for row in gpsRows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields[acc].isEmpty)
            let start = Double(fields[started])! - 1_700_000_000
            #expect(start < 30 || start + 5 >= 90, "GPS window at \(start) s lies inside the IMU recording")
        }
        #expect(!gpsRows.isEmpty)
    }
}
