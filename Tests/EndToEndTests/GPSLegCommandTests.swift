import Foundation
import TestSupport
import Testing

/// The GPS leg model as a user meets it, on simulated GPS-only residents (their labels.csv
/// gives every leg's mode): `train` learns it, `evaluate` cross-validates it beside
/// trackintel's rule at three fix rates, `classify` and `trips` let it decide GPS-only legs,
/// and a model without one says that the speed rules decided.
@Suite(.serialized) struct GPSLegCommandTests {
    let cli = PipelineCLI()

    func simulate(_ folder: TemporaryFolder) throws {
        let outcome = try cli.pipeline(
            [
                "simulate", "--out", "traces", "--devices", "5", "--days", "1", "--seed", "5", "--imu-rate", "0",
                "--gps-still-interval", "60"
            ], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test func trainEvaluateClassifyAndTripsUseTheLegModel() throws {
        let folder = try TemporaryFolder()
        try simulate(folder)
        let train = try cli.pipeline(
            [
                "train", "traces", "--model", "m.json", "--model-kind", "softmax_regression",
                "--geofences", "traces/stations.csv"
            ], in: folder.path)
        #expect(train.status == 0 && train.stderr.contains("GPS leg model ("), "\(train.stderr)")
        #expect(train.stderr.contains("GPS legs: 2 of 2 geofences are transit"), "the simulator's two stations: \(train.stderr)")
        let model =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/m.json"))) as! [String: Any]
        let legs = try #require(model["gps_legs"] as? [String: Any])
        #expect((legs["classes"] as? [String]).map { Set($0).isSuperset(of: ["walk", "car"]) } == true, "\(legs["classes"] ?? "")")
        #expect(legs["thinned_to_seconds"] as? [Double] == [10, 60] && (legs["devices"] as? [String])?.count == 5)
        let present = try #require((legs["standardizer"] as? [String: Any])?["present"] as? [Bool])
        #expect(present.suffix(2) == [true, true], "the legs' transit distances are learnt")

        let evaluated = try cli.pipeline(
            ["evaluate", "traces", "--inner-folds", "0", "--model-kind", "softmax_regression", "--json"], in: folder.path)
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(evaluated.stdout.utf8)) as! [String: Any]
        let gps = try #require(scores["gps_legs"] as? [String: Any])
        #expect((gps["evaluated"] as? String)?.contains("nested grouped") == true && gps["people"] as? Int == 5)
        let rates = try #require(gps["rates"] as? [[String: Any]])
        #expect(rates.map { $0["fixes"] as? String } == ["as recorded"] + [5, 10, 15, 30, 60].map { "one fix every \($0) s" })
        for rate in rates {
            let model = try #require(rate["model"] as? [String: Any]), trackintel = try #require(rate["trackintel"] as? [String: Any])
            #expect(model["n_windows"] as? Int == rate["n_legs"] as? Int && trackintel["n_windows"] as? Int == rate["n_legs"] as? Int)
            #expect((rate["coarse"] as? [String: Any])?["trackintel_macro_f1"] is Double)
        }
        #expect((gps["folds"] as? [Any])?.count == 5)
        let text = try cli.pipeline(["evaluate", "traces", "--inner-folds", "0", "--model-kind", "softmax_regression"], in: folder.path)
        #expect(text.stdout.contains("GPS legs, one fix every 60 s: ") && text.stdout.contains("trackintel's speed rule"), "\(text.stdout)")

        let classify = try cli.pipeline(
            ["classify", "traces", "--model", "m.json", "--out", "modes.csv", "--geofences", "traces/stations.csv"],
            in: folder.path)
        #expect(classify.status == 0 && classify.stderr.contains("decided by: gps_leg_model "), "\(classify.stderr)")
        #expect(!classify.stderr.contains("warning"), "\(classify.stderr)")
        let bare = try cli.pipeline(["classify", "traces", "--model", "m.json", "--out", "bare.csv"], in: folder.path)
        #expect(bare.stderr.contains("warning: the GPS leg model was trained with transit geofences and none are given"), "\(bare.stderr)")
        let rows = try String(contentsOfFile: folder.path + "/modes.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.dropFirst().contains { $0.contains(",gps_leg_model,") })

        let ingest = try cli.pipeline(["ingest", "traces", "--store", "s.sqlite"], in: folder.path)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let trips = try cli.pipeline(["trips", "--store", "s.sqlite", "--out", "out", "--model", "m.json", "--json"], in: folder.path)
        #expect(trips.status == 0, "\(trips.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(trips.stdout.utf8)) as! [String: Any]
        let sources = try #require(summary["legs_by_mode_source"] as? [String: Int])
        #expect((sources["gps_leg_model"] ?? 0) > 0, "\(sources)")
    }

    /// A model without a GPS leg model (the shipped one with its `gps_legs` removed, as a model
    /// trained on IMU data alone is): on GPS-only data it says the rules decided.
    @Test func aModelWithoutALegModelSaysTheRulesDecided() throws {
        let folder = try TemporaryFolder()
        try simulate(folder)
        var json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: SharedData.projectRoot + "/models/mode-model.json"))) as! [String: Any]
        #expect(json.removeValue(forKey: "gps_legs") != nil)
        let shipped = folder.file("imu-only.json")
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: shipped))
        let classify = try cli.pipeline(["classify", "traces", "--model", shipped, "--out", "modes.csv"], in: folder.path)
        #expect(classify.status == 0 && classify.stderr.contains("the model has no GPS leg part"), "\(classify.stderr)")
        let evaluated = try cli.pipeline(["evaluate", "traces", "--model", shipped, "--json"], in: folder.path)
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(evaluated.stdout.utf8)) as! [String: Any]
        #expect(
            (scores["evaluated"] as? String)?.contains("every one was decided by the GPS speed rules") == true,
            "\(scores["evaluated"] ?? "")")
        let gps = try #require(scores["gps_legs"] as? [String: Any])
        #expect((gps["note"] as? String)?.contains("has no GPS leg model") == true)
        let rate = try #require((gps["rates"] as? [[String: Any]])?.first)
        #expect(rate["model"] is NSNull && rate["trackintel"] is [String: Any])
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--model", shipped, "--json"], in: folder.path)
        #expect(run.status == 0 && run.stderr.contains("as the model has no GPS leg model"), "\(run.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(((summary["legs_by_mode_source"] as? [String: Int])?["gps_rules"] ?? 0) > 0, "\(summary["legs_by_mode_source"] ?? "")")
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        let operatorPage = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(report.contains("The model has no GPS leg model") && operatorPage.contains("mode decided by"))
    }
}

/// `evaluate` groups by person when a manifest names them: one person's two phones share a fold.
@Suite struct EvaluateByPersonTests {
    let cli = PipelineCLI()

    @Test func evaluateGroupsByNamedPersonsAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            [
                "simulate", "--out", "traces", "--devices", "5", "--days", "1", "--seed", "5", "--imu-rate", "0",
                "--gps-still-interval", "60"
            ], in: folder.path)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        try folder.write("traces/manifest.csv", "path,device,person\nphone-01/*,phone-01,ann\nphone-02/*,phone-02,ann\n")
        let evaluated = try cli.pipeline(
            [
                "evaluate", "traces", "--legs-only", "--folds", "4", "--inner-folds", "0", "--model-kind", "softmax_regression",
                "--json"
            ], in: folder.path)
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let scores = try #require(try JSONSerialization.jsonObject(with: Data(evaluated.stdout.utf8)) as? [String: Any])
        #expect((scores["evaluated"] as? String)?.contains("cross-validation by person") == true, "\(scores["evaluated"] ?? "")")
        let groups = ((scores["folds"] as? [[String: Any]]) ?? []).map { ($0["test_groups"] as? [String]) ?? [] }
        #expect(groups.flatMap { $0 }.sorted() == ["ann", "phone-03", "phone-04", "phone-05"], "\(groups)")
        #expect(scores["people"] as? Int == 4, "ann's two phones are one person")

        // Without the manifest: each device is a person of its own, and the output says so.
        try FileManager.default.removeItem(atPath: folder.file("traces/manifest.csv"))
        let windows = try cli.pipeline(
            ["evaluate", "traces", "--folds", "2", "--inner-folds", "0", "--model-kind", "softmax_regression"],
            in: folder.path)
        #expect(
            windows.stdout.contains("no person is named") && windows.stdout.contains("the folds group by device"),
            "\(windows.stdout.prefix(600))")
    }
}
