import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// A mapping belongs to the files it names, in one run beside other apps' exports; a start can
/// come per file from a manifest or from the name the user gave (a link's own); and every
/// file's outcome is true, with every option a message suggests accepted by the command that
/// printed it.
@Suite(.serialized) struct PerFileMappingTests {
    let cli = PipelineCLI()
    let model = SharedData.projectRoot + "/models/mode-model.json"
    static let logger = "delimiter=space; header=0; dt=4:ms; acc=1,2,3"

    func json(_ outcome: PipelineCLI.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }

    func files(_ folder: TemporaryFolder, _ out: String = "out") throws -> [String: [String: String?]] {
        let rows = try PipelineStore(path: StoreLocation.path(in: folder.file(out)))
            .rows("SELECT relative_path, format, status, imu_samples, first_unix_s, column_mapping FROM input_files")
        return Dictionary(uniqueKeysWithValues: rows.map { (($0["relative_path"] ?? nil) ?? "", $0) })
    }

    /// An iPhone phyphox export beside a headerless 200 Hz logger and its metadata table.
    func mixedFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try PhyphoxExportTests.write(folder, at: "traces/phone/bike-1", iPhone: true)
        try folder.write("traces/logger/tram-2024-05-01_10-00-00.txt", RealRecordingsTests.intervalLogger(seconds: 30))
        try folder.write("traces/logger/device.csv", "property,value\nserial,AX-1234\nfirmware,2.1\n")
        return folder
    }

    @Test(arguments: ["files=*.txt; ", ""])
    func aMappingReadsItsFilesAndLeavesTheOthersToTheirReaders(scope: String) throws {
        let folder = try mixedFolder()
        let mapping = scope + Self.logger + "; start=name+02:00"
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model, "--columns", mapping], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let files = try files(folder)
        let phone = try #require(files["phone/bike-1"]), tram = try #require(files["logger/tram-2024-05-01_10-00-00.txt"])
        #expect(phone["format"] == "phyphox" && phone["imu_samples"] == "18000" && phone["column_mapping"] == .some(nil), "\(phone)")
        #expect(tram["status"] == "ingested" && tram["imu_samples"] == "6000", "\(tram)")
        // Local 10:00 at +02:00 is 08:00Z; the first row is one 5 ms interval later. Stored resolved: no name is read again.
        #expect(tram["first_unix_s"] == "1714550400.005", "\(tram)")
        #expect(tram["column_mapping"] == "acc=1,2,3;delimiter=space;dt=4:ms;header=0;start=2024-05-01T08:00:00Z", "\(tram)")
        #expect(
            files["logger/device.csv"] == nil && !(outcome.stderr.contains("device.csv") && outcome.stderr.contains("quarantined")),
            "the metadata table is skipped, not read with the logger's mapping: \(outcome.stderr)")
        #expect((json(outcome)["windows"] as? Int ?? 0) > 22, "both recordings give windows")
    }

    @Test func aManifestGivesEachFileItsMappingAndStart() throws {
        let folder = try TemporaryFolder()
        for name in ["a", "b"] { try folder.write("traces/logger/\(name).txt", RealRecordingsTests.intervalLogger(seconds: 20)) }
        try PhyphoxExportTests.write(folder, at: "traces/phone/walk-1", iPhone: true)
        try FileManager.default.removeItem(atPath: folder.file("traces/phone/walk-1/meta"))
        try folder.write(
            "traces/manifest.csv",
            """
            path,device,person,columns,start
            logger/a.txt,logger-7,ann,"\(Self.logger)",2024-05-01T08:00:00Z
            logger/b.txt,logger-7,ann,"\(Self.logger)",2024-05-01T09:30:00+02:00
            phone/walk-1,iphone-ann,ann,,2023-11-14T22:13:20Z

            """)
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let files = try files(folder)
        #expect(
            files["logger/a.txt"]?["first_unix_s"] == "1714550400.005" && files["logger/b.txt"]?["first_unix_s"] == "1714548600.005",
            "\(files)")
        // phyphox without meta/time.csv: the manifest's start is its clock (no pause known, so one run of 60 s).
        #expect(files["phone/walk-1"]?["imu_samples"] == "18000" && files["phone/walk-1"]?["first_unix_s"] == "1700000000.0", "\(files)")
        let again = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(again.status == 0 && json(again)["up_to_date"] as? Bool == true, "\(again.stderr)")
        // A mistake in a row names the manifest's line.
        try folder.write("traces/manifest.csv", "path,device,columns\nlogger/a.txt,logger-7,\"delimiter=space; acc=1,2\"\n")
        let wrong = try cli.pipeline(["run", "traces", "--out", "out2", "--model", model], in: folder.path)
        #expect(
            wrong.status == 2 && wrong.stderr.contains("manifest.csv:2") && wrong.stderr.contains("invalid column mapping"),
            "\(wrong.stderr)")
    }

    @Test func startFromTheNameReadsTheLinksNameInEveryStage() throws {
        let folder = try TemporaryFolder()
        try folder.write("raw/0001.txt", RealRecordingsTests.intervalLogger(seconds: 30))
        try folder.write("raw/0002.txt", RealRecordingsTests.intervalLogger(seconds: 30))
        try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("traces/tram-2024-05-01_10-00-00.txt"), withDestinationPath: "../raw/0001.txt")
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("traces/bus-2024-05-01_11-00-00.txt"), withDestinationPath: folder.file("raw/0002.txt"))
        let mapping = "files=*.txt; " + Self.logger + "; start=name+02:00"
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model, "--columns", mapping], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let files = try files(folder)
        #expect(files["tram-2024-05-01_10-00-00.txt"]?["first_unix_s"] == "1714550400.005", "\(files)")
        #expect(files["bus-2024-05-01_11-00-00.txt"]?["first_unix_s"] == "1714554000.005", "\(files)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        #expect(
            try store.rows("SELECT COUNT(*) AS n FROM stage_failures")[0]["n"] == "0",
            "classify reads them as ingest did: nothing set aside")
        #expect(try store.rows("SELECT COUNT(DISTINCT trace) AS n FROM mode_windows")[0]["n"] == "2")
        // A file given by itself through its link is named by the link too.
        let alone = try cli.pipeline(["inspect", "traces/tram-2024-05-01_10-00-00.txt", "--columns", mapping], in: folder.path)
        #expect(alone.status == 0 && alone.stdout.contains("2024-05-01T08:00:00.005Z"), "\(alone.stdout)")
        let again = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(again.status == 0 && json(again)["up_to_date"] as? Bool == true, "\(again.stderr)")
    }

    @Test func aGPXWhoseEveryPointWasDroppedIsQuarantinedAndTheSuggestedOptionKeepsIt() throws {
        let folder = try TemporaryFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 120, start: .init(secondsSince1970: -2_147_483_648), latitude: 46.4)]] // 1901-12-13
        try folder.write("traces/old.gpx", gpx.text)
        try folder.write(
            "traces/empty.gpx",
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"x\"><metadata><name>nothing</name></metadata></gpx>\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let outcomes = try #require(json(outcome)["file_outcomes"] as? [[String: Any]])
        let old = try #require(outcomes.first { ($0["path"] as? String)?.hasSuffix("old.gpx") == true })
        let empty = try #require(outcomes.first { ($0["path"] as? String)?.hasSuffix("empty.gpx") == true })
        let oldNotes = (old["notes"] as? [String] ?? []).joined()
        #expect(
            old["status"] as? String == "quarantined" && oldNotes.contains("all 120 dropped (120 implausible_time)")
                && !oldNotes.contains("metadata only"), "\(old)")
        #expect(
            (empty["notes"] as? [String] ?? []).joined().contains("metadata only") && empty["status"] as? String == "ingested", "\(empty)")
        // Run what the message suggests.
        let suggested = try #require(
            oldNotes.range(of: #"--earliest-time [0-9-]+"#, options: .regularExpression).map { String(oldNotes[$0]) })
        let kept = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model] + suggested.split(separator: " ").map(String.init),
            in: folder.path)
        #expect(kept.status == 0 && json(kept)["fixes"] as? Int == 120, "\(suggested): \(kept.stderr)")
    }

    @Test func aTrackThatGaveNeitherStayNorLegSaysWhy() throws {
        let folder = try TemporaryFolder()
        let points = (0..<50).map { "<trkpt lat=\"46.\(1000 + $0)\" lon=\"14.5\"></trkpt>" }.joined()
        try folder.write(
            "traces/untimed/route.gpx",
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"x\"><trk><trkseg>\(points)</trkseg></trk></gpx>\n")
        try folder.write(
            "traces/walker/walk.gpx",
            {
                var gpx = GPXBuilder()
                gpx.tracks = [[GPXBuilder.walk(count: 900, latitude: 46.4)]]
                return gpx.text
            }())
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let outcomes = try #require(json(outcome)["file_outcomes"] as? [[String: Any]])
        let untimed = try #require(outcomes.first { ($0["shown_path"] as? String) == "untimed/route.gpx" })
        #expect(untimed["made_nothing"] as? Bool == true && untimed["triplegs"] as? Int == 0, "\(untimed)")
        #expect((untimed["notes"] as? [String])?.first?.contains("none of its 50 fixes has a time") == true, "\(untimed)")
        #expect(outcome.stderr.contains("none of its 50 fixes has a time"), "said in the log too")
        let walk = try #require(outcomes.first { ($0["shown_path"] as? String) == "walker/walk.gpx" })
        #expect(walk["made_nothing"] as? Bool == false && (walk["triplegs"] as? Int ?? 0) >= 1, "\(walk)")
    }

    @Test func aPositionTableOfPoorFixesSuggestsTheAccuracyThatKeepsThem() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "traces/poor.csv",
            "time,lat,lon,accuracy\n"
                + (0..<60).map { "\(1_714_550_400 + $0),52.37,\(4.9 + Double($0) * 1e-5),400" }.joined(separator: "\n") + "\n")
        let outcome = try cli.pipeline(["ingest", "traces", "--store", "out/pipeline.sqlite"], in: folder.path)
        #expect(outcome.status == 2 && outcome.stderr.contains("60 accuracy_too_low"), "\(outcome.stderr)")
        let suggested = try #require(
            outcome.stderr.range(of: #"--max-accuracy-m [0-9]+"#, options: .regularExpression).map { String(outcome.stderr[$0]) })
        let kept = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model] + suggested.split(separator: " ").map(String.init),
            in: folder.path)
        #expect(kept.status == 0 && json(kept)["fixes"] as? Int == 60, "\(suggested): \(kept.stderr)")
    }

    /// QROWD's real table (`"user","timestamp","x","y","z","class"`, quoted times) matches no
    /// dialect; the mapping its message suggests reads it.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func theMappingAnUnknownTableIsToldToUseReadsIt() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("traces/walk.csv"), withDestinationPath: SharedData.path("imu/qrowd/datasets/walk.csv"))
        let refused = try cli.pipeline(["ingest", "traces", "--store", "out/pipeline.sqlite"], in: folder.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        let suggested = try #require(refused.stderr.firstMatch(of: /--columns '([^']*)'/).map { String($0.output.1) }, "\(refused.stderr)")
        #expect(suggested == "files=walk.csv; time=timestamp; acc=x,y,z; label=class")
        let read = try cli.pipeline(
            ["ingest", "traces", "--store", "out/pipeline.sqlite", "--json", "--columns", suggested], in: folder.path)
        #expect(read.status == 0 && json(read)["imu_samples"] as? Int == 36_495, "\(read.stderr)")
    }

    /// Every `--option` a message names exists on the command that printed it.
    @Test func everyOptionAMessageSuggestsExistsOnItsCommand() throws {
        let folder = try mixedFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 30, start: .init(secondsSince1970: -2_147_483_648), latitude: 46.4)]]
        try folder.write("traces/old.gpx", gpx.text)
        try folder.write("traces/poor.csv", "time,lat,lon,accuracy\n1714550400,52.37,4.9,400\n1714550401,52.37,4.9,400\n")
        try folder.write("traces/unknown.csv", "stamp,alpha,beta,gamma\n1,2,3,4\n")
        try folder.write("traces/relative.csv", "time,ax,ay,az\n0.01,1,2,3\n0.02,1,2,3\n")
        try PhyphoxExportTests.write(folder, at: "traces/phone/partial", iPhone: true)
        try FileManager.default.removeItem(atPath: folder.file("traces/phone/partial/meta"))
        var commands: [(String, [String])] = []
        for command in [
            ["run", "traces", "--out", "out", "--model", model], ["ingest", "traces", "--store", "out2/pipeline.sqlite"],
            ["inspect", "traces"],
            ["run", "traces", "--out", "out3", "--model", model, "--columns", "files=nothing-*.dat; " + Self.logger + "; start=name"]
        ] {
            let outcome = try cli.pipeline(command, in: folder.path)
            commands.append((command[0], [outcome.stdout, outcome.stderr]))
            #expect(!outcome.stderr.contains("no longer found"), "\(command): \(outcome.stderr)")
        }
        var checked = Set<String>()
        for (command, texts) in commands {
            let help = try cli.pipeline([command, "--help"], in: folder.path).stdout
            for text in texts {
                for match in text.matches(of: /--[a-z][a-z-]+/) where !checked.contains(command + String(match.output)) {
                    let option = String(match.output)
                    checked.insert(command + option)
                    #expect(
                        help.contains(option + " ") || help.contains(option + "\n") || help.contains(option + ","),
                        "`pipeline \(command)` printed \(option), which it does not take")
                }
            }
        }
        for needed in ["--earliest-time", "--max-accuracy-m", "--columns"] {
            #expect(
                checked.contains("run" + needed) && checked.contains("ingest" + needed),
                "the messages suggest \(needed): \(checked.sorted())")
        }
    }
}
