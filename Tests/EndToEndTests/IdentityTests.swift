import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// Who is who and what was read, through the real binary: device names from file names keep
/// their dots, a run never reads its own outputs, a moved folder is the same input, a forgotten
/// participant is gone from every output, and k counts persons.
@Suite struct IdentityTests {
    let cli = PipelineCLI()

    func walk(_ folder: TemporaryFolder, _ name: String, day: Double = 0, latitude: Double = 48.0, count: Int = 900) throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: count, start: .init(secondsSince1970: 1_700_000_000 + day * 86_400), latitude: latitude)]]
        try folder.write(name, gpx.text)
    }

    func json(_ outcome: PipelineCLI.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stderr)")
    }

    /// Every output file but the store and its lock, by name, with its bytes.
    /// Every output file below `folder` but the store, by its path below it (`restricted/modes.csv`).
    func outputs(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        where !(name as NSString).lastPathComponent.hasPrefix(StoreLocation.fileName)
            && !(name as NSString).lastPathComponent.hasPrefix(".")
        {
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    @Test func trainWritesOnlyWhereToldAndEvaluateFlagsWhatTheModelSaw() throws {
        let folder = try TemporaryFolder()
        let modes = ModeCommandTests()
        try modes.writeRecordings(folder, devices: ["ann", "ben", "cat", "dan"])
        try FileManager.default.createDirectory(atPath: folder.file("unseen"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.file("traces")) where name.hasPrefix("dan_") {
            try FileManager.default.moveItem(atPath: folder.file("traces/" + name), toPath: folder.file("unseen/" + name))
        }
        let pattern = modes.pattern
        let nowhere = try cli.pipeline(["train", "traces", "--name-pattern", pattern], in: folder.path)
        #expect(nowhere.status == 64 && nowhere.stderr.contains("--model"), "no default file: \(nowhere.stderr)")
        #expect(try cli.pipeline(["train", "traces", "--name-pattern", pattern, "--model", "m.json"], in: folder.path).status == 0)
        let again = try cli.pipeline(["train", "traces", "--name-pattern", pattern, "--model", "m.json"], in: folder.path)
        #expect(again.status == 64 && again.stderr.contains("--force"), "an existing model is never overwritten: \(again.stderr)")
        let model = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("m.json")))) as? [String: Any])
        let provenance = try #require(model["provenance"] as? [String: Any])
        let inputs = try #require(provenance["training_inputs"] as? [[String: Any]])
        #expect(inputs.count == 9 && inputs.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
        #expect(provenance["persons"] as? [String] == ["ann", "ben", "cat"])

        // The training people moved elsewhere beside one new person: flagged by content and person.
        try FileManager.default.moveItem(atPath: folder.file("traces"), toPath: folder.file("unseen/old"))
        let scored = try cli.pipeline(["evaluate", "unseen", "--name-pattern", pattern, "--model", "m.json", "--json"], in: folder.path)
        #expect(scored.status == 0, "\(scored.stderr)")
        let summary = try json(scored)
        let data = try #require(summary["scored_data"] as? [String: Any])
        #expect(data["files"] as? Int == 12 && data["persons"] as? Int == 4 && data["windows"] as? Int == 12 * 17)
        let overlap = try #require(summary["overlap"] as? [String: Any])
        #expect((overlap["trained_files"] as? [String])?.count == 9 && overlap["trained_persons"] as? [String] == ["ann", "ben", "cat"])
        #expect(overlap["unseen_windows"] as? Int == 3 * 17 && overlap["unseen_macro_f1"] is Double)
        let text = try cli.pipeline(["evaluate", "unseen", "--name-pattern", pattern, "--model", "m.json"], in: folder.path)
        #expect(
            text.stdout.contains("WARNING: the model was trained on some of the scored data")
                && text.stdout.contains("never saw (51 windows)"))
    }

    @Test func onePhonesSensorLoggerExportsAreOneDevice() throws {
        let folder = try TemporaryFolder()
        let accelerometer =
            "time,seconds_elapsed,z,y,x\n"
            + (0..<100).map { "\(1_700_000_000_000_000_000 + $0 * 20_000_000),\(Double($0) * 0.02),0.1,0.2,0.3" }
            .joined(separator: "\n") + "\n"
        for (name, id) in [("walk-1", "fc85662c-13cf"), ("walk-2", "fc85662c-13cf"), ("ride", "0a1b2c3d-9999")] {
            try folder.write("in/\(name)/Metadata.csv", "version,device name,device id\n3,Pixel 7,\(id)\n")
            try folder.write("in/\(name)/Accelerometer.csv", accelerometer)
        }
        // The same phone's export as a zip.
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = [
            "python3", "-m", "zipfile", "-c", folder.file("in/walk-3.zip"), folder.file("in/walk-1/Metadata.csv"),
            folder.file("in/walk-1/Accelerometer.csv")
        ]
        try zip.run()
        zip.waitUntilExit()
        let entries = try InputListing(paths: [folder.file("in")]).run()
        let devices = Dictionary(uniqueKeysWithValues: entries.map { (($0.path as NSString).lastPathComponent, $0) })
        #expect(devices["walk-1"]?.device == "Pixel 7-fc85662c" && devices["walk-1"]?.deviceSource == "export_metadata")
        #expect(devices["walk-2"]?.device == "Pixel 7-fc85662c" && devices["walk-3.zip"]?.device == "Pixel 7-fc85662c")
        #expect(devices["ride"]?.device == "Pixel 7-0a1b2c3d", "another phone of the same model is another device")
        // In a participant's folder that holds two phones' exports, each phone is a device of the folder's person.
        let shared = try InputListing(paths: [folder.path]).run()
        #expect(
            Set(shared.map(\.device)) == ["in/Pixel 7-fc85662c", "in/Pixel 7-0a1b2c3d"]
                && shared.allSatisfy { $0.person == "in" && $0.personSource == "folder" },
            "\(shared.map { ($0.device, $0.person) })")
        // One phone's exports and the GPX track beside them: the folder names the device, as before.
        try FileManager.default.removeItem(atPath: folder.file("in/ride"))
        try folder.write("in/day.gpx", GPXBuilder().text)
        #expect(
            try InputListing(paths: [folder.path]).run().allSatisfy {
                $0.device == "in" && $0.deviceSource == "folder" && $0.personSource == "device"
            })

        guard SharedData.isAvailable else { return print(SharedData.skipMessage) }
        let metro = try InputListing(paths: [SharedData.path("imu/metro")]).run().filter { $0.format == "sensor_logger" }
        #expect(
            metro.count == 2 && Set(metro.map(\.device)) == ["Pixel 4 XL-fc85662c"], "two real rides of one phone: \(metro.map(\.device))")
    }

    /// Two people's phones in one folder (a phyphox export from an Android phone and one from
    /// an iPhone, recorded at the same time) are two devices of the folder's person: no trip
    /// joins their recordings, k counts the folder once, and the closing summary says how.
    @Test func twoPhonesExportsInOneFolderAreTwoDevicesOfOnePerson() throws {
        let folder = try TemporaryFolder()
        try PhyphoxExportTests.write(folder, at: "traces/anna/android-walk")
        try PhyphoxExportTests.write(folder, at: "traces/anna/iphone-walk", iPhone: true)
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try json(run)
        let store = try #require(summary["store"] as? [String: Any])
        #expect(store["devices"] as? Int == 2 && store["persons"] as? Int == 1, "\(store)")
        let identities = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).deviceIdentities()
        #expect(
            Set(identities.map(\.device)) == ["anna/google Pixel 6", "anna/Apple iPhone13,2"]
                && identities.allSatisfy { $0.person == "anna" },
            "\(identities.map { ($0.device, $0.person) })")
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let device = try #require(legs.columns.firstIndex(of: "device"))
        #expect(!legs.rows.isEmpty && legs.rows.allSatisfy { ["anna/google Pixel 6", "anna/Apple iPhone13,2"].contains($0[device] ?? "") })
        // One export given by itself (as a part of a distributed run is given its devices' files) has the same name.
        let alone = try InputListing(paths: [folder.file("traces/anna/iphone-walk")]).run()
        #expect(
            alone.map(\.device) == ["anna/Apple iPhone13,2"] && alone.map(\.person) == ["anna"],
            "\(alone.map { ($0.device, $0.deviceSource) })")
        let again = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        #expect(again.stderr.contains("2 devices of 1 persons (device names from folder_and_export 2"), "\(again.stderr)")
    }

    /// A folder of GPS tracks named as one device, where two tracks were recorded at the same
    /// time 55 km apart: those two are two devices of the folder's person, and no tripleg joins
    /// them; a re-upload of one track cut short (same time, same place) is the same device as
    /// that track, and a track of another day stays the folder's device. A compressed track
    /// (read whole for its times) counts too.
    @Test func tracksRecordedAtOnceFarApartAreTwoDevicesOfOnePerson() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "traces/corpus/anna.gpx", count: 1800)
        try walk(folder, "traces/corpus/anna-cut-short.gpx", count: 600)
        try walk(folder, "traces/corpus/next-day.gpx", day: 1, latitude: 48.5)
        try walk(folder, "traces/corpus/ben.gpx", latitude: 48.5, count: 1200)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", folder.file("traces/corpus/ben.gpx")]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)

        let listed = Dictionary(
            uniqueKeysWithValues: try InputListing(paths: [folder.file("traces")]).run()
                .map { (($0.path as NSString).lastPathComponent, $0) })
        #expect(listed["anna.gpx"]?.device == "corpus/anna" && listed["anna.gpx"]?.deviceSource == "folder_and_track")
        #expect(listed["ben.gpx.gz"]?.device == "corpus/ben" && listed["ben.gpx.gz"]?.deviceSource == "folder_and_track")
        #expect(
            listed["anna-cut-short.gpx"]?.device == "corpus/anna" && listed["next-day.gpx"]?.device == "corpus",
            "\(listed.mapValues { $0.device })")
        #expect(listed.values.allSatisfy { $0.person == "corpus" }, "k counts the folder once: \(listed.mapValues { $0.person })")
        // One track given by itself (a part of a distributed run) is named as in the whole run.
        #expect(try InputListing(paths: [folder.file("traces/corpus/anna.gpx")]).run().map(\.device) == ["corpus/anna"])

        let run = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let store = try #require(try json(run)["store"] as? [String: Any])
        #expect(store["devices"] as? Int == 3 && store["persons"] as? Int == 1, "\(store)")
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let device = try #require(legs.columns.firstIndex(of: "device"))
        let start = try #require(legs.columns.firstIndex(of: "started_at"))
        let legDevices = Set(legs.rows.compactMap { $0[device] })
        #expect(legDevices.isSuperset(of: ["corpus/anna", "corpus/ben"]), "\(legs.rows)")
        // Anna's day-one legs never reach Ben's latitude: each leg is one device's.
        let firstDay = legs.rows.filter { ($0[start] ?? "").hasPrefix("2023-11-14") && $0[device] == "corpus" }
        #expect(firstDay.isEmpty, "the folder's device has only the next day's track: \(firstDay)")
        let text = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        #expect(text.stderr.contains("3 devices of 1 persons (device names from folder 1, folder_and_track 2"), "\(text.stderr)")
    }

    /// A manifest row that names no input (a file moved or misspelt) is said, with its line,
    /// rather than leaving its device and person silently unused.
    @Test func aManifestRowMatchingNoInputIsSaid() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/a/day.gpx")
        try folder.write("in/manifest.csv", "path,device,person\na/day.gpx,dev-a,ann\na/dya.gpx,dev-b,bob\nb/*.gpx,dev-c,cat\n")
        let run = try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = (try json(run)["warnings"] as? [String]) ?? []
        let said = warnings.filter { $0.contains("matches no input file") }
        #expect(
            said.count == 2 && said.contains { $0.contains("manifest.csv line 3") && $0.contains("a/dya.gpx") }
                && said.contains { $0.contains("manifest.csv line 4") && $0.contains("b/*.gpx") }, "\(warnings)")
        #expect(try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).deviceIdentities().map(\.device) == ["dev-a"])
    }

    /// A person's labels at the top of their folder and tracks in a folder below (GeoLife's
    /// layout): `user/*` matches the top only, so the tracks would be another device; the run
    /// says so, and `user/**` gives every file below the row's device.
    @Test func aGlobOfTwoStarsMatchesTheFoldersBelowAndOneStarIsWarnedOf() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/user/day.gpx")
        try walk(folder, "in/user/Trajectory/2008/one.gpx")
        try folder.write("in/manifest.csv", "path,device,person\nuser/*,user-phone,ann\n")
        let one = try cli.pipeline(["run", "in", "--out", "one", "--json"], in: folder.path)
        #expect(one.status == 0, "\(one.stderr)")
        let warnings = (try json(one)["warnings"] as? [String]) ?? []
        #expect(
            warnings.contains {
                $0.contains("1 files lie in folders below a manifest row's glob but match no row")
                    && $0.contains("Trajectory/2008/one.gpx") && $0.contains("manifest.csv line 2 (") && $0.contains("user/**")
            }, "\(warnings)")
        #expect(try PipelineStore(path: folder.file("one/restricted/pipeline.sqlite")).deviceIdentities().count == 2)

        try folder.write("in/manifest.csv", "path,device,person\nuser/**,user-phone,ann\n")
        let two = try cli.pipeline(["run", "in", "--out", "two", "--json"], in: folder.path)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(!(((try json(two)["warnings"] as? [String]) ?? []).contains { $0.contains("below a manifest row's glob") }))
        #expect(try PipelineStore(path: folder.file("two/restricted/pipeline.sqlite")).deviceIdentities().map(\.device) == ["user-phone"])
        #expect(Manifest.matches("/a/user/**", "/a/user/x.gpx") && Manifest.matches("/a/user/**/*.gpx", "/a/user/T/2008/x.gpx"))
        #expect(!Manifest.matches("/a/user/**/*.gpx", "/a/user/T/x.csv") && !Manifest.matches("/a/user/**", "/a/other/x.gpx"))
    }

    @Test func discoveryKnowsEveryFileARunWrites() {
        for name in PipelineRun.outputNames + ["heatmap-walk.png", StoreLocation.fileName + "-wal", PipelineRun.partTablesName] {
            #expect(PipelineOutputs.isOutputName(name), "\(name) would be read back from a store's folder among the inputs")
        }
    }

    @Test func knownExtensionsOnlyAreTakenFromAName() {
        #expect(KnownExtensions.strip("anna.smith.gpx") == "anna.smith")
        #expect(KnownExtensions.strip("x.gpx.gz") == "x")
        #expect(KnownExtensions.strip("bob v1.2.gpx") == "bob v1.2")
        #expect(KnownExtensions.strip("gpx1.1_track.GPX") == "gpx1.1_track")
        #expect(KnownExtensions.strip(".gpx") == ".gpx")
    }

    @Test func dotsInFileNamesNeverMergeTwoPeople() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/anna.smith.gpx", latitude: 48.0)
        try walk(folder, "in/anna.jones.gpx", latitude: 52.0)
        try walk(folder, "in/bob v1.2.gpx.gz", latitude: 50.0)
        let listed = try cli.pipeline(["inputs", "in", "--json"], in: folder.path)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["device"] as? String }) == ["anna.smith", "anna.jones", "bob v1.2"])
        #expect(entries.allSatisfy { $0["device_source"] as? String == "file_name" && $0["person_source"] as? String == "device" })
        let run = try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path)
        let store = try json(run)["store"] as? [String: Any]
        #expect(store?["devices"] as? Int == 3 && store?["persons"] as? Int == 3, "\(run.stderr)")
        #expect(run.stderr.contains("device names came from folder or file names only"))
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(report.contains("Devices came from folder or file names only"))
    }

    @Test func aRunNeverReadsItsOwnOutputs() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "data/alice/walk.gpx")
        try walk(folder, "data/bob/walk.gpx", latitude: 48.001)
        let data = folder.file("data")
        let first = try cli.pipeline(["run", ".", "--json"], in: data)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try json(try cli.pipeline(["run", ".", "--json"], in: data))
        let thisRun = try #require(second["this_run"] as? [String: Any])
        #expect(second["up_to_date"] as? Bool == true && thisRun["read"] as? Int == 0 && thisRun["inputs_found"] as? Int == 2)
        let skipped = (second["skipped_files"] as? [[String: Any]]) ?? []
        #expect(skipped.count == 1 && (skipped.first?["reason"] as? String ?? "").contains("own output folder"), "\(skipped)")
        // Another store's folder among the inputs is skipped as well.
        try FileManager.default.copyItem(atPath: folder.file("data/reports"), toPath: folder.file("data/old-results"))
        let third = try json(try cli.pipeline(["run", ".", "--json"], in: data))
        #expect((third["this_run"] as? [String: Any])?["read"] as? Int == 0)
        #expect(
            ((third["skipped_files"] as? [[String: Any]]) ?? []).contains {
                ($0["reason"] as? String ?? "").contains("holds pipeline.sqlite")
            })
    }

    @Test func aMovedFolderIsTheSameInputAndGivesTheSameOutputs() throws {
        let folder = try TemporaryFolder()
        for (index, device) in ["alice", "bob", "carol"].enumerated() {
            try walk(folder, "in/\(device)/day.gpx", latitude: 48.0 + Double(index) * 0.0001)
        }
        try folder.write("in/bad.gpx", "<gpx version=\"1.1\"><trk>\n<oops></gpx>")
        let first = try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path)
        #expect(first.status == 2, "a new quarantine is exit 2: \(first.stderr)")
        let before = try outputs(folder.file("out"))
        #expect(before["restricted/modes.csv"] != nil && before["restricted/quarantine.csv"] != nil)
        let quarantine = String(decoding: try #require(before["restricted/quarantine.csv"]), as: UTF8.self)
        #expect(quarantine.contains("\nbad.gpx,") && !quarantine.contains(folder.path), "paths below the folder given: \(quarantine)")
        let machinePath = Data(folder.path.utf8)
        #expect(before.filter { $0.value.range(of: machinePath) != nil }.keys.sorted() == [], "no output names a path of this machine")

        try FileManager.default.moveItem(atPath: folder.file("in"), toPath: folder.file("moved"))
        let moved = try cli.pipeline(["run", "moved", "--out", "out", "--json"], in: folder.path)
        let summary = try json(moved)
        let thisRun = try #require(summary["this_run"] as? [String: Any])
        #expect(moved.status == 0, "an old quarantine is carried over, not new: \(moved.stderr)")
        #expect(thisRun["moved"] as? Int == 4 && thisRun["read"] as? Int == 0, "\(thisRun)")
        #expect((summary["carried_over_quarantines"] as? [String])?.count == 1)
        #expect((summary["store"] as? [String: Any])?["inputs"] as? Int == 4, "nothing stored twice")
        #expect(try outputs(folder.file("out")) == before, "every output byte for byte")

        // Read afresh from the moved folder into a new store: the same files again.
        let fresh = try cli.pipeline(["run", "moved", "--out", "fresh"], in: folder.path)
        #expect(fresh.status == 2)
        let again = try outputs(folder.file("fresh"))
        for name in ["restricted/modes.csv", "restricted/staypoints.csv", "restricted/trips.csv", "heatmap.csv"] {
            #expect(again[name] == before[name], "\(name) does not depend on where the folder is")
        }
    }

    @Test func aCopyIsReadOnceAndAMissingInputIsSaidThenPruned() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/alice/day.gpx")
        try walk(folder, "in/bob/day.gpx", latitude: 49)
        try FileManager.default.copyItem(atPath: folder.file("in/alice/day.gpx"), toPath: folder.file("in/alice/day-copy.gpx"))
        let first = try json(try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path))
        #expect((first["this_run"] as? [String: Any])?["duplicates"] as? Int == 1)
        #expect((first["store"] as? [String: Any])?["fixes"] as? Int == 1800)

        try FileManager.default.removeItem(atPath: folder.file("in/bob"))
        let kept = try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path)
        let keptSummary = try json(kept)
        #expect((keptSummary["missing_inputs"] as? [String])?.count == 1 && kept.stderr.contains("--prune-missing"))
        #expect((keptSummary["store"] as? [String: Any])?["fixes"] as? Int == 1800, "kept by default")
        let pruned = try json(try cli.pipeline(["run", "in", "--out", "out", "--prune-missing", "--json"], in: folder.path))
        #expect((pruned["this_run"] as? [String: Any])?["pruned"] as? Int == 1)
        #expect((pruned["store"] as? [String: Any])?["fixes"] as? Int == 900)
    }

    @Test func aForgottenParticipantIsGoneFromEveryOutputAndNeverReadAgain() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/alice/day.gpx")
        try walk(folder, "in/bob/day.gpx", latitude: 48.0005)
        try folder.write(
            "in/checkins.csv",
            "device,train,from_station,to_station,checkin_time\nbob,TER 1,a,b,2023-11-14T22:20:00Z\nalice,TER 2,a,b,2023-11-14T22:20:00Z\n")
        #expect(try cli.pipeline(["run", "in", "--out", "out"], in: folder.path).status == 0)
        func mentionsBob() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: folder.file("out")).filter {
                $0.hasSuffix(".csv") || $0.hasSuffix(".geojson") || $0.hasSuffix("report.html")
            }
            .filter { try String(contentsOfFile: folder.file("out/" + $0), encoding: .utf8).contains("bob") }
        }
        let before = try mentionsBob()
        let forget = try cli.pipeline(["forget", "--out", "out", "--person", "bob", "--json"], in: folder.path)
        #expect(forget.status == 0, "\(forget.stderr)")
        let forgotten = try #require(try json(forget)["forgotten"] as? [String: Any])
        #expect(forgotten["input_files"] as? Int == 1 && forgotten["checkins"] as? Int == 1 && forgotten["fixes"] as? Int == 900)
        #expect(try mentionsBob().isEmpty, "bob is gone from every output")
        #expect(!before.isEmpty, "before, bob was in \(before)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        #expect(try store.rows("SELECT COUNT(*) AS n FROM input_files WHERE device = 'bob'").first?["n"] == "0")
        // The next nightly run finds bob's files still there and leaves them unread.
        let next = try json(try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path))
        #expect(((next["skipped_files"] as? [[String: Any]]) ?? []).contains { ($0["reason"] as? String ?? "").contains("forgotten") })
        #expect(try mentionsBob().isEmpty, "and the shared check-in table does not bring him back")
    }

    /// A withdrawal script trusts the exit code: a name the store holds nothing of is exit 1 and
    /// changes nothing, with the names it may have meant; `--allow-unknown` records it for later.
    @Test func forgetOfANameTheStoreDoesNotHoldFailsAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/alice/day.gpx")
        try walk(folder, "in/p2/day.gpx", latitude: 48.0005)
        try folder.write("in/manifest.csv", "path,device,person\np2/*.gpx,p2,zijie\n")
        #expect(try cli.pipeline(["run", "in", "--out", "out"], in: folder.path).status == 0)
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        func state() throws -> [[String: String?]] {
            try store.rows(
                "SELECT (SELECT COUNT(*) FROM input_files) AS files, (SELECT COUNT(*) FROM forgotten) AS forgotten, "
                    + "(SELECT COUNT(*) FROM triplegs) AS legs")
        }
        let before = try state(), outputsBefore = try outputs(folder.file("out"))

        let typo = try cli.pipeline(["forget", "--out", "out", "--person", "Zijie"], in: folder.path)
        #expect(typo.status == 1 && typo.stderr.contains("no person Zijie (did you mean zijie?)"), "\(typo.stderr)")
        let unknown = try cli.pipeline(
            ["forget", "--out", "out", "--person", "nobody-typo", "--device", "alice", "--json"], in: folder.path)
        #expect(unknown.status == 1 && unknown.stderr.contains("person nobody-typo"))
        let failure = try json(unknown)
        #expect(failure["exit_status"] as? Int == 1 && failure["code"] as? String == "unknown_names")
        #expect((failure["error"] as? String ?? "").contains("nothing was forgotten"))
        #expect(try state() == before && (try outputs(folder.file("out"))) == outputsBefore, "alice too is still there: nothing changed")

        let real = try json(try cli.pipeline(["forget", "--out", "out", "--person", "zijie", "--json"], in: folder.path))
        #expect(real["exit_status"] as? Int == 0 && (real["forgotten"] as? [String: Any])?["input_files"] as? Int == 1)
        #expect(((real["names"] as? [String: Any])?["known"] as? [[String: Any]])?.first?["name"] as? String == "zijie")
        let again = try cli.pipeline(["forget", "--out", "out", "--person", "zijie"], in: folder.path)
        #expect(again.status == 0 && again.stderr.contains("already forgotten"), "a repeated withdrawal is no error: \(again.stderr)")

        let blocked = try cli.pipeline(["forget", "--out", "out", "--device", "phone-to-come", "--allow-unknown"], in: folder.path)
        #expect(blocked.status == 0 && blocked.stderr.contains("recorded as forgotten (--allow-unknown)"), "\(blocked.stderr)")
        #expect(try store.rows("SELECT name FROM forgotten WHERE kind = 'device' AND name = 'phone-to-come'").count == 1)
    }

    /// Every key path of a JSON value (list items under "[]").
    static func keyPaths(_ value: Any, _ prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { paths, entry in
                paths.insert(prefix + entry.key)
                paths.formUnion(keyPaths(entry.value, prefix + entry.key + "."))
            }
        }
        if let list = value as? [Any] { return list.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, prefix + "[].")) } }
        return []
    }

    /// A nightly script reads `run --json` the same way every night: a run that finds nothing
    /// changed has every key the first run had (the OD tables' counts as last published, every
    /// stage's seconds), and every file outcome has every key, null where it does not apply.
    @Test func runJSONHasTheSameKeysOnEveryRun() throws {
        let folder = try TemporaryFolder()
        try walk(folder, "in/alice/day.gpx")
        try folder.write("in/alice/notes.gpx", "<gpx version=\"1.1\"></gpx>")
        let first = try json(try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path))
        let again = try json(try cli.pipeline(["run", "in", "--out", "out", "--json"], in: folder.path))
        #expect(again["up_to_date"] as? Bool == true)
        #expect(
            Self.keyPaths(first) == Self.keyPaths(again), "only first: \(Self.keyPaths(first).subtracting(Self.keyPaths(again)).sorted())")
        #expect((again["od_grid"] as? [String: Any])?["k"] as? Int == 3 && (again["od_matrix"] as? [String: Any])?["k"] as? Int == 3)
        #expect(Set((again["stage_seconds"] as? [String: Any] ?? [:]).keys) == Set(PipelineRun.stages))
        let outcomes = try #require(first["file_outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 2 && Set(outcomes.map { Set($0.keys) }).count == 1, "\(outcomes.map { $0.keys.sorted() })")
    }

    @Test func heatMapKCountsPersonsNotDevices() throws {
        let folder = try TemporaryFolder()
        // Three phones on the same street: two carried by one person.
        for device in ["p1", "p2", "p3"] { try walk(folder, "in/\(device)/walk.gpx") }
        #expect(try cli.pipeline(["run", "in", "--out", "devices"], in: folder.path).status == 0)
        let byDevice = try String(contentsOfFile: folder.file("devices/heatmap.csv"), encoding: .utf8).split(separator: "\n")
        #expect(byDevice.count > 1 && byDevice[0].contains(",devices,persons,"), "three devices, none with a person: cells published")

        try folder.write("in/manifest.csv", "path,device,person\np1/*.gpx,p1,ann\np2/*.gpx,p2,ann\np3/walk.gpx,p3,ben\n")
        let run = try cli.pipeline(["run", "in", "--out", "persons", "--json"], in: folder.path)
        let store = try #require(try json(run)["store"] as? [String: Any])
        #expect(store["devices"] as? Int == 3 && store["persons"] as? Int == 2 && store["devices_with_person"] as? Int == 3)
        let byPerson = try String(contentsOfFile: folder.file("persons/heatmap.csv"), encoding: .utf8).split(separator: "\n")
        #expect(byPerson.count == 1, "two persons never meet k = 3: \(byPerson.prefix(3))")
        let listed = try cli.pipeline(["inputs", "in"], in: folder.path)
        #expect(listed.stdout.contains("device p2 (manifest), person ann (manifest)"))

        // k below 2 publishes one person's numbers: only when asked for by name.
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        let refused = try cli.pipeline(["run", "in", "--out", "k1", "--config", "k1.yaml"], in: folder.path)
        #expect(refused.status == 64 && refused.stderr.contains("--allow-identifying-k"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("k1")), "nothing is written")
        let heatmap = try cli.pipeline(["heatmap", "--store", "persons/pipeline.sqlite", "--k", "1"], in: folder.path)
        #expect(heatmap.status == 64 && heatmap.stderr.contains("one person alone"), "\(heatmap.stderr)")
        let allowed = try cli.pipeline(["run", "in", "--out", "k1", "--config", "k1.yaml", "--allow-identifying-k"], in: folder.path)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let cells = try String(contentsOfFile: folder.file("k1/heatmap.csv"), encoding: .utf8)
        #expect(cells.split(separator: "\n").count > 1, "k = 1, asked for: cells of one person are published")
    }

    @Test func aSchedulerGetsTrueExitCodesAndNoOpRunsWriteNothing() throws {
        let folder = try TemporaryFolder()
        let missing = try cli.pipeline(["run", "nowhere", "--out", "out"], in: folder.path)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere: no such file or folder"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "no store is created")

        try FileManager.default.createDirectory(atPath: folder.file("empty"), withIntermediateDirectories: true)
        let empty = try cli.pipeline(["run", "empty", "--out", "out", "--json"], in: folder.path)
        #expect(empty.status == 0 && empty.stderr.contains("no input file was found"))
        #expect((try json(empty)["this_run"] as? [String: Any])?["inputs_found"] as? Int == 0)

        try walk(folder, "in/alice/day.gpx")
        try folder.write("in/bad.gpx", "<gpx version=\"1.1\"><trk>\n<oops></gpx>")
        #expect(try cli.pipeline(["run", "in", "--out", "out2"], in: folder.path).status == 2)
        func mtimes() throws -> [String: Date] {
            var times: [String: Date] = [:]
            for name in try FileManager.default.subpathsOfDirectory(atPath: folder.file("out2")) {
                let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("out2/" + name))
                guard attributes[.type] as? FileAttributeType == .typeRegular else { continue } // a folder's time is its entries'
                times[name] = attributes[.modificationDate] as? Date
            }
            return times
        }
        let before = try mtimes()
        Thread.sleep(forTimeInterval: 1.1)
        let noOp = try cli.pipeline(["run", "in", "--out", "out2", "--json"], in: folder.path)
        #expect(noOp.status == 0, "an old quarantine does not make exit 2 again")
        #expect(try json(noOp)["up_to_date"] as? Bool == true)
        let after = try mtimes()
        for (name, time) in before where !(name as NSString).lastPathComponent.hasPrefix(StoreLocation.fileName) {
            #expect(after[name] == time, "\(name) was rewritten by a run that changed nothing")
        }
    }
}
