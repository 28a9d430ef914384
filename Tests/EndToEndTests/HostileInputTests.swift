import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Hostile and broken inputs never stop the nightly job: the files in `../shared/data/hostile`
/// that crashed or blew up `pipeline run`, a file a stage fails on (no poison pill), the lock
/// every writing command takes, zips unpacked under the output folder, and a seeded mutation
/// fuzzer over every format.
@Suite(.serialized) struct HostileInputTests {
    let cli = PipelineCLI()
    let model = SharedData.projectRoot + "/models/mode-model.json"

    func json(_ outcome: PipelineCLI.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func everyHostileFileIsReadOrQuarantinedAndTheNextRunDoesNotFail() throws {
        let files = SharedData.files(under: "hostile")
        #expect(files.count >= 15)
        for file in files {
            let folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: folder.file("traces/" + (file as NSString).lastPathComponent))
            let name = (file as NSString).lastPathComponent
            let first = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
            #expect([0, 2].contains(first.status), "\(name): exit \(first.status)\n\(first.stderr)")
            let summary = json(first)
            if name.hasPrefix("gpx-last-fix-2108") || name.hasPrefix("gpx-last-fix-9999") {
                #expect(summary["fixes"] as? Int == 100, "\(name): the stray fix alone is dropped")
            }
            if name.hasPrefix("generic-imu-") { #expect((summary["windows"] as? Int ?? 0) > 0, "\(name): the good samples are windowed") }
            let second = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
            // Exit 2 is for what a run newly quarantines: the second run carries the first's over.
            #expect(second.status == 0 && json(second)["up_to_date"] as? Bool == true, "\(name): \(second.stderr)")
            #expect((json(second)["carried_over_quarantines"] as? [String])?.count == (first.status == 2 ? 1 : 0), "\(name)")
        }
    }

    @Test func aFileTheLaterStagesFailOnIsSetAsideOnce() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in FuzzSeeds.all() where ["walk.gpx", "checkins.csv", "stations.csv"].contains(name) {
            try folder.write("traces/fuzz/\(name)", Data(bytes))
        }
        // 400 s at 50 Hz, the whole walk from station to station (the check-in's ride).
        let samples = (0..<20_000).map { "\(FuzzSeeds.start + Double($0) * 0.02),0.1,\(sin(Double($0) * 0.3)),9.8" }
        try folder.write("traces/fuzz/phone.csv", "time,ax,ay,az\n" + samples.joined(separator: "\n") + "\n")
        let ingest = try cli.pipeline(["ingest", "traces", "--store", "out/pipeline.sqlite"], in: folder.path)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        try FileManager.default.removeItem(atPath: folder.file("traces/fuzz/phone.csv")) // gone before it was classified
        let first = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(first.status == 2, "the store holds a file set aside: \(first.stderr)")
        #expect(first.stderr.contains("classify: set aside") && first.stderr.contains("comfort: set aside"))
        #expect(json(first)["trips"] != nil && json(first)["rides"] as? Int == 1, "the stages went on")
        #expect(json(first)["quarantined"] as? Int == 1, "one file, set aside by two stages")
        let rows = try readCSV(folder.file("out/restricted/quarantine.csv"))
        #expect(
            rows.map { $0["stage"] } == ["classify", "comfort"]
                && rows.allSatisfy { $0["code"] == "unreadable" && $0["path"]?.hasSuffix("phone.csv") == true })
        let second = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        // Not tried again (the stages' "set aside" log lines); the run's closing warnings still say the file is set aside.
        // Exit 0: the file was set aside by the first run, and nothing is new.
        #expect(second.status == 0 && !second.stderr.contains("Z] classify: set aside") && !second.stderr.contains("Z] comfort: set aside"))
        #expect((json(second)["carried_over_quarantines"] as? [String])?.count == 1)
        #expect(json(second)["up_to_date"] as? Bool == true && second.stderr.contains("phone.csv: classify: set aside"))
    }

    @Test func everyCommandThatWritesAStoreTakesItsLock() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in FuzzSeeds.all() where ["walk.gpx", "phone.csv", "checkins.csv", "stations.csv"].contains(name) {
            try folder.write("traces/fuzz/\(name)", Data(bytes))
        }
        #expect(try cli.pipeline(["ingest", "traces", "--store", "out/pipeline.sqlite"], in: folder.path).status == 0)
        let lock = try RunLock(storePath: folder.file("out/restricted/pipeline.sqlite"))
        defer { withExtendedLifetime(lock) {} }
        let commands = [
            ["run", "traces", "--out", "out", "--json"], ["ingest", "traces", "--store", "out/pipeline.sqlite", "--json"],
            ["trips", "--store", "out/pipeline.sqlite", "--json"], ["heatmap", "--store", "out/pipeline.sqlite", "--json"],
            ["comfort", "--store", "out/pipeline.sqlite", "--json"],
            ["classify", "traces", "--rules", "--out", "out/modes-elsewhere.csv", "--store", "out/pipeline.sqlite"]
        ]
        for arguments in commands {
            let outcome = try cli.pipeline(arguments, in: folder.path)
            #expect(outcome.status == 75, "\(arguments[0]): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("another pipeline run is using this store") && outcome.stderr.contains("pid \(getpid())"),
                "\(arguments[0])")
            if arguments.contains("--json") {
                #expect(
                    json(outcome)["exit_status"] as? Int == 75 && json(outcome)["code"] as? String == "store_locked",
                    "\(arguments[0]): \(outcome.stdout)")
            }
        }
    }

    @Test func aLockFileThatCannotBeOpenedIsAFatalErrorNotAnotherRun() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/fuzz/walk.gpx", Data(FuzzSeeds.all()[0].bytes))
        try folder.write("blocked", "a file where the output folder should be")
        let outcome = try cli.pipeline(["run", "traces", "--out", "blocked/out", "--json"], in: folder.path)
        #expect(outcome.status == 1 && outcome.stderr.contains("cannot open the lock file"), "\(outcome.stderr)")
        #expect(json(outcome)["exit_status"] as? Int == 1)
    }

    @Test func zipsAreUnpackedUnderTheOutputFolderAndCleanedAtStartAndEnd() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<1500).map { "\(Int64(FuzzSeeds.start * 1e9) + Int64($0) * 20_000_000),\(Double($0) * 0.02),9.8,0.2,0.1" }
        try folder.write("export/Metadata.csv", "version,device name\n3,pixel\n")
        try folder.write("export/TotalAcceleration.csv", "time,seconds_elapsed,z,y,x\n" + rows.joined(separator: "\n") + "\n")
        try folder.write("export/Accelerometer.csv", "time,seconds_elapsed,z,y,x\n" + rows.joined(separator: "\n") + "\n")
        try FileManager.default.createDirectory(atPath: folder.file("traces/phone"), withIntermediateDirectories: true)
        try FileManager.default.zipItem(
            at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: folder.file("traces/phone/export.zip")))
        try folder.write("out/restricted/.pipeline-tmp/left-by-a-killed-run/x.csv", "stale") // beside the store
        let before = Set(
            try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("pipeline-zip-") })
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0 && (json(outcome)["windows"] as? Int ?? 0) > 0, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/.pipeline-tmp")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/.pipeline-tmp")), "nothing unpacked among what publishes")
        let after = Set(
            try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("pipeline-zip-") })
        #expect(after.subtracting(before).isEmpty, "nothing unpacked under the system's temporary folder")
    }

    /// Seeded mutations of every format through `pipeline run`, a batch of files per run, each
    /// batch run twice on its store. Exit 0 or 2 only: never a crash, a hang or a fatal error.
    /// `PIPELINE_FUZZ_CASES` sets the number of mutated inputs (default 96; scripts/fuzz.sh runs more).
    @Test func mutatedInputsOfEveryFormatNeverCrashHangOrPoisonTheStore() throws {
        let cases = Int(ProcessInfo.processInfo.environment["PIPELINE_FUZZ_CASES"] ?? "") ?? 96
        let perRun = 8
        let seeds = FuzzSeeds.all()
        var generator = SeededGenerator(seed: UInt64(ProcessInfo.processInfo.environment["PIPELINE_FUZZ_SEED"] ?? "") ?? 20_261_123)
        var outcomes: [Int32: Int] = [:], inputs: [String: Int] = [:]
        for batch in 0..<((cases + perRun - 1) / perRun) {
            let folder = try TemporaryFolder()
            var names: [String] = []
            for index in 0..<min(perRun, cases - batch * perRun) {
                let seed = seeds.randomElement(using: &generator)!
                let name = "traces/fuzz/\(index)-\(seed.name)"
                try folder.write(name, Data(FuzzSeeds.mutate(seed.bytes, using: &generator)))
                names.append(name)
            }
            let first = try runBounded(in: folder.path)
            outcomes[first.status, default: 0] += 1
            for key in ["ingested", "quarantined", "skipped"] { inputs[key, default: 0] += json(first)[key] as? Int ?? 0 }
            #expect([0, 2].contains(first.status), "batch \(batch) (\(names)): exit \(first.status)\n\(first.stderr.suffix(2000))")
            let second = try runBounded(in: folder.path)
            // Nothing is new to the next run: what the first quarantined is carried over (exit 0).
            #expect(
                second.status == 0,
                "batch \(batch): the next run exits \(second.status), the first \(first.status)\n\(second.stderr.suffix(2000))")
            if first.status != 0 && first.status != 2 {
                try? FileManager.default.copyItem(
                    atPath: folder.file("traces"), toPath: NSTemporaryDirectory() + "pipeline-fuzz-failure-\(batch)")
            }
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        print(
            "fuzz: \(cases) mutated inputs in \((cases + perRun - 1) / perRun) runs; runs by exit status \(outcomes.sorted { $0.key < $1.key }); "
                + "inputs \(inputs.sorted { $0.key < $1.key }); largest child's peak RSS \(usage.ru_maxrss / 1024) MiB")
    }

    /// `pipeline run` on `traces`, stopped (SIGTERM, reported as 128 + 15) after 120 s.
    private func runBounded(in folder: String) throws -> PipelineCLI.Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PipelineCLI.executable)
        process.arguments = ["run", "traces", "--out", "out", "--json", "--model", model]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = DispatchTime.now() + .seconds(120)
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: deadline)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        // Standard error on another thread, so neither pipe fills while the other is read.
        final class Box: @unchecked Sendable { var data = Data() }
        let stderr = Box()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stderr.data = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        timer.cancel()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return .init(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr.data, as: UTF8.self))
    }
}
