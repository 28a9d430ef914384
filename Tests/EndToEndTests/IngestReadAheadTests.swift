import Foundation
import Store
import TestSupport
import Testing

/// `ingest` reads consecutive IMU recordings side by side (one per core) and stores every file
/// in discovery order: the store must be what reading them one at a time gives.
@Suite struct IngestReadAheadTests {
    let cli = PipelineCLI()

    /// Seven phone recordings of one device, a GPX between them and one recording with no data
    /// rows (quarantined while it is read ahead).
    func makeTraces(_ folder: TemporaryFolder) throws {
        for index in 0..<7 where index != 3 {
            let rows = (0..<(100 + index)).map { "\(1_700_000_000 + index * 1_000 + $0),0,0,9.8" }
            try folder.writeGzip("traces/bob/phone-\(index).csv.gz", "time,ax,ay,az\n" + rows.joined(separator: "\n"))
        }
        try folder.write("traces/bob/phone-3.csv", "time,ax,ay,az\n")
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 60)]]
        try folder.write("traces/bob/phone-4a.gpx", gpx.text)
    }

    @Test func recordingsReadSideBySideAreStoredInOrderAsOneAtATimeWouldStoreThem() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        let outcome = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite", "--json"], in: folder.path)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["quarantined"] as? Int == 1 && object["ingested"] as? Int == 7, "\(object)")
        #expect(object["imu_samples"] as? Int == [0, 1, 2, 4, 5, 6].reduce(0) { $0 + 100 + $1 } && object["fixes"] as? Int == 60)
        #expect(outcome.stderr.contains("phone-3.csv: the file holds no data rows"), "\(outcome.stderr)")

        let store = try PipelineStore(path: folder.file("out/p.sqlite"))
        func text(_ row: [String: String?], _ key: String) -> String { (row[key] ?? nil) ?? "" }
        func name(_ row: [String: String?]) -> String { (text(row, "path") as NSString).lastPathComponent }
        let files = try store.rows("SELECT path, status, imu_samples, fixes FROM input_files ORDER BY id").map {
            [name($0), text($0, "status"), text($0, "imu_samples"), text($0, "fixes")]
        }
        #expect(
            files == [
                ["phone-0.csv.gz", "ingested", "100", "0"], ["phone-1.csv.gz", "ingested", "101", "0"],
                ["phone-2.csv.gz", "ingested", "102", "0"], ["phone-3.csv", "quarantined", "0", "0"],
                ["phone-4.csv.gz", "ingested", "104", "0"], ["phone-4a.gpx", "ingested", "0", "60"],
                ["phone-5.csv.gz", "ingested", "105", "0"], ["phone-6.csv.gz", "ingested", "106", "0"]
            ], "\(files)")
        let streams = try store.rows(
            """
            SELECT i.path, s.samples, s.first_unix_s FROM imu_streams s JOIN input_files i ON i.id = s.file_id ORDER BY i.id
            """
        ).map { "\(name($0)) \(text($0, "samples")) \(text($0, "first_unix_s"))" }
        #expect(streams == [0, 1, 2, 4, 5, 6].map { "phone-\($0).csv.gz \(100 + $0) \(Double(1_700_000_000 + $0 * 1_000))" }, "\(streams)")

        // Read again with --force: the same rows, none twice.
        let again = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite", "--force"], in: folder.path)
        #expect(again.status == 2)
        #expect(try store.tableCounts()["input_files"] == 8 && store.tableCounts()["imu_streams"] == 6)
    }
}
