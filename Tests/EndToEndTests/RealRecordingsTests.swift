import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// Recordings as other people's apps and loggers write them: a column mapping that belongs to
/// its file, interval-stamped loggers, and the shipped model found from any folder.
@Suite(.serialized) struct RealRecordingsTests {
    let cli = PipelineCLI()
    let model = SharedData.projectRoot + "/models/mode-model.json"

    func json(_ outcome: PipelineCLI.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }

    /// A logger that writes `x y z dt_ms`, no header, space-separated: 200 rows a second, each
    /// value repeated 4 times (a 50 Hz sensor logged at 200 Hz), vertical bounce at 2 Hz.
    static func intervalLogger(seconds: Int) -> String {
        (0..<(200 * seconds)).map { row in
            let t = Double(row / 4 * 4) / 200
            return String(format: "%.4f 0.2000 %.4f 5", 0.3 * sin(2 * .pi * t), 9.81 + 3 * sin(2 * .pi * 2 * t))
        }.joined(separator: "\n") + "\n"
    }

    static let intervalMapping = "delimiter=space; header=0; dt=4:ms; start=2024-05-01T08:00:00Z; acc=1,2,3"

    @Test func aColumnMappingIsStoredWithItsFileAndUsedByEveryLaterStageAndRerun() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/logger.txt", Self.intervalLogger(seconds: 60))
        let first = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model, "--columns", Self.intervalMapping], in: folder.path)
        #expect(first.status == 0, "\(first.stderr)")
        // 60 s of samples 5 ms apart, 5 s windows every 2.5 s: 23 windows.
        #expect(json(first)["windows"] as? Int == 23, "\(first.stdout)")
        let again = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(
            again.status == 0 && json(again)["up_to_date"] as? Bool == true,
            "a re-run without --columns reads the file as before: \(again.stderr)")
        let forced = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model, "--force"], in: folder.path)
        #expect(
            forced.status == 0 && json(forced)["windows"] as? Int == 23, "--force re-reads it with its stored mapping: \(forced.stderr)")
        let other = try cli.pipeline(
            [
                "run", "traces", "--out", "out", "--json", "--model", model,
                "--columns", "delimiter=space; header=0; dt=4:ms; start=2024-05-01T08:00:00Z; acc=1,2,3:g"
            ], in: folder.path)
        #expect(other.status == 0 && json(other)["ingested"] as? Int == 1, "a new mapping re-reads the file: \(other.stderr)")
    }

    @Test func comfortReadsAFileWithTheMappingItWasIngestedWith() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in FuzzSeeds.all() where ["walk.gpx", "checkins.csv", "stations.csv"].contains(name) {
            try folder.write("traces/fuzz/\(name)", Data(bytes))
        }
        // The check-in's ride, 400 s at 50 Hz, as a headerless table with 20 ms intervals.
        let rows = (0..<20_000).map { "0.1;\(sin(Double($0) * 0.3));9.8;20" }
        try folder.write("traces/fuzz/phone.dat.csv", rows.joined(separator: "\n") + "\n")
        let mapping =
            "delimiter=semicolon; header=0; dt=4:ms; start=\(ISO8601.format(Timestamp(secondsSince1970: FuzzSeeds.start))); acc=1,2,3"
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model, "--columns", mapping], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(json(outcome)["rides"] as? Int == 1 && json(outcome)["measured_rides"] as? Int == 1, "\(outcome.stdout)\n\(outcome.stderr)")
    }

    @Test func aMappingThatMatchesNoFileIsAWarning() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/walk.gpx", Data(FuzzSeeds.all().first { $0.name == "walk.gpx" }!.bytes))
        let outcome = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model, "--columns", Self.intervalMapping], in: folder.path)
        #expect(outcome.status == 0 && outcome.stderr.contains("was applied to no file"), "\(outcome.stderr)")
        #expect((json(outcome)["warnings"] as? [String])?.contains { $0.contains("was applied to no file") } == true, "\(outcome.stdout)")
        let scoped = try cli.pipeline(
            ["run", "traces", "--out", "out2", "--json", "--model", model, "--columns", "files=*.txt; " + Self.intervalMapping],
            in: folder.path)
        #expect(scoped.stderr.contains("no input is named like *.txt"), "\(scoped.stderr)")
    }

    @Test func intervalMappingsNeedAStartAndAUnit() throws {
        for (text, needle) in [
            ("dt=4:ms; acc=1,2,3", "add start="), ("dt=4; start=2024-05-01T08:00:00Z; acc=1,2,3", "needs a unit"),
            ("rate=50; acc=1,2,3", "add start="), ("time=1:s; dt=4:ms; start=0; acc=1,2,3", "only one of")
        ] {
            #expect { try ColumnMappingSpec(text: text) } throws: { "\($0)".contains(needle) }
        }
    }

    @Test func theShippedModelIsFoundFromAnyFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/logger.txt", Self.intervalLogger(seconds: 20))
        // No --model and no models/ here: the model beside the build (the repository's) is used.
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--columns", Self.intervalMapping], in: folder.path)
        #expect(outcome.status == 0 && (json(outcome)["windows"] as? Int ?? 0) > 0, "\(outcome.stderr)")
        #expect(DefaultModel.resolve("elsewhere/model.json") == "elsewhere/model.json", "a path the user gave is never replaced")
        let version = try cli.pipeline(["--version"], in: folder.path)
        #expect(version.status == 0 && version.stdout.split(separator: ".").count == 3, "\(version.stdout)")
    }

    /// Both Paris metro rides of `imu/metro` hold gravity-free `Accelerometer.csv` alone: each
    /// gets windows from its first sample to its last.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func bothMetroRidesAreWindowedForTheirWholeLength() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(["run", SharedData.path("imu/metro"), "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let rides = try store.rows(
            """
            SELECT f.path, f.first_unix_s AS first, f.last_unix_s AS last, COUNT(w.start_unix_s) AS windows,
                   MIN(w.start_unix_s) AS start, MAX(w.end_unix_s) AS end
            FROM input_files f LEFT JOIN mode_windows w ON w.trace = f.path WHERE f.imu_samples > 0 GROUP BY f.path
            """)
        #expect(rides.count == 2)
        for ride in rides {
            func number(_ key: String) -> Double { Double((ride[key] ?? nil) ?? "") ?? .nan }
            let span = number("last") - number("first")
            #expect(span > 540, "9–12 minutes each")
            // 5 s windows every 2.5 s over the whole span, and nothing cut off at either end.
            #expect(number("windows") >= ((span - 5) / 2.5).rounded(.down), "\(ride)")
            #expect(number("start") - number("first") < 2.5 && number("last") - number("end") < 2.5, "\(ride)")
        }
    }

    @Test func everyFileSaysWhatEachStageMadeOfItAndARunWithoutWindowsWarnsAtTheEnd() throws {
        let folder = try TemporaryFolder()
        let gyroOnly = (0..<3000).map { "\(1_700_000_000 + Double($0) * 0.02),0.1,0.2,0.3" }
        try folder.write("traces/gyro.csv", "time,gx,gy,gz\n" + gyroOnly.joined(separator: "\n") + "\n")
        let short = (0..<150).map { "\(1_700_000_000 + Double($0) * 0.02),0.1,0.2,9.8" } // 3 s: shorter than a window
        try folder.write("traces/short.csv", "time,ax,ay,az\n" + short.joined(separator: "\n") + "\n")
        try folder.write("traces/metadata.json", "{\"app\": \"logger\", \"version\": 3}\n")
        try folder.write("traces/numbers.csv", "0.1 0.2 9.8 5\n0.1 0.2 9.8 5\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "a JSON file that is not GeoJSON is skipped, not quarantined: \(outcome.stderr)")
        let summary = json(outcome)
        let outcomes = (summary["file_outcomes"] as? [[String: Any]]) ?? []
        let notes = Dictionary(
            uniqueKeysWithValues: outcomes.map {
                (($0["path"] as? String ?? "") as NSString).lastPathComponent
                    as String
            }.enumerated().map { ($0.element, (outcomes[$0.offset]["notes"] as? [String]) ?? []) })
        #expect(notes["gyro.csv"]?.first?.contains("no acceleration stream (the file holds gyroscope)") == true, "\(notes)")
        #expect(notes["short.csv"]?.first?.contains("lasts 3.0 s, shorter than one 5 s window") == true, "\(notes)")
        let skipped = (summary["skipped_files"] as? [[String: Any]]) ?? []
        #expect(
            skipped.contains {
                ($0["path"] as? String)?.hasSuffix("metadata.json") == true && ($0["reason"] as? String)?.contains("not GeoJSON") == true
            })
        #expect(
            skipped.contains {
                ($0["path"] as? String)?.hasSuffix("numbers.csv") == true && ($0["reason"] as? String)?.contains("--columns") == true
            })
        let lastLines = outcome.stderr.split(separator: "\n").suffix(6).joined(separator: "\n")
        #expect(lastLines.contains("2 files with IMU data were read, and none gave a window"), "the warning comes last: \(lastLines)")
        let report = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(report.contains("What each recording gave") && report.contains("no acceleration stream"))
    }

    @Test func inspectTakesFoldersAndShowsTheRateTheSensorMeasuredAt() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/logger.txt", Self.intervalLogger(seconds: 10))
        try folder.write("traces/README.md", "notes")
        let outcome = try cli.pipeline(["inspect", "traces", "--columns", Self.intervalMapping], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("200.0 Hz from the median interval, each value written 4× so 50.0 Hz measured"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("README"))
    }

    @Test func theGPXAuthorNeverNamesTheDevice() throws {
        let folder = try TemporaryFolder()
        for (index, name) in ["alice", "bob"].enumerated() {
            let points = (0..<5).map {
                "<trkpt lat=\"52.\(index)\(String(format: "%03d", $0))\" lon=\"13.4\"><time>2024-05-06T08:00:0\($0)Z</time></trkpt>"
            }
            try folder.write(
                "traces/\(name)/track.gpx",
                """
                <?xml version="1.0"?><gpx version="1.1" creator="SameApp"><metadata><author><name>Same Person</name></author></metadata>
                <trk><trkseg>\(points.joined())</trkseg></trk></gpx>
                """)
        }
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        let devices = ((json(outcome)["file_outcomes"] as? [[String: Any]]) ?? []).compactMap { $0["device"] as? String }
        #expect(devices.sorted() == ["alice", "bob"], "\(outcome.stderr)")
    }

    @Test func aRideRecordedWithGravityFreeAccelerationIsMeasuredWithAnEstimatedVertical() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in FuzzSeeds.all() where ["walk.gpx", "checkins.csv", "stations.csv"].contains(name) {
            try folder.write("traces/fuzz/\(name)", Data(bytes))
        }
        // Sensor Logger's Accelerometer.csv alone over the check-in's ride: 400 s at 50 Hz.
        let rows = (0..<20_000).map {
            "\(Int64(FuzzSeeds.start * 1e9) + Int64($0) * 20_000_000),\(Double($0) * 0.02),\(sin(Double($0) * 0.3)),0.1,0.2"
        }
        try folder.write("traces/fuzz/export/Metadata.csv", "version,device name\n3,pixel\n")
        try folder.write("traces/fuzz/export/Accelerometer.csv", "time,seconds_elapsed,z,y,x\n" + rows.joined(separator: "\n") + "\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(
            outcome.status == 0 && json(outcome)["rides"] as? Int == 1 && json(outcome)["measured_rides"] as? Int == 1, "\(outcome.stderr)")
        let rides = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).rows(
            "SELECT vertical, source, finished_unix_s - started_unix_s AS seconds, covered_s FROM rides")
        #expect(rides.count == 1 && rides[0]["vertical"] == "estimated" && rides[0]["source"] == "checkin")
        // The ride never lasts longer than the data (400 s), whatever the window the fixes gave.
        let (seconds, covered) = (Double(rides[0]["seconds"]! ?? "") ?? .infinity, Double(rides[0]["covered_s"]! ?? "") ?? 0)
        #expect(seconds <= 400 && covered > 60 && seconds - covered < 1, "\(rides)")
        #expect((json(outcome)["windows"] as? Int ?? 0) > 0, "the same recording still gives windows")
    }

    @Test func aRelativeStartCanComeFromTheFileName() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/logger-2024-05-01_10-00-00.txt", Self.intervalLogger(seconds: 10))
        let mapping = "delimiter=space; header=0; dt=4:ms; start=name+02:00; acc=1,2,3"
        let outcome = try cli.pipeline(["inspect", "traces", "--columns", mapping], in: folder.path)
        // Local 10:00 at UTC+2 is 08:00Z; the first row is one 5 ms interval after the start.
        #expect(outcome.status == 0 && outcome.stdout.contains("2024-05-01T08:00:00.005Z – 2024-05-01T08:00:10Z"), "\(outcome.stdout)")
        try FileManager.default.moveItem(
            atPath: folder.file("traces/logger-2024-05-01_10-00-00.txt"), toPath: folder.file("traces/logger.txt"))
        let unnamed = try cli.pipeline(["inspect", "traces", "--columns", mapping], in: folder.path)
        #expect(unnamed.status == 2 && unnamed.stdout.contains("the name logger.txt has no date and time"), "\(unnamed.stdout)")
    }

    /// Every file of the GPX corpora of other parsers is accounted for: read with fixes or
    /// waypoints, or with a note saying it held nothing, or quarantined or skipped with a reason.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func everyFileOfTheGPXCorporaIsAccountedFor() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(["run", SharedData.path("gpx"), "--out", "out", "--json", "--model", model], in: folder.path)
        #expect([0, 2].contains(outcome.status), "\(outcome.stderr)")
        let summary = json(outcome)
        let outcomes = (summary["file_outcomes"] as? [[String: Any]]) ?? []
        let skipped = (summary["skipped_files"] as? [[String: Any]]) ?? []
        #expect(outcomes.count + skipped.count == summary["files"] as? Int, "every input is an outcome or a skip")
        #expect(skipped.allSatisfy { !(($0["reason"] as? String) ?? "").isEmpty })
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let waypoints = Dictionary(
            uniqueKeysWithValues: try store.rows("SELECT path, waypoints FROM input_files").map {
                (($0["path"] ?? nil) ?? "", Int(($0["waypoints"] ?? nil) ?? "0") ?? 0)
            })
        for file in outcomes {
            let path = file["path"] as? String ?? "", notes = (file["notes"] as? [String]) ?? []
            let fixes = file["fixes"] as? Int ?? 0
            #expect(fixes > 0 || (waypoints[path] ?? 0) > 0 || !notes.isEmpty, "\(path): nothing read and nothing said")
            if file["status"] as? String == "quarantined" { #expect(!notes.isEmpty, "\(path)") }
        }
    }

    @Test func aGPXWithOnlyMetadataSaysSo() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "traces/meta.gpx", #"<?xml version="1.0"?><gpx version="1.1" creator="x"><metadata><name>n</name></metadata></gpx>"#)
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(
            outcome.status == 0 && outcome.stderr.contains("meta.gpx: ingest: no track point, route point or waypoint"), "\(outcome.stderr)"
        )
    }

    @Test func aGravityFreeSensorLoggerZipGivesWindowsAndSaysWhatTheyLack() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<3000).map {
            "\(Int64(1_700_000_000e9) + Int64($0) * 20_000_000),\(Double($0) * 0.02),\(2 * sin(Double($0) * 0.25)),0.1,0.2"
        }
        try folder.write("export/Metadata.csv", "version,device name\n3,Pixel 4 XL\n")
        try folder.write("export/Accelerometer.csv", "time,seconds_elapsed,z,y,x\n" + rows.joined(separator: "\n") + "\n")
        try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
        try FileManager.default.zipItem(
            at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: folder.file("traces/ride.zip")))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        // 60 s at 50 Hz: 23 windows, decided by the shipped model's gravity-free classifier.
        #expect(outcome.status == 0 && json(outcome)["windows"] as? Int == 23, "\(outcome.stderr)")
        let notes = ((json(outcome)["file_outcomes"] as? [[String: Any]])?.first?["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("gravity-free acceleration only") }, "\(notes)")
        let modes = try String(contentsOfFile: folder.file("out/restricted/modes.csv"), encoding: .utf8)
        let deciders = Set(modes.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[9] })
        #expect(deciders == ["model (gravity-free)"], "no gravity: the gravity-free classifier reads these windows, got \(deciders)")
    }

    @Test func aRideWhoseIMUFileHasNoSampleInsideItIsNoIMUNotUnusable() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in FuzzSeeds.all() where ["walk.gpx", "checkins.csv", "stations.csv"].contains(name) {
            try folder.write("traces/fuzz/\(name)", Data(bytes))
        }
        // The file spans the ride, but its samples lie an hour before and two hours after it.
        let before = (0..<500).map { FuzzSeeds.start - 3600 + Double($0) * 0.02 },
            after = (0..<500).map { FuzzSeeds.start + 7200 + Double($0) * 0.02 }
        let rows = (before + after).map { "\($0),0.1,0.2,9.8" }
        try folder.write("traces/fuzz/phone.csv", "time,ax,ay,az\n" + rows.joined(separator: "\n") + "\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        #expect(try store.rows("SELECT status FROM rides").map { $0["status"] ?? nil } == ["no_imu"], "\(outcome.stderr)")
        #expect(outcome.stderr.contains("no_imu: no IMU sample of the device inside the ride"))
    }
}
