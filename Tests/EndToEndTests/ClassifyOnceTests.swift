import Foundation
import TestSupport
import Testing

/// `pipeline run` classifies each IMU recording as ingest reads it (the file is parsed once);
/// a file ingest did not read this run (unchanged, its windows stale under another model) is
/// read again by the classify stage. Both ways must give the same windows and every output
/// made from them.
@Suite struct ClassifyOnceTests {
    let cli = PipelineCLI()

    @Test func windowsClassifiedAsIngestReadsThemAreThoseOfAFileReadAgain() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "4", "--days", "1", "--seed", "5", "--imu-rate", "20"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        let model = ["--model", SharedData.projectRoot + "/models/mode-model.json"]
        try folder.write("rules.yaml", "classification:\n  rules_only: true\n")

        // Parsed once: ingest reads every file and hands each recording to classification.
        let once = try cli.pipeline(["run", "city", "--out", "once"] + model, in: folder.path)
        try #require([0, 2].contains(once.status), "\(once.stderr)")
        #expect(counts(once.stderr) == [15, 0], "every recording classified from ingest's read: \(once.stderr)")

        // Read again: the rules classify first; the model then finds every file unchanged and
        // its windows stale, so the classify stage reads each file itself.
        let rules = try cli.pipeline(["run", "city", "--out", "again", "--config", "rules.yaml"] + model, in: folder.path)
        try #require([0, 2].contains(rules.status), "\(rules.stderr)")
        let again = try cli.pipeline(["run", "city", "--out", "again"] + model, in: folder.path)
        try #require([0, 2].contains(again.status), "\(again.stderr)")
        #expect(counts(again.stderr) == [0, 15], "every recording read again by the classify stage: \(again.stderr)")

        for file in ["restricted/modes.csv", "restricted/triplegs.csv", "restricted/trips.csv", "modal_split.csv"] {
            let a = try #require(FileManager.default.contents(atPath: folder.file("once/" + file)), "\(file)")
            #expect(a == FileManager.default.contents(atPath: folder.file("again/" + file)), "\(file) differs")
        }
    }

    /// The classify stage's count of files classified from ingest's read, and of files it read again.
    func counts(_ log: String) -> [Int]? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("classified as ingest read them") }),
            let said = line.split(separator: "classify: ").last
        else { return nil }
        let words = said.split(separator: " ")
        guard words.count > 11, let read = Int(words[0]), let again = Int(words[10].trimmingCharacters(in: .punctuationCharacters))
        else { return nil }
        return [read, again]
    }
}
