import Foundation
import TestSupport
import Testing

/// `pipeline run` parses each IMU recording once: ingest hands it to classification and keeps
/// what comfort may measure of it (`ClassifyStage`, `KeptRideSamples`). A file ingest did not
/// read this run (unchanged, its windows stale under another model) is read again by the
/// classify and comfort stages. Both ways must give the same windows, rides and every output
/// made from them.
@Suite struct ParsedOnceTests {
    let cli = PipelineCLI()

    @Test(arguments: [false, true])
    func whatIsMadeFromIngestsReadIsWhatAFileReadAgainGives(ridesFromRecordings: Bool) throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "4", "--days", "1", "--seed", "5", "--imu-rate", "20"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        let model = ["--model", SharedData.projectRoot + "/models/mode-model.json"]
        let comfort = "comfort:\n  rides_from_recordings: \(ridesFromRecordings)\n"
        try folder.write("model.yaml", comfort)
        try folder.write("rules.yaml", comfort + "classification:\n  rules_only: true\n")

        // Parsed once: ingest reads every file and hands each recording on.
        let once = try cli.pipeline(["run", "city", "--out", "once", "--config", "model.yaml"] + model, in: folder.path)
        try #require([0, 2].contains(once.status), "\(once.stderr)")
        #expect(counts(once.stderr, "classified as ingest read them") == [15, 0], "\(once.stderr)")
        let rides = try #require(counts(once.stderr, "recordings rides needed"), "\(once.stderr)")
        #expect(rides[0] > 0 && rides[1] == 0, "every ride measured from what ingest kept: \(once.stderr)")

        // Read again: the rules classify first; the model then finds every file unchanged and
        // its windows stale, so the classify and comfort stages read each file themselves.
        let rules = try cli.pipeline(["run", "city", "--out", "again", "--config", "rules.yaml"] + model, in: folder.path)
        try #require([0, 2].contains(rules.status), "\(rules.stderr)")
        let again = try cli.pipeline(["run", "city", "--out", "again", "--config", "model.yaml"] + model, in: folder.path)
        try #require([0, 2].contains(again.status), "\(again.stderr)")
        #expect(counts(again.stderr, "classified as ingest read them") == [0, 15], "\(again.stderr)")
        #expect(counts(again.stderr, "recordings rides needed") == [0, rides[0]], "\(again.stderr)")

        let measured = try String(contentsOfFile: folder.file("once/restricted/rides.csv"), encoding: .utf8)
        #expect(measured.components(separatedBy: ",measured,").count > 1, "some ride is measured: \(measured)")
        for file in [
            "restricted/modes.csv", "restricted/triplegs.csv", "restricted/trips.csv", "modal_split.csv", "restricted/rides.csv",
            "restricted/events.csv", "restricted/stops.csv"
        ] {
            let a = try #require(FileManager.default.contents(atPath: folder.file("once/" + file)), "\(file)")
            #expect(a == FileManager.default.contents(atPath: folder.file("again/" + file)), "\(file) differs")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("once/.pipeline-tmp")), "what ingest kept is gone after the run")
    }

    /// The two counts a stage's line says: files taken from ingest's read, and files read again.
    func counts(_ log: String, _ marker: String) -> [Int]? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(marker) }) else { return nil }
        let numbers = line.split(separator: "Z] ").last!.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        // "N of the M …, K read again": N and K.
        return numbers.count >= 3 ? [numbers[0], numbers[2]] : nil
    }
}
