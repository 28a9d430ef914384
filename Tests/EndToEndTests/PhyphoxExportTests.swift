import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// A phyphox export as the app writes it: a folder per recording, one CSV per sensor with
/// times since the experiment began, and `meta/time.csv` with when it started and resumed.
@Suite(.serialized) struct PhyphoxExportTests {
    let cli = PipelineCLI()
    let model = SharedData.projectRoot + "/models/mode-model.json"
    /// The first START, Unix seconds (2023-11-14T22:13:20Z); the second, after a pause, 100 s later
    /// at experiment time 30 s (so samples after 30 s lie 70 s later than the experiment time says).
    static let start = 1_700_000_000.0

    /// The export as the Android app writes it, or (`iPhone`) as the iPhone app does: bare
    /// `"X (m/s^2)"` axes whose sensor only the file name says, columns in another order, a
    /// magnetometer, `NaN` accuracies and `deviceModel,iPhone13,2` unquoted.
    static func write(_ folder: TemporaryFolder, at base: String, iPhone: Bool = false) throws {
        func table(_ header: String, rate: Double, seconds: Double, row: (Double) -> String) -> String {
            header + "\n"
                + (0..<Int(rate * seconds)).map { index in
                    let t = Double(index) / rate
                    return String(format: "%.9E,", t) + row(t)
                }.joined(separator: "\n") + "\n"
        }
        if iPhone {
            try writeIPhone(folder, at: base, table: table)
            return
        }
        // Walking: a 2 Hz bounce of ±3 m/s² on gravity; 60 s at 100 Hz, the experiment paused once at 30 s.
        try folder.write(
            "\(base)/Accelerometer.csv",
            table(
                "\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"",
                rate: 100, seconds: 60
            ) { String(format: "0.2,0.1,%.5f", 9.81 + 3 * sin(2 * .pi * 2 * $0)) })
        try folder.write(
            "\(base)/Linear Accelerometer.csv",
            table(
                "\"Time (s)\",\"Linear Acceleration x (m/s^2)\",\"Linear Acceleration y (m/s^2)\",\"Linear Acceleration z (m/s^2)\"",
                rate: 100, seconds: 60
            ) { String(format: "0.2,0.1,%.5f", 3 * sin(2 * .pi * 2 * $0)) })
        try folder.write(
            "\(base)/Gyroscope.csv",
            table(
                "\"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"",
                rate: 100, seconds: 60
            ) { String(format: "%.5f,0,0", 0.5 * sin(2 * .pi * $0)) })
        try folder.write(
            "\(base)/Location.csv",
            table(
                "\"Time (s)\",\"Latitude (°)\",\"Longitude (°)\",\"Height (m)\",\"Velocity (m/s)\",\"Direction (°)\",\"Horizontal Accuracy (m)\",\"Vertical Accuracy (m)\"",
                rate: 1, seconds: 60
            ) { String(format: "%.7f,13.4,40,1.4,0,5,3", 52.5 + $0 * 1.3e-5) })
        try folder.write("\(base)/Proximity.csv", table("\"Time (s)\",\"Distance (cm)\"", rate: 1, seconds: 60) { _ in "5" })
        try writeTime(folder, at: base)
        try folder.write("\(base)/meta/device.csv", "\"property\",\"value\"\n\"deviceBrand\",\"google\"\n\"deviceModel\",\"Pixel 6\"\n")
    }

    /// `meta/time.csv`: started at `start`, paused at 30 s, resumed 100 s after the start.
    static func writeTime(_ folder: TemporaryFolder, at base: String) throws {
        try folder.write(
            "\(base)/meta/time.csv",
            """
            "event","experiment time","system time","system time text"
            "START",0.000000000000000E0,\(String(format: "%.15E", start)),"2023-11-14 23:13:20.000 UTC+01:00"
            "PAUSE",3.000000000000000E1,\(String(format: "%.15E", start + 30)),"2023-11-14 23:13:50.000 UTC+01:00"
            "START",3.000000000000000E1,\(String(format: "%.15E", start + 100)),"2023-11-14 23:15:00.000 UTC+01:00"

            """)
    }

    static func writeIPhone(_ folder: TemporaryFolder, at base: String, table: (String, Double, Double, (Double) -> String) -> String)
        throws
    {
        try folder.write(
            "\(base)/Accelerometer.csv",
            table("\"Time (s)\",\"X (m/s^2)\",\"Y (m/s^2)\",\"Z (m/s^2)\"", 100, 60) {
                String(format: "2.0E-1,1.0E-1,%.9E", 9.81 + 3 * sin(2 * .pi * 2 * $0))
            })
        try folder.write(
            "\(base)/Linear Accelerometer.csv",
            table("\"Time (s)\",\"Z (m/s^2)\",\"Y (m/s^2)\",\"X (m/s^2)\"", 100, 60) {
                String(format: "%.9E,1.0E-1,2.0E-1", 3 * sin(2 * .pi * 2 * $0))
            })
        try folder.write(
            "\(base)/Gyroscope.csv",
            table("\"Time (s)\",\"X (rad/s)\",\"Y (rad/s)\",\"Z (rad/s)\"", 100, 60) {
                String(format: "%.9E,0,0", 0.5 * sin(2 * .pi * $0))
            })
        try folder.write("\(base)/Magnetometer.csv", table("\"Time (s)\",\"X (µT)\",\"Y (µT)\",\"Z (µT)\"", 10, 60) { _ in "20,-5,40" })
        try folder.write(
            "\(base)/Location.csv",
            table(
                "\"Time (s)\",\"Latitude (°)\",\"Longitude (°)\",\"Height (m)\",\"Velocity (m/s)\",\"Direction (°)\",\"Horizontal Accuracy (m)\",\"Vertical Accuracy (m)\"",
                1, 60
            ) {
                String(format: "%.7f,13.4,NaN,1.4,NaN,NaN,NaN", 52.5 + $0 * 1.3e-5)
            })
        try writeTime(folder, at: base)
        try folder.write("\(base)/meta/device.csv", "property,value\ndeviceBrand,Apple\ndeviceModel,iPhone13,2\n")
    }

    @Test func anIPhonePhyphoxExportKeepsItsMotionData() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/bike-1", iPhone: true)
        let inspect = try cli.pipeline(["inspect", "traces/bike-1"], in: folder.path)
        #expect(inspect.status == 0 && inspect.stdout.contains("phone         Apple iPhone13,2"), "\(inspect.stdout)")
        #expect(
            inspect.stdout.contains("other sensors magnetometer 600") && !inspect.stdout.contains("accelerometer 6000,"),
            "\(inspect.stdout)")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let files = try store.rows("SELECT fixes, imu_samples FROM input_files")
        #expect(files.count == 1 && files[0]["fixes"] == "60" && files[0]["imu_samples"] == "18000", "\(files)")
        let streams = try store.rows("SELECT sensor, samples FROM imu_streams ORDER BY sensor")
        #expect(streams.map { $0["sensor"] ?? nil } == ["accelerometer", "gyroscope", "linear_acceleration"], "\(streams)")
        // NaN accuracy is missing, not a reason to drop the fix.
        #expect(try store.rows("SELECT COUNT(*) AS n FROM fixes WHERE accuracy_m IS NULL")[0]["n"] == "60")
        let windows = try store.rows("SELECT COUNT(*) AS n FROM mode_windows")[0]
        #expect(windows["n"] == "22", "the same windows as the Android export: \(windows)")
        // The linear accelerometer's columns are in Z, Y, X order: its x axis holds the constant 0.2.
        let reading = try Ingestor(devices: DeviceResolver()).ingest(
            DiscoveredInput(path: folder.file("traces/bike-1"), root: folder.file("traces")),
            format: .phyphox(zipped: false), into: DiscardingSink())
        #expect(reading.phoneModel == "Apple iPhone13,2" && reading.otherSensors == ["magnetometer": 600])
    }

    @Test func aPartialPhyphoxExportIsQuarantinedNeverTakenForSensorLogger() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/walk-1", iPhone: true)
        try FileManager.default.removeItem(atPath: folder.file("traces/walk-1/meta"))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let files = try store.rows("SELECT format, status FROM input_files")
        #expect(files.count == 1 && files[0]["format"] == "phyphox" && files[0]["status"] == "quarantined", "\(files)")
        let reason = try store.rows("SELECT reason FROM quarantine")[0]["reason"] ?? ""
        #expect(reason?.contains("meta/time.csv is missing") == true && reason?.contains("start=") == true, "\(String(describing: reason))")
    }

    @Test func anExportWithoutMotionStreamsSaysWhichStreamsItCounted() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/walk-1", iPhone: true)
        for name in ["Accelerometer.csv", "Linear Accelerometer.csv", "Gyroscope.csv"] {
            try FileManager.default.removeItem(atPath: folder.file("traces/walk-1/" + name))
        }
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let file = try #require((json(outcome)["file_outcomes"] as? [[String: Any]])?.first)
        let notes = (file["notes"] as? [String] ?? []).joined(separator: " | ")
        #expect(
            file["fixes"] as? Int == 60
                && notes.contains("no accelerometer or gyroscope stream was read; streams counted, not used: magnetometer 600 rows"),
            "\(notes)")
    }

    @Test func aPartialPhyphoxZipIsQuarantinedNeverReadAsSensorLogger() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "export", iPhone: true)
        try FileManager.default.removeItem(atPath: folder.file("export/meta"))
        try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
        try FileManager.default.zipItem(
            at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: folder.file("traces/walk.zip")),
            shouldKeepParent: false)
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--model", model], in: folder.path)
        #expect(
            outcome.status == 2 && outcome.stderr.contains("a phyphox export") && outcome.stderr.contains("start="), "\(outcome.stderr)")
        let reason = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).rows(
            "SELECT f.path, q.reason FROM quarantine q JOIN input_files f ON f.id = q.file_id")
        #expect(reason.count == 1 && reason[0]["path"]??.hasSuffix("traces/walk.zip") == true, "stored under the zip's path: \(reason)")
    }

    @Test func aMotionSensorFileNoFamilyReadsIsQuarantinedWithItsHeader() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/walk-1", iPhone: true)
        try folder.write("traces/walk-1/Gyroscope.csv", "\"Time (s)\",\"Alpha (rad/s)\",\"Beta (rad/s)\"\n0,1,2\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--model", model], in: folder.path)
        #expect(
            outcome.status == 2 && outcome.stderr.contains("named like a motion sensor (gyroscope)")
                && outcome.stderr.contains("[Time (s), Alpha (rad/s), Beta (rad/s)]"), "\(outcome.stderr)")
    }

    @Test func aPhyphoxFolderIsOneRecordingWithAbsoluteTimes() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/ride-1")
        let inspect = try cli.pipeline(["inspect", "traces/ride-1"], in: folder.path)
        #expect(
            inspect.status == 0 && inspect.stdout.contains("format        phyphox")
                && inspect.stdout.contains("phone         google Pixel 6"), "\(inspect.stdout)")
        // 0 s → 1,700,000,000; the last sample, 59.99 s, after the resume: 1,700,000,000 + 100 + 29.99.
        #expect(inspect.stdout.contains("2023-11-14T22:13:20Z – 2023-11-14T22:15:29.990Z"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("other sensors proximity 60"))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "nothing quarantined: \(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        let files = try store.rows("SELECT path, format, fixes, imu_samples FROM input_files")
        #expect(files.count == 1 && files[0]["format"] == "phyphox" && files[0]["fixes"] == "60", "\(files)")
        #expect(files[0]["imu_samples"] == "18000", "accelerometer, linear acceleration and gyroscope, 6,000 each")
        let windows = try store.rows("SELECT COUNT(*) AS n, MIN(start_unix_s) AS first FROM mode_windows")[0]
        // Two runs of 30 s (the pause is not bridged): 11 windows each.
        #expect(windows["n"] == "22" && Double((windows["first"] ?? nil) ?? "") == Self.start, "\(windows)")
    }

    @Test func aPhyphoxZipIsReadTheSame() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "export")
        try FileManager.default.createDirectory(atPath: folder.file("traces"), withIntermediateDirectories: true)
        try FileManager.default.zipItem(
            at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: folder.file("traces/ride.zip")),
            shouldKeepParent: false)
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(
            outcome.status == 0 && (json(outcome)["windows"] as? Int) == 22 && (json(outcome)["fixes"] as? Int) == 60, "\(outcome.stderr)")
    }

    @Test func withoutItsStartTimeAPhyphoxExportIsQuarantinedWithTheReason() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/ride-1")
        try folder.write("traces/ride-1/meta/time.csv", "\"event\",\"experiment time\",\"system time\",\"system time text\"\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 2 && outcome.stderr.contains("meta/time.csv has no START row"), "\(outcome.stderr)")
    }

    func json(_ outcome: PipelineCLI.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }
}
