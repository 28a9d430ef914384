import Foundation
import MobilityCore
import Store
import TestSupport
import Testing

/// Rides measured straight from recordings, with no check-in: each recording (or its part
/// between pauses) one ride from its first to its last sample, the rate from the raw stream,
/// stops and events listed.
@Suite(.serialized) struct RecordingRidesTests {
    let cli = PipelineCLI()

    func json(_ outcome: PipelineCLI.Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
    }

    /// A phone on a vehicle floor: gravity on z, a 4 Hz vertical shake and slow pushes along x,
    /// `rateHz` samples a second from `start` for `seconds`, as `time,ax,ay,az` (Unix seconds).
    static func recording(seconds: Double, rateHz: Double, start: Double = 1_700_000_000) -> String {
        "time,ax,ay,az\n"
            + (0..<Int(seconds * rateHz)).map { i in
                let t = Double(i) / rateHz
                return String(
                    format: "%.3f,%.4f,%.4f,%.4f", start + t, 0.4 * sin(2 * .pi * t / 60), 0.05 * sin(2 * .pi * 0.8 * t),
                    9.81 + 0.3 * sin(2 * .pi * 4 * t))
            }.joined(separator: "\n") + "\n"
    }

    func rides(_ store: String) throws -> [[String: String?]] {
        try PipelineStore(path: store).rows(
            """
            SELECT device, source, status, note, imu_rate_hz, covered_s, finished_unix_s - started_unix_s AS seconds, nmv, nmv_partial,
              nmv_minutes, comfort_band, cc_z_5s FROM rides ORDER BY device, started_unix_s
            """)
    }

    @Test func comfortMeasuresRecordingsWithoutACheckIn() throws {
        let folder = try TemporaryFolder()
        try folder.write("rides/short/phone.csv", Self.recording(seconds: 180, rateHz: 50))
        try folder.write("rides/slow/phone.csv", Self.recording(seconds: 300, rateHz: 10))
        // One recording with a 10 min pause: two rides.
        try folder.write(
            "rides/paused/phone.csv",
            Self.recording(seconds: 120, rateHz: 50)
                + Self.recording(seconds: 120, rateHz: 50, start: 1_700_000_720).split(separator: "\n").dropFirst().joined(separator: "\n")
                + "\n")
        let outcome = try cli.pipeline(["comfort", "rides", "--store", "out/pipeline.sqlite", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(json(outcome)["recording_rides"] as? Int == 4 && json(outcome)["checkins"] as? Int == 0, "\(outcome.stdout)")
        let rides = try rides(folder.file("out/restricted/pipeline.sqlite"))
        #expect(rides.count == 4 && rides.allSatisfy { $0["source"] == "recording" })
        let byDevice = Dictionary(grouping: rides) { ($0["device"] ?? nil) ?? "" }
        // The paused recording: two rides of 120 s, never the 840 s the clock spans.
        let paused = byDevice["paused"] ?? []
        #expect(
            paused.count == 2 && paused.allSatisfy { (Double($0["seconds"]! ?? "") ?? 0) < 121 && $0["status"] == "measured" }, "\(paused)")
        // A ride under 5 min: a partial N_MV over its 3 minutes, and a 5 s comfort series.
        let short = try #require(byDevice["short"]?.first)
        // 180 s less the weighting filters' 5 s settling: 35 5 s values.
        #expect(short["status"] == "measured" && short["nmv_partial"] == "1" && short["nmv"] != nil, "\(short)")
        #expect(
            abs((Double(short["nmv_minutes"]! ?? "") ?? 0) - 35.0 / 12) < 1e-6
                && (short["cc_z_5s"]! ?? "").split(separator: ",").count == 35)
        // 10 Hz cannot be weighted to 20 Hz: not measured, says so, no comfort label from nothing.
        let slow = try #require(byDevice["slow"]?.first)
        #expect(slow["status"] == "unusable_imu" && (slow["note"]! ?? "").contains("rate too low (10.0 Hz"), "\(slow)")
        #expect((slow["comfort_band"] ?? nil) == nil && (slow["nmv"] ?? nil) == nil)
        let notMeasured = (json(outcome)["not_measured"] as? [String]) ?? []
        #expect(notMeasured.count == 1 && notMeasured[0].contains("rate too low"), "\(notMeasured)")
        for name in ["rides.csv", "stops.csv", "events.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("out/restricted/\(name)")), "\(name)")
        }
        let stopsHeader = try String(contentsOfFile: folder.file("out/restricted/stops.csv"), encoding: .utf8).split(separator: "\n").first
        #expect(stopsHeader?.hasPrefix("device,trace,started_at,started_unix_s,finished_at,finished_unix_s,duration_s") == true)
    }

    @Test func runMeasuresRecordingsOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/tram/phone.csv", Self.recording(seconds: 200, rateHz: 50))
        let model = SharedData.projectRoot + "/models/mode-model.json"
        let plain = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: folder.path)
        #expect(plain.status == 0 && json(plain)["rides"] as? Int == 0, "\(plain.stderr)")
        let asked = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model, "--rides-from-recordings", "--force"], in: folder.path)
        #expect(asked.status == 0 && json(asked)["rides"] as? Int == 1 && json(asked)["measured_rides"] as? Int == 1, "\(asked.stderr)")
        // Each ride is one person's: on the operator's page only.
        let report = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(report.contains("Rides from recordings"))
        #expect(try !String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8).contains("Rides from recordings"))
        // Asked for rides where no recording holds acceleration: said, not silently nothing.
        try folder.write("gps/walk.gpx", GPXBuilder().text)
        let empty = try cli.pipeline(["comfort", "gps", "--store", "gps-out/pipeline.sqlite", "--json"], in: folder.path)
        let warnings = (json(empty)["warnings"] as? [String]) ?? []
        #expect(
            empty.status == 0 && json(empty)["rides"] as? Int == 0 && warnings.contains { $0.contains("no IMU recording under gps") },
            "\(empty.stdout) \(empty.stderr)")
    }

    /// The two Paris metro rides of `imu/metro` (Sensor Logger, gravity-free acceleration only),
    /// measured as rides of their own: their stops against the recorder's hand-checked station
    /// stop and start times, and the "brutal" ride's hard brakings before arrivals.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func metroStopsMatchTheHandCheckedTimes() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(
            ["comfort", SharedData.path("imu/metro"), "--store", "out/pipeline.sqlite", "--json"], in: folder.path)
        #expect(outcome.status == 0 && json(outcome)["recording_rides"] as? Int == 2, "\(outcome.stderr)")
        let store = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite"))
        // Both rides are one phone's (their Metadata.csv's device id): each is found by its trace,
        // the export's path below the folder given.
        for ride in ["L4_Chatelet_-_Montparnasse_-_brutal-2024-03-29_18-03-15", "L4_Les_Halles_-_Montparnasse_-2024-02-13_17-29-59"] {
            let recording = SharedData.path("imu/metro/\(ride)")
            // The file's clock: `time` (Unix ns) minus `seconds_elapsed` on its first row.
            let first = try String(contentsOfFile: recording + "/Accelerometer.csv", encoding: .utf8).split(separator: "\n")[1].split(
                separator: ",")
            let zero = Double(first[0])! / 1e9 - Double(first[1])!
            let marks = try String(contentsOfFile: recording + "/timestamps_valid.txt", encoding: .utf8).split(separator: "\n").dropFirst()
                .compactMap { line -> Double? in line.split(separator: " ").first.flatMap { Double($0) } }
            let truth = stride(from: 0, to: marks.count - 1, by: 2).map { (zero + marks[$0], zero + marks[$0 + 1]) }
            let found = try store.rows(
                """
                SELECT s.start_unix_s AS start, s.end_unix_s AS end FROM ride_stops s JOIN rides r ON r.id = s.ride_id
                WHERE r.trace = ? ORDER BY s.start_unix_s
                """, arguments: [ride]
            ).map { (Double($0["start"]! ?? "")!, Double($0["end"]! ?? "")!) }
            var unmatched = truth, matched = 0
            for stop in found {
                if let index = unmatched.firstIndex(where: { abs($0.0 - stop.0) <= 10 && abs($0.1 - stop.1) <= 10 }) {
                    unmatched.remove(at: index)
                    matched += 1
                }
            }
            let (precision, recall) = (Double(matched) / Double(max(found.count, 1)), Double(matched) / Double(truth.count))
            print(
                String(
                    format: "metro stops, %@: %d found, %d hand-checked, precision %.2f, recall %.2f (±10 s)", ride, found.count,
                    truth.count, precision, recall))
            #expect(precision >= 0.9 && recall >= 0.9, "\(ride): \(found) vs \(truth)")
            guard ride.contains("brutal") else { continue }
            // Every hard braking (1.5 m/s² or more) starts within 45 s before a stop or the arrival at the end.
            let arrivals =
                truth.map(\.0) + [
                    Double(
                        try store.rows("SELECT finished_unix_s FROM rides WHERE trace = ?", arguments: [ride])[0]["finished_unix_s"]! ?? "")!
                ]
            let brakings = try store.rows(
                """
                SELECT e.start_unix_s AS start, e.peak_acceleration_mps2 AS peak FROM ride_events e JOIN rides r ON r.id = e.ride_id
                WHERE r.trace = ? AND e.kind = 'acceleration' AND e.direction = 'braking' AND e.peak_acceleration_mps2 >= 1.5
                """, arguments: [ride]
            ).map { Double($0["start"]! ?? "")! }
            #expect(brakings.count >= 3, "the brutal ride brakes hard")
            for braking in brakings {
                #expect(
                    arrivals.contains { $0 - braking >= 0 && $0 - braking <= 45 },
                    "a hard braking at \(braking - zero) s is near no arrival")
            }
        }
    }
}
