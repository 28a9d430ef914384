import Foundation
import MobilityCore
import Store
import TestSupport
import Testing

/// The store leaves the published part of `--out` (`StoreLocation`, `StoreRelocation`): a
/// store an earlier version kept at the top is moved once to `restricted/`, under both
/// places' locks, with a line in the log; a store in both places stops the command; and no
/// file of the published part names a person, a device, an input or a stay.
@Suite struct StoreRelocationTests {
    let cli = PipelineCLI()

    func walks(_ folder: TemporaryFolder) throws {
        for (person, latitude) in [("ann", 48.0), ("ben", 48.2), ("cem", 48.4)] {
            var gpx = GPXBuilder()
            gpx.tracks = [[GPXBuilder.walk(count: 900, latitude: latitude)]]
            try folder.write("traces/\(person)/day.gpx", gpx.text)
        }
    }

    /// A run's output folder as earlier versions left it: the store at the top.
    func formerLayout(_ folder: TemporaryFolder) throws {
        try walks(folder)
        let run = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        try #require(run.status == 0, "\(run.stderr)")
        try FileManager.default.moveItem(atPath: folder.file("out/restricted/pipeline.sqlite"), toPath: folder.file("out/pipeline.sqlite"))
        try? FileManager.default.removeItem(atPath: folder.file("out/restricted/pipeline.sqlite.lock"))
    }

    func json(_ outcome: PipelineCLI.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stderr)")
    }

    @Test func aStoreAtTheTopIsMovedOnceAndKeepsEverything() throws {
        let folder = try TemporaryFolder()
        try formerLayout(folder)
        let trips = try PipelineStore(path: folder.file("out/pipeline.sqlite")).rowCount("trips")
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("moved the store from out/pipeline.sqlite to out/restricted/pipeline.sqlite"), "\(run.stderr)")
        #expect(try json(run)["up_to_date"] as? Bool == true, "the moved store is the same store: nothing to do")
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(
                !FileManager.default.fileExists(atPath: folder.file("out/pipeline.sqlite" + suffix)),
                "pipeline.sqlite\(suffix) left at the top")
        }
        #expect(try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).rowCount("trips") == trips)
        let again = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        #expect(again.status == 0 && !again.stderr.contains("moved the store"), "moved once: \(again.stderr)")
    }

    @Test func everyCommandThatFindsTheStoreFollowsIt() throws {
        let folder = try TemporaryFolder()
        try formerLayout(folder)
        // A script that still names the store where it was: the command moves it and works on it.
        let trips = try cli.pipeline(["trips", "--store", "out/pipeline.sqlite", "--json"], in: folder.path)
        #expect(trips.status == 0, "\(trips.stderr)")
        #expect(trips.stderr.contains("moved the store"), "\(trips.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")))
        #expect(FileManager.default.fileExists(atPath: folder.file("out/modal_split.csv")), "the published tables at the top, as before")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/restricted")), "not one folder down")
        let export = try cli.pipeline(["export", "--store", "out/pipeline.sqlite", "--table", "trips"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/restricted/export/trips.csv")))
        let forget = try cli.pipeline(["forget", "--out", "out", "--person", "ann"], in: folder.path)
        #expect(forget.status == 0, "\(forget.stderr)")
        let missing = try cli.pipeline(["heatmap", "--store", "elsewhere/pipeline.sqlite"], in: folder.path)
        #expect(missing.status == 1 && missing.stderr.contains("elsewhere/restricted/pipeline.sqlite"), "\(missing.stderr)")
    }

    @Test func aStoreInBothPlacesStopsTheRunNamingBoth() throws {
        let folder = try TemporaryFolder()
        try formerLayout(folder)
        try FileManager.default.copyItem(atPath: folder.file("out/pipeline.sqlite"), toPath: folder.file("out/restricted/pipeline.sqlite"))
        let before = try FileManager.default.contents(atPath: folder.file("out/pipeline.sqlite"))
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("out/pipeline.sqlite") && run.stderr.contains("out/restricted/pipeline.sqlite"), "\(run.stderr)")
        #expect(try json(run)["code"] as? String == "store_in_two_places")
        #expect(try FileManager.default.contents(atPath: folder.file("out/pipeline.sqlite")) == before, "neither is touched")
    }

    @Test func aRunOfAnOlderVersionOnTheFolderIsNotMovedUnder() throws {
        let folder = try TemporaryFolder()
        try formerLayout(folder)
        let olderRun = try RunLock(storePath: folder.file("out/pipeline.sqlite")) // as an earlier version's `run` holds it
        let run = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        #expect(run.status == 75, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/pipeline.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")))
        withExtendedLifetime(olderRun) {}
    }

    /// Everything outside `restricted/` is what an analyst may copy and hand on: no byte of it
    /// names a person, a device or an input file, or holds a stay's coordinates (as text or as
    /// the GeoPackage's doubles), and the store is not in it.
    @Test func thePublishedPartNamesNobodyAndHoldsNoStay() throws {
        let folder = try TemporaryFolder()
        // The bundled traces, each phone a person named apart from its device.
        try FileManager.default.copyItem(atPath: SharedData.projectRoot + "/traces", toPath: folder.file("in"))
        let phones = try FileManager.default.contentsOfDirectory(atPath: folder.file("in")).filter { $0.hasPrefix("phone-") }.sorted()
        try folder.write(
            "in/manifest.csv", "path,device,person\n" + phones.map { "\($0)/*,\($0),resident-\($0.suffix(2))-kallio\n" }.joined())
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: folder.file("in")).filter {
            !$0.hasPrefix(".") && ($0 as NSString).pathExtension != "" && $0 != "manifest.csv"
        }
        let run = try cli.pipeline(["run", "in", "--out", "out"], in: folder.path)
        #expect(run.status == 2, "the cut-off upload is quarantined: \(run.stderr)")
        let out = folder.file("out")
        try FileManager.default.createDirectory(atPath: folder.file("handed-on"), withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: out) where entry != StoreLocation.restrictedFolderName {
            try FileManager.default.copyItem(atPath: folder.file("out/" + entry), toPath: folder.file("handed-on/" + entry))
        }
        let copied = try FileManager.default.subpathsOfDirectory(atPath: folder.file("handed-on"))
        #expect(!copied.contains { ($0 as NSString).lastPathComponent.hasPrefix(StoreLocation.fileName) }, "\(copied)")
        #expect(copied.contains("report.html") && copied.contains("od_matrix.csv"), "\(copied)")

        let devices = try CSVTable.read(path: folder.file("out/restricted/device_stats.csv"))
        let persons = try CSVTable.read(path: folder.file("out/restricted/person_days.csv"))
        let personColumn = try #require(persons.columns.firstIndex(of: "person"))
        var names = Set(devices.rows.compactMap { $0[devices.columns.firstIndex(of: "device")!] })
        let residents = Set(persons.rows.compactMap { $0[personColumn] })
        #expect(residents.count == phones.count && residents.allSatisfy { $0.hasPrefix("resident-") }, "\(residents)")
        names.formUnion(residents)
        names.formUnion(inputs.map { ($0 as NSString).lastPathComponent })
        let stays = try CSVTable.read(path: folder.file("out/restricted/staypoints.csv"))
        let (lat, lon) = (try #require(stays.columns.firstIndex(of: "lat")), try #require(stays.columns.firstIndex(of: "lon")))
        let coordinates = stays.rows.flatMap { [$0[lat], $0[lon]].compactMap { $0 } }.filter { $0.count >= 7 }
        #expect(names.count > 8 && coordinates.count > 20, "\(names.count) names, \(coordinates.count) coordinates")
        var patterns = names.map { ($0, Data($0.utf8)) } + coordinates.map { ("stay coordinate \($0)", Data($0.utf8)) }
        patterns += coordinates.compactMap { text in
            Double(text).map { value in
                ("stay coordinate \(text) as a double", withUnsafeBytes(of: value.bitPattern.littleEndian) { Data($0) })
            }
        }
        for file in copied {
            var isFolder: ObjCBool = false
            let path = folder.file("handed-on/" + file)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try #require(FileManager.default.contents(atPath: path))
            for (what, pattern) in patterns where bytes.range(of: pattern) != nil { Issue.record("\(file) holds \(what)") }
        }
    }
}
