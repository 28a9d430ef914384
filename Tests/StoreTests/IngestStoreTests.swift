import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

@Suite struct IngestStoreTests {
    /// A folder with one of each kind of input and one malformed GPX.
    func makeTraces(_ folder: TemporaryFolder) throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 120)]]
        gpx.waypoints = [GPXBuilder.Point(48, 2)]
        try folder.write("traces/alice/walk.gpx", gpx.text)
        try folder.write(
            "traces/bob/phone.csv",
            "time,ax,ay,az,label\n" + (0..<500).map { "\(1_700_000_000 + Double($0) * 0.02),0,0,9.8,walking" }.joined(separator: "\n"))
        try folder.write("traces/zones.csv", "id,name,kind,lat,lon,radius_m\nh,Home,home,48,2,100\n")
        try folder.write(
            "traces/checkins.csv", "device,train,from_station,to_station,checkin_time,cleanliness\nbob,IC 1,A,B,2023-11-14T08:00:00Z,9\n")
        try folder.write("traces/broken.gpx", "<gpx version=\"1.1\">\n<trk>\n<trkseg><trkpt lat=\"1\" lon=\"2\">\n</gpx>\n")
        try folder.write("traces/README.md", "not data")
    }

    func run(_ folder: TemporaryFolder, force: Bool = false) throws -> IngestSummary {
        var options = IngestOptions(paths: [folder.file("traces")], storePath: folder.file("out/pipeline.sqlite"))
        options.reportsFolder = folder.file("out")
        options.force = force
        return try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
    }

    @Test func ingestsEveryKindAndQuarantinesTheBrokenFile() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        let summary = try run(folder)
        #expect(summary.files == 6 && summary.ingested == 4 && summary.quarantined == 1 && summary.skipped == 1)
        #expect(summary.fixes == 120 && summary.waypoints == 1 && summary.imuSamples == 500 && summary.labels == 1)
        #expect(summary.geofences == 1 && summary.checkins == 1 && summary.dropped == ["value_out_of_range": 1])
        #expect(summary.exitStatus == 2 && summary.unknownModes.isEmpty)
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
        let counts = try store.tableCounts()
        #expect(counts["fixes"] == 120 && counts["waypoints"] == 1 && counts["imu_streams"] == 1 && counts["labels"] == 1)
        #expect(counts["geofences"] == 1 && counts["checkins"] == 1 && counts["quarantine"] == 1)
        let devices = try store.rows("SELECT device FROM input_files WHERE status = 'ingested' AND device IS NOT NULL ORDER BY device")
        #expect(devices.map { $0["device"] ?? nil } == ["alice", "bob"])
    }

    @Test func quarantineCSVNamesFileLineAndReason() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        _ = try run(folder)
        let csv = try String(contentsOfFile: folder.file("out/restricted/quarantine.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "path,format,line_number,column_number,code,reason,content_sha256,run_started_at,run_started_unix_s,stage")
        #expect(lines.count == 2)
        #expect(lines[1].contains("broken.gpx,gpx,4,") && lines[1].contains("malformed_xml"))
    }

    @Test func ingestingTwiceChangesNothing() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        _ = try run(folder)
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
        let before = try store.tableCounts()
        let second = try run(folder)
        #expect(second.ingested == 0 && second.quarantined == 0 && second.unchanged == 5 && second.exitStatus == 0)
        var after = try store.tableCounts()
        #expect(after["runs"] == 2)
        after["runs"] = before["runs"]
        #expect(after == before)
        let forced = try run(folder, force: true)
        #expect(forced.ingested == 4)
        var afterForce = try store.tableCounts()
        afterForce["runs"] = before["runs"]
        #expect(afterForce == before, "re-reading replaces rows, never duplicates them")
    }

    @Test func aChangedFileReplacesItsRowsAndAFixedFileLeavesQuarantine() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        _ = try run(folder)
        var shorter = GPXBuilder()
        shorter.tracks = [[GPXBuilder.walk(count: 30)]]
        try folder.write("traces/alice/walk.gpx", shorter.text)
        try folder.write("traces/broken.gpx", shorter.text)
        let summary = try run(folder)
        #expect(summary.ingested == 2 && summary.unchanged == 3)
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
        let counts = try store.tableCounts()
        #expect(counts["fixes"] == 60 && counts["quarantine"] == 0 && counts["waypoints"] == 0)
    }

    /// 40,000 fixes: the reader's error comes after many blocks crossed to the writing thread
    /// (`ParallelIngest`) and were written inside the transaction.
    @Test(arguments: [10, 40_000]) func aFailureInsideAFileLeavesNoneOfItsRows(fixes: Int) throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("s.sqlite"))
        let run = try store.beginRun(command: "test")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            _ = try store.storeIngested(path: "/x.gpx", contentSHA256: "abc", sizeBytes: 1, runID: run) { sink in
                for fix in GPXBuilder.walk(count: fixes) {
                    try sink.write(
                        fix: PositionFix(time: fix.time, latitudeDegrees: fix.latitude, longitudeDegrees: fix.longitude),
                        at: FixPosition(track: 0, segment: 0, line: 1))
                }
                throw Boom()
            }
        }
        let counts = try store.tableCounts()
        #expect(counts["fixes"] == 0 && counts["input_files"] == 0)
    }

    /// Reading and writing run on two threads (`ParallelIngest`): many blocks in order, and a
    /// write error while the reader still has blocks to hand over.
    @Test func fixesOfALongFileArriveWholeAndInOrderFromTheReadingThread() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("s.sqlite"))
        let run = try store.beginRun(command: "test")
        let count = 50_003 // a dozen blocks and a partial one, more than the queue holds
        _ = try store.storeIngested(path: "/long.gpx", contentSHA256: "abc", sizeBytes: 1, runID: run) { sink in
            for index in 0..<count {
                try sink.write(
                    fix: PositionFix(
                        time: Timestamp(secondsSince1970: 1_700_000_000 + Double(index)),
                        latitudeDegrees: 48, longitudeDegrees: Double(index) * 1e-6),
                    at: FixPosition(track: 0, segment: 0, line: index + 2))
            }
            return IngestResult(format: .gpx, device: "d")
        }
        let rows = try store.rows("SELECT COUNT(*) AS n, SUM(line = seq + 2) AS ordered, MAX(seq) AS last FROM fixes")
        #expect(rows.first?["n"] == "\(count)" && rows.first?["ordered"] == "\(count)" && rows.first?["last"] == "\(count - 1)")
    }

    @Test func aWriteErrorStopsTheReaderAndLeavesNoneOfTheFilesRows() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("s.sqlite"))
        let run = try store.beginRun(command: "test")
        var handed = 0
        // SQLite stores a NaN as NULL, which lat_deg's NOT NULL refuses: the write fails at
        // fix 5,000 while the reader has 195,000 more to hand over.
        #expect(throws: (any Error).self) {
            _ = try store.storeIngested(path: "/x.gpx", contentSHA256: "abc", sizeBytes: 1, runID: run) { sink in
                for index in 0..<200_000 {
                    try sink.write(
                        fix: PositionFix(time: nil, latitudeDegrees: index == 5_000 ? .nan : 48, longitudeDegrees: 2),
                        at: FixPosition(track: 0, segment: 0, line: index))
                    handed += 1
                }
                return IngestResult(format: .gpx, device: "d")
            }
        }
        #expect(handed < 200_000, "the reader was stopped, not left to read the whole file")
        let counts = try store.tableCounts()
        #expect(counts["fixes"] == 0 && counts["input_files"] == 0)
    }

    @Test func storeUsesWALAndForeignKeys() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("s.sqlite"))
        #expect(try store.rows("PRAGMA journal_mode").first?["journal_mode"] == "wal")
        #expect(try store.rows("PRAGMA foreign_keys").first?["foreign_keys"] == "1")
    }

    @Test func unknownLabelNamesAreReportedNotGuessed() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "traces/labels.csv", "device,start,end,mode\nalice,1700000000,1700000600,hoverboard\nalice,1700000600,1700000900,walk\n")
        let summary = try run(folder)
        #expect(summary.unknownModes == ["hoverboard": 1] && summary.labels == 2)
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
        let rows = try store.rows("SELECT raw_name, mode FROM labels ORDER BY start_unix_s")
        #expect(rows.map { $0["mode"] ?? nil } == [nil, "walk"])
    }

    @Test func aFileGivenByItselfIsNamedByItsFolderOrTheManifestBesideIt() throws {
        let folder = try TemporaryFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 10)]]
        let alone = try folder.write("carol/ride.gpx", gpx.text)
        let listed = try folder.write("dave/ride.gpx", gpx.text)
        try folder.write("dave/manifest.csv", "path,device,mode\nride.gpx,dave-phone,bike\n")
        for path in [alone, listed] {
            var options = IngestOptions(paths: [path], storePath: folder.file("out/pipeline.sqlite"))
            options.reportsFolder = folder.file("out")
            _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        }
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
        let devices = try store.rows("SELECT device FROM input_files WHERE format = 'gpx' ORDER BY path")
        #expect(devices.map { $0["device"] ?? nil } == ["carol", "dave-phone"])
        #expect(try store.rows("SELECT mode FROM labels").map { $0["mode"] ?? nil } == ["bike"])
    }
}
