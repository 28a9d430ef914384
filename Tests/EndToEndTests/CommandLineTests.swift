import Foundation
import TestSupport
import Testing

/// The command line as a user meets it: help, JSON, exit codes, usage errors.
@Suite struct CommandLineTests {
    let cli = PipelineCLI()

    @Test func helpStatesEveryOptionWithItsDefaultAndUnit() throws {
        let folder = try TemporaryFolder()
        let help = try cli.pipeline(["ingest", "--help"], in: folder.path)
        #expect(help.status == 0)
        let flat = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for text in [
            "--store", "(default: reports/restricted/pipeline.sqlite)", "--max-accuracy-m", "Default: 150.", "metres",
            "--max-speed-mps", "Default: 100.", "m/s", "--meters-per-hdop", "Default: 5.", "--name-pattern",
            "--columns", "--json", "--force", "--reports"
        ] {
            #expect(flat.contains(text), "ingest --help lacks \(text)")
        }
        let top = try cli.pipeline(["--help"], in: folder.path)
        #expect(top.stdout.contains("ingest") && top.stdout.contains("inspect") && top.stdout.contains("Exit codes"))
    }

    @Test func ingestPrintsJSONAndExitsTwoWhenSomethingIsQuarantined() throws {
        let folder = try TemporaryFolder()
        try cli.makeTraces(folder)
        let first = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite", "--json"], in: folder.path)
        #expect(first.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? Int == 3 && object["quarantined"] as? Int == 1)
        #expect(object["fixes"] as? Int == 60 && object["imu_samples"] as? Int == 100)
        #expect(object["dropped"] is [String: Int])
        #expect(first.stderr.contains("bad.gpx:2:"), "the quarantined file is named with its line")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/restricted/quarantine.csv")))

        let second = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite"], in: folder.path)
        #expect(second.status == 0)
        #expect(second.stderr.contains("nothing changed since the last run"))
    }

    /// An unchanged input is known by its size, modification time and inode, without hashing;
    /// a rewritten one is read again; a touched one is hashed once, found unchanged, and its new
    /// signature kept; `--verify` hashes every input.
    @Test func unchangedInputsAreKnownWithoutHashing() throws {
        let folder = try TemporaryFolder()
        try cli.makeTraces(folder)
        func ingest(_ extra: [String] = []) throws -> [String: Any] {
            let outcome = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite", "--json"] + extra, in: folder.path)
            return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        }
        _ = try ingest()
        var again = try ingest()
        #expect(again["unchanged"] as? Int == 3 && again["unhashed"] as? Int == 3, "\(again)")
        let verified = try ingest(["--verify"])
        #expect(verified["unchanged"] as? Int == 3 && verified["unhashed"] as? Int == 0)

        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 70)]]
        try folder.write("traces/alice/walk.gpx", gpx.text)
        let later = Date(timeIntervalSinceNow: 120)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: folder.file("traces/bob/phone.csv.gz"))
        again = try ingest()
        #expect(again["ingested"] as? Int == 1 && again["fixes"] as? Int == 70, "the rewritten track is read again: \(again)")
        #expect(
            again["unchanged"] as? Int == 2 && again["unhashed"] as? Int == 1,
            "the touched file is hashed, the quarantined one is not: \(again)")
        again = try ingest()
        #expect(again["unchanged"] as? Int == 3 && again["unhashed"] as? Int == 3, "the touched file's new signature was kept: \(again)")
    }

    @Test func inspectDescribesAFileWithoutWriting() throws {
        let folder = try TemporaryFolder()
        try cli.makeTraces(folder)
        let good = try cli.pipeline(["inspect", "traces/bob/phone.csv.gz"], in: folder.path)
        #expect(good.status == 0)
        #expect(
            good.stdout.contains("imu_csv (generic)") && good.stdout.contains("accelerometer: 100 samples, 1.0 Hz from the median interval")
        )
        let bad = try cli.pipeline(["inspect", "--json", "traces/bad.gpx"], in: folder.path)
        #expect(bad.status == 2 && bad.stdout.contains("bad.gpx:2:"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("reports")))
        // A folder: what is not a trace is said, with the reason, not passed over.
        try folder.write("traces/bob/metadata.json", "{\"app\": \"x\"}\n")
        let listed = try cli.pipeline(["inspect", "--json", "traces/bob"], in: folder.path)
        #expect(
            listed.stdout.contains("phone.csv.gz") && listed.stderr.contains("not inspected")
                && listed.stderr.contains("metadata.json: JSON that is not GeoJSON"),
            "\(listed.stderr)")
    }

    @Test func usageErrorsExitWith64AndSayWhy() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(["ingest", "x", "--max-speed-mps=-3"], in: folder.path)
        #expect(outcome.status == 64 && outcome.stderr.contains("greater than 0"))
        let mapping = try cli.pipeline(["ingest", "x", "--columns", "acc=1,2,3"], in: folder.path)
        #expect(mapping.status == 64 && mapping.stderr.contains("time=COLUMN"))
        // With --json, a usage error too is one failure object on standard output, for scripts.
        let scripted = try cli.pipeline(["trips", "--json", "--k", "1"], in: folder.path)
        let failure = try JSONSerialization.jsonObject(with: Data(scripted.stdout.utf8)) as? [String: Any]
        #expect(scripted.status == 64 && failure?["exit_status"] as? Int == 64 && failure?["code"] as? String == "usage")
        #expect((failure?["error"] as? String ?? "").contains("--allow-identifying-k") && scripted.stderr.contains("Usage:"))
        let unknown = try cli.pipeline(["heatmap", "--json", "--bogus"], in: folder.path)
        #expect(unknown.status == 64 && (unknown.stdout.contains(#""code":"usage""#)), "\(unknown.stdout)")
    }

    @Test func aMissingPathIsFatal() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(["ingest", "nowhere", "--store", "out/p.sqlite"], in: folder.path)
        #expect(outcome.status == 1 && outcome.stderr.contains("nowhere: no such file or folder"))
    }

    @Test func tripsPrintsJSONStatesItsOptionsAndRefusesAMissingStore() throws {
        let folder = try TemporaryFolder()
        try cli.makeTraces(folder)
        _ = try cli.pipeline(["ingest", "traces", "--store", "out/p.sqlite"], in: folder.path)
        let outcome = try cli.pipeline(["trips", "--store", "out/p.sqlite", "--json"], in: folder.path)
        #expect(outcome.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(summary?["devices"] as? Int == 1 && summary?["triplegs"] as? Int == 1 && summary?["staypoints"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: folder.file("out/od_matrix.csv")))

        let help = try cli.pipeline(["trips", "--help"], in: folder.path)
        let flat = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for text in [
            "--staypoint-distance <m>", "(default: 100.0)", "--staypoint-time <s>", "(default: 300.0)", "--gap <s>", "(default: 900.0)",
            "--dwell-enter-fixes", "--dwell-exit-time", "--dwell-minimum", "--location-epsilon", "--minimum-leg",
            "--activity-minimum", "--transfer-maximum <s>", "(default: 1800.0)", "--transfer-walk <s>", "(default: 600.0)",
            "--utc-offset-hours", "--no-last-stay", "metres", "seconds"
        ] {
            #expect(flat.contains(text), "trips --help lacks \(text)")
        }
        let missing = try cli.pipeline(["trips", "--store", "nowhere.sqlite"], in: folder.path)
        #expect(missing.status == 1 && missing.stderr.contains("no store at nowhere.sqlite"))
        let scripted = try cli.pipeline(["trips", "--store", "nowhere.sqlite", "--json"], in: folder.path)
        let failure = try JSONSerialization.jsonObject(with: Data(scripted.stdout.utf8)) as? [String: Any]
        #expect(failure?["exit_status"] as? Int == 1 && failure?["code"] as? String == "no_store", "\(scripted.stdout)")
        let bad = try cli.pipeline(["trips", "--store", "out/p.sqlite", "--staypoint-distance=-5"], in: folder.path)
        #expect(bad.status == 64 && bad.stderr.contains("--staypoint-distance must be a positive number"))
        let transfer = try cli.pipeline(["trips", "--store", "out/p.sqlite", "--transfer-walk=-1"], in: folder.path)
        #expect(transfer.status == 64 && transfer.stderr.contains("--transfer-walk must be 0 or more"), "\(transfer.stderr)")
    }
}
