import Classify
import Foundation
import MobilityCore
import TestSupport
import Testing

/// The report's "how far to trust" table says, per mode, how often the leg decision changed
/// what the IMU windows and the GPS leg model said on their own; its counts must be those of
/// `triplegs.csv`'s own evidence columns and of the trip stage's log line.
@Suite struct FusionChangesTests {
    let cli = PipelineCLI()

    /// Per final mode, (legs the source spoke for, legs it named otherwise), from triplegs.csv:
    /// the IMU where its windows cover half the leg or more and say a moving mode; the GPS leg
    /// model's most likely mode wherever it gave probabilities.
    static func changes(_ legs: [[String: String]]) -> [String: (imu: (Int, Int), gps: (Int, Int))] {
        var result: [String: (imu: (Int, Int), gps: (Int, Int))] = [:]
        for leg in legs {
            guard let mode = leg["travel_mode"], mode != "unknown", mode != "still" else { continue }
            var entry = result[mode] ?? ((0, 0), (0, 0))
            if let share = Double(leg["imu_share"] ?? ""), share >= 0.5, let imu = leg["imu_mode"], !imu.isEmpty, imu != "still" {
                entry.imu = (entry.imu.0 + 1, entry.imu.1 + (imu == mode ? 0 : 1))
            }
            let probabilities = ["walk", "bike", "car", "bus", "train"].compactMap { name in
                Double(leg["gps_p_\(name)"] ?? "").map { (name, $0) }
            }
            if let best = probabilities.max(by: { ($0.1, $1.0) < ($1.1, $0.0) }) {
                entry.gps = (entry.gps.0 + 1, entry.gps.1 + (best.0 == mode ? 0 : 1))
            }
            result[mode] = entry
        }
        return result
    }

    @Test func theReportCountsWhereTheDecisionChangedASourcesAnswer() throws {
        let folder = try TemporaryFolder()
        let outcome = try cli.pipeline(["run", SharedData.projectRoot + "/traces", "--out", "out"], in: folder.path)
        #expect(outcome.status == 2, "the bundled traces hold one cut-off GPX, quarantined: \(outcome.stderr)")
        let expected = Self.changes(try CSVRows.read(folder.file("out/restricted/triplegs.csv")))
        // The bundled day has legs whose IMU answer the decision changed (the windows name a
        // family, the fixes the type), so the table has changes to show.
        #expect(expected.values.contains { $0.imu.1 > 0 }, "\(expected)")
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        // The inputs and the shipped model were given by absolute paths; the page names neither.
        #expect(!report.contains(SharedData.projectRoot), "the report names a path of this machine")
        let start = try #require(report.range(of: "How far to trust the modal split"))
        let end = try #require(report.range(of: "</table>", range: start.upperBound..<report.endIndex))
        let table = String(report[start.lowerBound..<end.upperBound])
        // The table shows the modes whose time modal_split.csv publishes (k persons, and no two of
        // them making 85 % of it); the others are one left-out row.
        let published = Set(
            try CSVRows.read(folder.file("out/modal_split.csv")).filter { $0["dimension"] == "all" && $0["duration_s"] != "" }
                .map { $0["travel_mode"]! })
        #expect(!published.isEmpty && expected.keys.contains { published.contains($0) })
        for (mode, counts) in expected {
            let found = table.components(separatedBy: "<tr>").first { $0.contains("<td>\(mode)</td>") }
            guard published.contains(mode) else {
                #expect(found == nil, "\(mode) is left out of modal_split.csv and of the table"); continue
            }
            let row = try #require(found, "no row for \(mode)")
            for (label, (legs, changed)) in [("IMU", counts.imu), ("GPS", counts.gps)] where legs > 0 {
                #expect(row.contains(">\(changed) of \(legs)"), "\(mode), \(label): \(changed) of \(legs) expected in \(row)")
            }
        }
        // Beside each mode, the shipped leg model's held-out precision on each data set it learnt
        // from, as its model file has it.
        let heldOut = try #require(try ModeModel.load(path: SharedData.projectRoot + "/models/mode-model.json").gpsLegs?.heldOut)
        #expect(table.contains("GPS leg model held out: right when it named the mode"))
        for mode in published {
            let row = try #require(table.components(separatedBy: "<tr>").first { $0.contains("<td>\(mode)</td>") })
            for (dataset, score) in heldOut.scores(of: try #require(Mode(rawValue: mode))) {
                if let precision = score.precision {
                    #expect(row.contains("\(dataset) " + String(format: "%.2f", precision)), "\(mode), \(dataset) in \(row)")
                }
            }
        }
        let imuTotal = expected.values.reduce((0, 0)) { ($0.0 + $1.imu.0, $0.1 + $1.imu.1) }
        let gpsTotal = expected.values.reduce((0, 0)) { ($0.0 + $1.gps.0, $0.1 + $1.gps.1) }
        #expect(outcome.stderr.contains("differs from the IMU windows' on \(imuTotal.1) of the \(imuTotal.0) legs"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("from the GPS leg model's on \(gpsTotal.1) of the \(gpsTotal.0) legs"), "\(outcome.stderr)")
    }
}
