import Foundation
import TestSupport
import Testing

/// The shipped model's GPS leg part and the phones' own activity labels on the Helsinki legs
/// (Aalto TrafficSense, 8 phones, one day; `../shared/data/gps/aalto-helsinki`): a city, people
/// and phones no choice was tuned on, laid out by `scripts/data/shared_inputs.sh` as a user would.
/// Every source is scored on the same legs; the fused one never below its parts.
@Suite struct HelsinkiLegTests {
    let cli = PipelineCLI()

    @Test func fusedLegModesScoreAtLeastTheirBestSourceAndTheBaselines() throws {
        guard SharedData.isAvailable else {
            print("skipped: " + SharedData.skipMessage)
            return
        }
        let folder = try TemporaryFolder()
        #expect(try SharedInputs.layout("helsinki_inputs", into: folder.file("helsinki")))
        let outcome = try cli.pipeline(
            ["evaluate", "helsinki", "--model", SharedData.projectRoot + "/models/mode-model.json", "--legs-only", "--json"],
            in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let bySource = try #require(json["by_source"] as? [String: Any])
        let scores = try #require(bySource["sources"] as? [[String: Any]])
        var typeF1: [String: Double] = [:]
        for score in scores { typeF1[score["source"] as? String ?? ""] = score["vehicle_type_macro_f1"] as? Double }
        print("Helsinki legs, vehicle-type macro-F1 by source: \(typeF1.sorted { $0.key < $1.key })")
        #expect((bySource["legs"] as? Int ?? 0) >= 80 && json["people"] as? Int == 8)
        let fused = try #require(typeF1["fusion"]), gps = try #require(typeF1["gps_leg_model"]),
            activity = try #require(typeF1["activity_labels"])
        #expect(fused >= max(gps, activity), "fusion never below its best source")
        #expect(fused > (typeF1["always_train"] ?? 1) && fused > (typeF1["trackintel"] ?? 1), "above always-train and the speed rule")
    }
}
