import Foundation
import Store
import TestSupport
import Testing

/// A run killed with SIGKILL in the middle leaves a consistent store, and the next run ends
/// with the same rows as a run that was never interrupted.
@Suite struct KilledRunTests {
    func makeTraces(in folder: TemporaryFolder) throws {
        for index in 0..<24 {
            var gpx = GPXBuilder()
            gpx.tracks = [[GPXBuilder.walk(count: 20_000, start: .init(secondsSince1970: 1_700_000_000 + Double(index) * 86_400))]]
            try folder.write("traces/device\(index % 4)/day\(index).gpx", gpx.text)
        }
    }

    func run(_ folder: TemporaryFolder, killAfter seconds: Double? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PipelineCLI.executable)
        process.arguments = ["ingest", "traces", "--store", "out/p.sqlite"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if let seconds {
            Thread.sleep(forTimeInterval: seconds)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Integrity, row counts, and how many stored files lack some of their fixes.
    func counts(_ folder: TemporaryFolder) throws -> [String] {
        let store = try PipelineStore(path: folder.file("out/p.sqlite"))
        func value(_ sql: String, _ column: String) throws -> String {
            (try store.rows(sql).first?[column]).flatMap { $0 } ?? "?"
        }
        var lines = [try value("PRAGMA integrity_check", "integrity_check")]
        lines.append("foreign key problems \(try store.rows("PRAGMA foreign_key_check").count)")
        for table in ["input_files", "fixes", "dropped_records"] {
            lines.append("\(table) \(try value("SELECT COUNT(*) AS n FROM \(table)", "n"))")
        }
        lines.append(
            try value("SELECT COUNT(*) AS n FROM input_files f WHERE fixes != (SELECT COUNT(*) FROM fixes x WHERE x.file_id = f.id)", "n"))
        return lines
    }

    /// A run killed after it quarantined a file never exited 2; the run that completes after it
    /// does, once, and names the file. The killed run's state is made exactly: the quarantine is
    /// in the store (ingest commits it with the file), the record of what was reported is not.
    @Test func aQuarantineOfARunThatDidNotCompleteIsReportedByTheRunThatCompletes() throws {
        let folder = try TemporaryFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 600, start: .init(secondsSince1970: 1_700_000_000))]]
        try folder.write("traces/a/day.gpx", gpx.text)
        try folder.write("traces/b/broken.gpx", "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"48.8\" lon=")
        let cli = PipelineCLI()
        #expect(try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path).status == 2, "the run that quarantined it")
        #expect(try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path).status == 0, "carried over: said once")

        // As a run killed after its ingest leaves it: the quarantine stored, nothing reported.
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        try store.setDerivedState(PipelineStore.reportedQuarantinesKey, "[]")
        let completing = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(completing.status == 2, "\(completing.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(completing.stdout.utf8)) as? [String: Any])
        #expect((summary["this_run"] as? [String: Any])?["quarantined"] as? Int == 1, "\(summary["this_run"] ?? "")")
        #expect(try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path).status == 0)

        // The same for `pipeline ingest`.
        try store.setDerivedState(PipelineStore.reportedQuarantinesKey, "[]")
        let ingest = try cli.pipeline(["ingest", "traces", "--store", "out/restricted/pipeline.sqlite", "--json"], in: folder.path)
        #expect(ingest.status == 2 && ingest.stdout.contains("quarantined by an earlier command that did not complete"), "\(ingest.stdout)")
        #expect(try cli.pipeline(["ingest", "traces", "--store", "out/restricted/pipeline.sqlite"], in: folder.path).status == 0)
    }

    @Test func aKilledRunResumesToTheSameStore() throws {
        let reference = try TemporaryFolder()
        try makeTraces(in: reference)
        #expect(try run(reference) == 0)
        let expected = try counts(reference)
        #expect(expected.first == "ok" && expected.contains("fixes 480000"))

        let interrupted = try TemporaryFolder()
        try makeTraces(in: interrupted)
        let status = try run(interrupted, killAfter: 0.4)
        let partial = try counts(interrupted)
        #expect(partial.first == "ok", "the store is consistent after SIGKILL: \(partial)")
        #expect(partial.last == "0", "every stored file has all of its fixes")
        if status == 0 { Issue.record("the run finished before it was killed; the test proves less on this machine") }
        #expect(try run(interrupted) == 0)
        #expect(try counts(interrupted) == expected)
    }
}
