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
    let cli = CommandLineTests()
    let model = SharedData.projectRoot + "/models/mode-model.json"
    /// The first START, Unix seconds (2023-11-14T22:13:20Z); the second, after a pause, 100 s later
    /// at experiment time 30 s (so samples after 30 s lie 70 s later than the experiment time says).
    static let start = 1_700_000_000.0

    static func write(_ folder: TemporaryFolder, at base: String) throws {
        func table(_ header: String, rate: Double, seconds: Double, row: (Double) -> String) -> String {
            header + "\n" + (0..<Int(rate * seconds)).map { index in
                let t = Double(index) / rate
                return String(format: "%.9E,", t) + row(t)
            }.joined(separator: "\n") + "\n"
        }
        // Walking: a 2 Hz bounce of ±3 m/s² on gravity; 60 s at 100 Hz, the experiment paused once at 30 s.
        try folder.write("\(base)/Accelerometer.csv", table("\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"",
                                                           rate: 100, seconds: 60) { String(format: "0.2,0.1,%.5f", 9.81 + 3 * sin(2 * .pi * 2 * $0)) })
        try folder.write("\(base)/Linear Accelerometer.csv", table("\"Time (s)\",\"Linear Acceleration x (m/s^2)\",\"Linear Acceleration y (m/s^2)\",\"Linear Acceleration z (m/s^2)\"",
                                                                  rate: 100, seconds: 60) { String(format: "0.2,0.1,%.5f", 3 * sin(2 * .pi * 2 * $0)) })
        try folder.write("\(base)/Gyroscope.csv", table("\"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"",
                                                       rate: 100, seconds: 60) { String(format: "%.5f,0,0", 0.5 * sin(2 * .pi * $0)) })
        try folder.write("\(base)/Location.csv", table("\"Time (s)\",\"Latitude (°)\",\"Longitude (°)\",\"Height (m)\",\"Velocity (m/s)\",\"Direction (°)\",\"Horizontal Accuracy (m)\",\"Vertical Accuracy (m)\"",
                                                      rate: 1, seconds: 60) { String(format: "%.7f,13.4,40,1.4,0,5,3", 52.5 + $0 * 1.3e-5) })
        try folder.write("\(base)/Proximity.csv", table("\"Time (s)\",\"Distance (cm)\"", rate: 1, seconds: 60) { _ in "5" })
        try folder.write("\(base)/meta/time.csv", """
            "event","experiment time","system time","system time text"
            "START",0.000000000000000E0,\(String(format: "%.15E", start)),"2023-11-14 23:13:20.000 UTC+01:00"
            "PAUSE",3.000000000000000E1,\(String(format: "%.15E", start + 30)),"2023-11-14 23:13:50.000 UTC+01:00"
            "START",3.000000000000000E1,\(String(format: "%.15E", start + 100)),"2023-11-14 23:15:00.000 UTC+01:00"

            """)
        try folder.write("\(base)/meta/device.csv", "\"property\",\"value\"\n\"deviceBrand\",\"google\"\n\"deviceModel\",\"Pixel 6\"\n")
    }

    @Test func aPhyphoxFolderIsOneRecordingWithAbsoluteTimes() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/ride-1")
        let inspect = try cli.pipeline(["inspect", "traces/ride-1"], in: folder.path)
        #expect(inspect.status == 0 && inspect.stdout.contains("format        phyphox") && inspect.stdout.contains("phone         google Pixel 6"), "\(inspect.stdout)")
        // 0 s → 1,700,000,000; the last sample, 59.99 s, after the resume: 1,700,000,000 + 100 + 29.99.
        #expect(inspect.stdout.contains("2023-11-14T22:13:20Z – 2023-11-14T22:15:29.990Z"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("other sensors proximity 60"))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0, "nothing quarantined: \(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/pipeline.sqlite"))
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
        try FileManager.default.zipItem(at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: folder.file("traces/ride.zip")),
                                        shouldKeepParent: false)
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 0 && (json(outcome)["windows"] as? Int) == 22 && (json(outcome)["fixes"] as? Int) == 60, "\(outcome.stderr)")
    }

    @Test func withoutItsStartTimeAPhyphoxExportIsQuarantinedWithTheReason() throws {
        let folder = try TemporaryFolder()
        try Self.write(folder, at: "traces/ride-1")
        try folder.write("traces/ride-1/meta/time.csv", "\"event\",\"experiment time\",\"system time\",\"system time text\"\n")
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(outcome.status == 2 && outcome.stderr.contains("meta/time.csv has no START row"), "\(outcome.stderr)")
    }

    func json(_ outcome: CommandLineTests.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }
}
