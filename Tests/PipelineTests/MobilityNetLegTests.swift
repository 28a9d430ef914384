import Classify
import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// The shipped GPS leg model and the data it learnt from: MobilityNet's labelled legs (one
/// person, eight phones, SF Bay Area) read as a user's folder, scored leaving days out, and the
/// shipped model on a bus ride in another country it never saw.
@Suite(.serialized) struct MobilityNetLegTests {
    let cli = CommandLineTests()

    @Test func theShippedLegModelLearntFiveModesFromMobilityNetAndNothingSimulated() throws {
        let model = try ModeModel.load(path: SharedData.projectRoot + "/models/mode-model.json")
        let legs = try #require(model.gpsLegs, "the shipped model names GPS-only legs")
        #expect(legs.classes == [.walk, .bike, .car, .bus, .train])
        #expect(legs.devices == ["mobilitynet-reference", "ucb-sdb-ios-3"])
        #expect(legs.thinnedToSeconds == [10, 60])
        let inputs = model.provenance.trainingInputs ?? []
        #expect(inputs.contains { $0.device == "ucb-sdb-ios-3" } && inputs.allSatisfy { !$0.device.hasPrefix("supplement:") })
        #expect(model.provenance.supplement == nil && !model.provenance.devices.contains { $0.hasPrefix("supplement:") })
    }

    /// Legs held out by day: the two "devices" (fused reference tracks, one iPhone's raw fixes)
    /// record the same trips, so holding out a device would score trips the model trained on.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func mobilityNetIsReadAsAFolderAndScoredLeavingDaysOut() throws {
        let folder = try TemporaryFolder()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["python3", SharedData.projectRoot + "/scripts/mobilitynet_inputs.py", folder.file("mnet"), SharedData.path("gps/mobilitynet")]
        let errors = Pipe()
        script.standardError = errors
        try script.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0 && said.contains("196 reference tracks, 25 runs of ucb-sdb-ios-3 with 375 labelled sections"), "\(said)")

        let outcome = try cli.pipeline(["evaluate", "mnet", "--legs-only", "--group-by", "day", "--folds", "25", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as! [String: Any]
        #expect(scores["days"] as? Int == 22, "25 runs on 22 local days")
        #expect((scores["folds"] as? [Any])?.count == 22 && scores["group_by"] as? String == "day")
        #expect((scores["evaluated"] as? String)?.contains("cross-validation by day") == true)
        let rates = try #require(scores["rates"] as? [[String: Any]])
        #expect(rates.map { $0["fixes"] as? String } == ["as recorded", "one fix every 10 s", "one fix every 60 s"])
        let recorded = try #require(rates.first)
        // Every section of movement with 3 or more fixes: 196 reference legs and 229 of the iPhone's.
        #expect(recorded["n_legs"] as? Int == 425)
        let support = ((recorded["model"] as? [String: Any])?["per_class"] as? [String: [String: Any]])?.mapValues { $0["support"] as? Int }
        #expect(support == ["walk": 193, "bike": 50, "car": 24, "bus": 62, "train": 96], "\(support ?? [:])")
        let interval = try #require((recorded["model"] as? [String: Any])?["macro_f1_interval"] as? [String: Double])
        #expect(interval["lower"]! < interval["upper"]!, "days resampled: \(interval)")
        print("MobilityNet legs by day, as recorded: leg model macro-F1 \((recorded["model"] as? [String: Any])?["macro_f1"] ?? "")"
              + ", trackintel slow vs motorised \((recorded["coarse"] as? [String: Any])?["trackintel_macro_f1"] ?? "")")
    }

    /// A city bus in Limerick (movingpandas' tutorial ride, 1 Hz GPX): another country, another
    /// receiver. The speed rules called it bike and car; the shipped leg model must call most of
    /// the moving time bus.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func theShippedModelCallsAnUnseenCityBusRideBus() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SharedData.path("gpx/movingpandas/304 to UL 2019-02-18 0745.gpx"), toPath: folder.file("in/bus.gpx"))
        let run = try cli.pipeline(["run", "in", "--out", "out", "--model", SharedData.projectRoot + "/models/mode-model.json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try String(contentsOfFile: folder.file("out/triplegs.csv"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows[0].map(String.init)
        let duration = header.firstIndex(of: "duration_s")!, mode = header.firstIndex(of: "mode")!
        var seconds: [String: Double] = [:]
        for row in rows.dropFirst() { seconds[String(row[mode]), default: 0] += Double(row[duration])! }
        let moving = seconds.filter { $0.key != "still" }.values.reduce(0, +)
        print("Limerick bus 304, tripleg seconds per mode: \(seconds.sorted { $0.key < $1.key })")
        #expect((seconds["bus"] ?? 0) > 0.5 * moving, "\(seconds)")
    }
}
