import Foundation
import TestSupport
import Testing

/// A one-day study of real phones (Aalto TrafficSense, 8 phones recording one working day of
/// 2016 in Helsinki; `../shared/data/gps/aalto-helsinki`), run as a user would: over whole days
/// no person-day reaches the coverage threshold, and the run says so in one sentence, with the
/// option that changes it, in `--json` and in both report pages' first section; with the
/// study's hours as `--study-window`, the days of the phones that recorded them are valid.
@Suite struct HelsinkiStudyDayTests {
    let cli = PipelineCLI()

    @Test func aOneDayStudyIsValidInItsWindowAndSaysWhyNotWithout() throws {
        guard SharedData.isAvailable else {
            print("skipped: " + SharedData.skipMessage)
            return
        }
        let folder = try TemporaryFolder()
        #expect(try SharedInputs.layout("helsinki_inputs", into: folder.file("helsinki")))
        func run(_ options: [String]) throws -> (coverage: [String: Any], report: String, restricted: String) {
            let outcome = try cli.pipeline(
                ["run", "helsinki", "--out", "out", "--model", SharedData.projectRoot + "/models/mode-model.json", "--json"] + options,
                in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            let page = { (path: String) in String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder.file(path))), as: UTF8.self) }
            return (try #require(json["coverage"] as? [String: Any]), try page("out/report.html"), try page("out/restricted/report.html"))
        }
        /// The first section of a page: everything before the first `<section>`.
        func overview(_ page: String) -> String { String(page[..<(page.range(of: "<section>")?.lowerBound ?? page.endIndex)]) }

        let wholeDays = try run([])
        print("Helsinki, whole days: \(wholeDays.coverage["valid"] ?? "?") of \(wholeDays.coverage["person_days"] ?? "?") valid")
        #expect(wholeDays.coverage["person_days"] as? Int == 8 && wholeDays.coverage["valid"] as? Int == 0)
        let sentence = try #require(wholeDays.coverage["no_valid_day"] as? String)
        #expect(sentence.contains("--study-window HH:MM-HH:MM") && sentence.contains("60 %"))
        for page in [wholeDays.report, wholeDays.restricted] {
            #expect(overview(page).contains("No person-day was tracked enough of its day or study window to be valid"))
            #expect(overview(page).contains("--study-window HH:MM-HH:MM"))
        }

        // The same store, the study's hours: each phone that recorded 60 % of 09:00-16:00 has a valid day
        // (one, phone-6, recorded under 4 hours in all).
        let window = try run(["--study-window", "09:00-16:00"])
        print("Helsinki, 09:00-16:00: \(window.coverage["valid"] ?? "?") of \(window.coverage["person_days"] ?? "?") valid")
        #expect(window.coverage["window"] as? String == "09:00-16:00" && window.coverage["valid"] as? Int == 7)
        #expect(window.coverage["no_valid_day"] is NSNull)
        #expect(!window.report.contains("No person-day was") && !window.restricted.contains("No person-day was"))
    }
}
