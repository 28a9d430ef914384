import Foundation
import TestSupport
import Testing

/// WISDM 2019 (21 people, phone in a trouser pocket, 20 Hz; `../shared/data/imu/wisdm`), laid
/// out by `scripts/data/shared_inputs.sh` through a per-file mapping with its label map: people the
/// shipped model never saw, scored grouped by person, beside the rules on the same windows.
@Suite struct WISDMTests {
    let cli = PipelineCLI()

    @Test func theShippedModelOnTwentyOnePeopleItNeverSaw() throws {
        guard SharedData.isAvailable else {
            print("skipped: " + SharedData.skipMessage)
            return
        }
        let folder = try TemporaryFolder()
        #expect(try SharedInputs.layout("wisdm_inputs", into: folder.file("wisdm")))
        let outcome = try cli.pipeline(
            ["evaluate", "wisdm", "--model", SharedData.projectRoot + "/models/mode-model.json", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(json["people"] as? Int == 21 && (json["evaluated"] as? String)?.contains("21 persons named") == true)
        let model = try #require(json["macro_f1"] as? Double)
        let rules = try #require((json["baseline"] as? [String: Any])?["macro_f1"] as? Double)
        print(String(format: "WISDM by person: model still/walk macro-F1 %.3f, rules %.3f", model, rules))
        #expect(model >= rules, "the model at least the rules on people it never saw")
        #expect(
            (json["unknown_modes"] as? [String])?.contains("F") == true, "activities that are no transport mode are reported, not guessed")
    }
}
