import Foundation
import TestSupport
import Testing

/// Station stops survive smoothing (`StopFusion`): on the two Paris metro rides every
/// hand-checked stop of 15 s or more keeps still windows after smoothing, where before the
/// stops of 18–22 s were erased; `--no-vehicle-stops` shows the classifier alone.
@Suite struct StationStopTests {
    let cli = PipelineCLI()
    let model = SharedData.projectRoot + "/models/mode-model.json"

    struct Stop { var start: Double; var end: Double }

    /// The hand-checked stops of `ride`, Unix seconds (the file's clock: `time` minus
    /// `seconds_elapsed` on its first row).
    func stops(_ ride: String) throws -> [Stop] {
        let recording = SharedData.path("imu/metro/\(ride)")
        let first = try String(contentsOfFile: recording + "/Accelerometer.csv", encoding: .utf8).split(separator: "\n")[1].split(
            separator: ",")
        let zero = Double(first[0])! / 1e9 - Double(first[1])!
        let marks = try String(contentsOfFile: recording + "/timestamps_valid.txt", encoding: .utf8).split(separator: "\n").dropFirst()
            .compactMap { line -> Double? in line.split(separator: " ").first.flatMap { Double($0) } }
        return stride(from: 0, to: marks.count - 1, by: 2).map { Stop(start: zero + marks[$0], end: zero + marks[$0 + 1]) }
    }

    /// Per window of modes.csv: its middle (Unix seconds) and its smoothed mode.
    func windows(_ path: String) throws -> [(middle: Double, mode: String)] {
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        return rows.map { ((Double($0[3])! + Double($0[5])!) / 2, String($0[6])) } // started_unix_s, finished_unix_s, travel_mode
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func everyStationStopKeepsStillWindowsAfterSmoothing() throws {
        let folder = try TemporaryFolder()
        for ride in ["L4_Chatelet_-_Montparnasse_-_brutal-2024-03-29_18-03-15", "L4_Les_Halles_-_Montparnasse_-2024-02-13_17-29-59"] {
            let fused = try cli.pipeline(
                ["classify", SharedData.path("imu/metro/\(ride)"), "--model", model, "--out", "fused.csv"], in: folder.path)
            #expect(fused.status == 0 && fused.stderr.contains("vehicle stops: "), "\(fused.stderr)")
            let alone = try cli.pipeline(
                ["classify", SharedData.path("imu/metro/\(ride)"), "--model", model, "--no-vehicle-stops", "--out", "alone.csv"],
                in: folder.path)
            #expect(alone.status == 0 && !alone.stderr.contains("vehicle stops: "))
            let truth = try stops(ride)
            let withStops = try windows(folder.file("fused.csv")), without = try windows(folder.file("alone.csv"))
            func stillShare(_ windows: [(middle: Double, mode: String)], _ stop: Stop) -> Double {
                let inside = windows.filter { stop.start <= $0.middle && $0.middle <= stop.end }
                return Double(inside.filter { $0.mode == "still" }.count) / Double(max(1, inside.count))
            }
            for stop in truth where stop.end - stop.start >= 15 {
                #expect(stillShare(withStops, stop) >= 0.5, "\(ride): the \(Int(stop.end - stop.start)) s stop at \(stop.start)")
            }
            let moving = withStops.filter { window in !truth.contains { $0.start - 5 <= window.middle && window.middle <= $0.end + 5 } }
            let stillWhileMoving = moving.filter { $0.mode == "still" }.count
            print(
                String(
                    format: "station stops, %@: still share per stop with fusion %@, without %@; moving windows called still %d of %d",
                    ride,
                    truth.map { String(format: "%.2f", stillShare(withStops, $0)) }.joined(separator: " "),
                    truth.map { String(format: "%.2f", stillShare(without, $0)) }.joined(separator: " "), stillWhileMoving, moving.count))
            #expect(
                Double(stillWhileMoving) <= 0.05 * Double(moving.count),
                "\(ride): \(stillWhileMoving) of \(moving.count) moving windows still")
        }
    }
}
