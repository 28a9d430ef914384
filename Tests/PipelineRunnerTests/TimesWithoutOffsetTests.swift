import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// A position table whose ISO 8601 times carry no offset is read as UTC, and the run says so
/// with the file and line; a manifest's `utc_offset` is the answer, and silences it.
@Suite struct TimesWithoutOffsetTests {
    func ingest(_ folder: TemporaryFolder) throws -> (IngestSummary, PipelineStore) {
        var options = IngestOptions(paths: [folder.file("traces")], storePath: folder.file("out/pipeline.sqlite"))
        options.reportsFolder = folder.file("out")
        let summary = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        return (summary, try PipelineStore(path: folder.file("out/pipeline.sqlite")))
    }

    let table = "time,lat,lon\n2024-05-06T08:00:00,48.85,2.35\n2024-05-06T08:00:10,48.85,2.35\n"

    @Test func aTimeWithoutOffsetIsReadAsUTCAndSaidSo() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/anna.csv", table)
        let (summary, store) = try ingest(folder)
        let warning = summary.warnings.first { $0.contains("without an offset from UTC") }
        #expect(warning?.contains("anna.csv line 2") == true, "\(summary.warnings)")
        #expect(warning?.contains("utc_offset") == true)
        let first = try store.rows("SELECT MIN(time_unix_s) AS t FROM fixes").first?["t"] ?? nil
        #expect(first.flatMap(Double.init) == ISO8601.parse("2024-05-06T08:00:00Z")!.secondsSince1970)
    }

    @Test func aManifestsOffsetIsTakenAndNothingIsSaid() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/anna.csv", table)
        try folder.write("traces/manifest.csv", "path,device,utc_offset\nanna.csv,anna,+02:00\n")
        let (summary, store) = try ingest(folder)
        #expect(!summary.warnings.contains { $0.contains("without an offset") }, "\(summary.warnings)")
        let first = try store.rows("SELECT MIN(time_unix_s) AS t FROM fixes").first?["t"] ?? nil
        #expect(first.flatMap(Double.init) == ISO8601.parse("2024-05-06T06:00:00Z")!.secondsSince1970)
    }

    @Test func timesSayTheirOffset() {
        for (text, has) in [
            ("2024-05-06T08:00:00Z", true), ("2024-05-06T08:00:00+02:00", true), ("2024-05-06T08:00:00.250-0500", true),
            ("2024-05-06 08:00:00", false), ("2024-05-06T08:00:00", false), ("2024-05-06", false)
        ] {
            var bytes = text
            #expect(bytes.withUTF8 { ISO8601.hasOffset($0) } == has, "\(text)")
        }
    }
}
