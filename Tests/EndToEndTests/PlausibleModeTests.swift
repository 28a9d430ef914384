import Foundation
import MobilityCore
import TestSupport
import Testing

/// `pipeline run` on tracks whose speeds no ground mode reaches: a flight is an `airplane` leg,
/// a jump a leg without a mode, both decided by `plausibility`, never a train or a car.
@Suite struct PlausibleModeTests {
    let cli = PipelineCLI()
    static let metresPerDegree = 111_195.0

    /// Still, then `(seconds, m/s, seconds between fixes)` stretches east along the equator, then still.
    static func gpx(_ stretches: [(Double, Double, Double)], start: Double = 1_714_982_400) -> String {
        var points: [GPXBuilder.Point] = [], time = start, east = 0.0
        func fix() { points.append(GPXBuilder.Point(0, east / metresPerDegree, time: Timestamp(secondsSince1970: time))) }
        for _ in 0..<60 { fix(); time += 30 }
        for (seconds, speed, every) in stretches {
            for _ in 0..<Int(seconds / every) { time += every; east += speed * every; fix() }
        }
        for _ in 0..<60 { time += 30; fix() }
        var builder = GPXBuilder()
        builder.tracks = [[points]]
        return builder.text
    }

    @Test func aFlightIsAnAirplaneLegAndAJumpALegWithoutAMode() throws {
        let folder = try TemporaryFolder()
        // A drive to the airport, two hours in the air with a fix a minute, a drive from it.
        try folder.write("traces/flyer/day.gpx", Self.gpx([(1200, 20, 5), (7200, 200, 60), (1200, 20, 5)]))
        // A drive, then 35 km in 62 s (a receiver's relocation), then the drive goes on.
        try folder.write("traces/jumper/day.gpx", Self.gpx([(600, 15, 5), (62, 35_000.0 / 62, 62), (600, 15, 5)]))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let legs = try CSVRows.read(folder.file("out/restricted/triplegs.csv"))
        let flyer = legs.filter { $0["device"] == "flyer" }, jumper = legs.filter { $0["device"] == "jumper" }
        let flight = try #require(flyer.first { $0["travel_mode"] == "airplane" }, "\(flyer.map { $0["travel_mode"] ?? "" })")
        #expect(flight["mode_source"] == "plausibility" && abs((Double(flight["distance_m"] ?? "") ?? 0) - 1_440_000) < 2_000)
        // The drives either side are the leg model's to type; the flight is never a ground vehicle's.
        #expect(
            flyer.filter { ["train", "car", "bus", "vehicle"].contains($0["travel_mode"]) }.allSatisfy {
                (Double($0["distance_m"] ?? "") ?? 0) < 30_000
            }, "a flight is never a train: \(flyer.map { ($0["travel_mode"] ?? "", $0["distance_m"] ?? "") })")
        let jump = try #require(jumper.first { $0["mode_source"] == "plausibility" }, "\(jumper.map { $0["travel_mode"] ?? "" })")
        #expect(jump["travel_mode"] == "unknown" && jump["fixes"] == "2")
        #expect(
            jumper.filter { $0["travel_mode"] == "car" }.allSatisfy { (Double($0["distance_m"] ?? "") ?? 0) < 20_000 },
            "no car leg holds the jump")
        #expect(outcome.stderr.contains("plausibility"), "the log names the legs speeds decided")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(
            (summary["warnings"] as? [String] ?? []).contains { $0.contains("1 jumps between consecutive fixes") },
            "\(summary["warnings"] ?? "")")
    }
}

/// A device's sparse logger beside its dense phone files: the sparse file's legs get modes from
/// its own fix interval, not from the device's (1 Hz) median.
@Suite struct SparseBesideDenseTests {
    let cli = PipelineCLI()

    @Test func aSparseFileBesideDenseOnesGetsModes() throws {
        let folder = try TemporaryFolder()
        // Day 1: a phone at 1 Hz, drives 20 min at 15 m/s. Day 2: a logger, one fix a minute, drives 60 min at 15 m/s.
        try folder.write("traces/ann/phone-day1.gpx", PlausibleModeTests.gpx([(1200, 15, 1)], start: 1_714_982_400))
        try folder.write("traces/ann/logger-day2.gpx", PlausibleModeTests.gpx([(3600, 15, 60)], start: 1_715_068_800))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let legs = try CSVRows.read(folder.file("out/restricted/triplegs.csv"))
        let day2 = legs.filter { ($0["started_at"] ?? "").hasPrefix("2024-05-07") }
        #expect(!day2.isEmpty, "the logger's day makes legs")
        let moving = day2.filter { (Double($0["distance_m"] ?? "") ?? 0) > 1_000 }
        #expect(
            !moving.isEmpty && moving.allSatisfy { $0["travel_mode"] != "unknown" && !($0["mode_source"] ?? "").isEmpty },
            "\(day2.map { ($0["travel_mode"] ?? "", $0["mode_source"] ?? "", $0["distance_m"] ?? "") })")
    }
}

/// A leg nothing can decide says so: `mode_source` none, and a warning with its length.
@Suite struct UndecidedLegTests {
    let cli = PipelineCLI()

    @Test func aLegWithoutWindowsHasDeciderNoneAndAWarning() throws {
        let folder = try TemporaryFolder()
        // Still at a fix every 30 s, then five fixes 280 s apart moving 2 km each, then still.
        try folder.write("traces/bo/day.gpx", PlausibleModeTests.gpx([(1400, 7, 280)]))
        let outcome = try cli.pipeline(["run", "traces", "--out", "out", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let legs = try CSVRows.read(folder.file("out/restricted/triplegs.csv"))
        let undecided = legs.filter { $0["travel_mode"] == "unknown" }
        #expect(
            !undecided.isEmpty && undecided.allSatisfy { $0["mode_source"] == "none" },
            "\(legs.map { ($0["travel_mode"] ?? "", $0["mode_source"] ?? "") })")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(
            (summary["warnings"] as? [String] ?? []).contains {
                $0.contains("have no mode (triplegs.csv: travel_mode unknown, mode_source none)")
            },
            "\(summary["warnings"] ?? "")")
        #expect(outcome.stderr.contains("have no mode"))
    }
}

/// A recording without fixes makes legs by time that count in the modal split.
@Suite struct TimeLegTests {
    let cli = PipelineCLI()

    @Test func anIMUOnlyRecordingMakesALegByTimeInTheModalSplit() throws {
        let folder = try TemporaryFolder()
        // The bundled phone's 20-minute IMU recording of a walk (07:01:38–07:20:19 in its labels), without its GPX.
        try FileManager.default.createDirectory(atPath: folder.file("traces/phone-01"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: SharedData.projectRoot + "/traces/phone-01/phone-2024-05-06-0700.csv.gz",
            toPath: folder.file("traces/phone-01/phone-2024-05-06-0700.csv.gz"))
        // One person: the modal split publishes her row only at k = 1, which this test asks for to see the leg counted.
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        let outcome = try cli.pipeline(
            [
                "run", "traces", "--out", "out", "--json", "--config", "k1.yaml", "--allow-identifying-k",
                "--model", SharedData.projectRoot + "/models/mode-model.json"
            ], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let legs = try CSVRows.read(folder.file("out/restricted/triplegs.csv"))
        #expect(legs.count == 1, "\(legs)")
        let leg = try #require(legs.first)
        #expect(leg["travel_mode"] == "walk" && leg["mode_source"] == "model" && leg["distance_m"] == "0.0" && leg["fixes"] == "0")
        #expect((leg["mode_note"] ?? "").hasPrefix("by time"))
        let duration = Double(leg["duration_s"] ?? "") ?? 0
        #expect(abs(duration - 1121) < 60, "the labelled walk lasts 1,121 s: \(duration)")
        let split = try CSVRows.read(folder.file("out/modal_split.csv"))
        #expect(split.contains { $0["dimension"] == "all" && $0["travel_mode"] == "walk" && $0["duration_share"] == "1.0000" })
        let geojson = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("out/restricted/triplegs.geojson"))))
                as? [String: Any])
        let features = try #require(geojson["features"] as? [[String: Any]])
        #expect(features.count == 1 && features[0]["geometry"] is NSNull, "a leg by time has no geometry")
    }
}

/// The modal split holds k persons per row, and a row left out cannot be worked out from the
/// published rows of its group (shares add up to one) or of its mode (the hours' rows add up to
/// "all"): three persons cycle, one drives.
@Suite struct ModalSplitPrivacyTests {
    let cli = PipelineCLI()

    @Test func aRowUnderKCannotBeWorkedOutBySubtraction() throws {
        let folder = try TemporaryFolder()
        for person in ["ana", "ben", "cat"] { try folder.write("traces/\(person)/day.gpx", PlausibleModeTests.gpx([(1200, 5, 5)])) }
        try folder.write("traces/dee/day.gpx", PlausibleModeTests.gpx([(1200, 15, 5)]))
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        #expect(
            try cli.pipeline(["run", "traces", "--out", "open", "--config", "k1.yaml", "--allow-identifying-k"], in: folder.path).status
                == 0)
        #expect(try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path).status == 0)
        func rows(_ path: String) throws -> [String: [String: String]] {
            Dictionary(
                uniqueKeysWithValues: try CSVRows.read(folder.file(path)).map {
                    ("\($0["dimension"]!) \($0["dimension_value"]!) \($0["travel_mode"]!)", $0)
                })
        }
        let all = try rows("open/modal_split.csv"), published = try rows("out/modal_split.csv")
        // Whatever the modes are called (the GPS leg model reads a 5 m/s ride as a bus), "all" has one row of three persons and one of one.
        let overall = all.filter { $0.key.hasPrefix("all all ") }.mapValues { $0["persons"]! }
        #expect(overall.values.sorted() == ["1", "3"], "\(all.mapValues { $0["persons"]! })")
        let lone = try #require(overall.first { $0.value == "1" }?.key.split(separator: " ").last.map(String.init))
        #expect(published.values.allSatisfy { Int($0["persons"]!)! >= 3 } && !published.keys.contains { $0.hasSuffix(" " + lone) })
        // The report shows the same split: the lone mode is in no table and no chart, only in the left-out remainder.
        let page = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        let start = try #require(page.range(of: "<h2>Modal split")), end = try #require(page.range(of: "<h2>Origin"))
        let report = String(page[start.lowerBound..<end.lowerBound]) // modal split, how far to trust it, trips by mode
        for needle in ["<td>\(lone)</td>", "\(lone): "] {
            if let found = report.range(of: needle) {
                let from = report.index(found.lowerBound, offsetBy: -300, limitedBy: report.startIndex) ?? report.startIndex
                Issue.record("the report shows \(needle): \(report[from..<found.upperBound])")
            }
        }
        #expect(report.contains("left out (under k)"))
        let open = try String(contentsOfFile: folder.file("open/report.html"), encoding: .utf8)
        #expect(open.contains("<td>\(lone)</td>"), "at k = 1 the report shows it")
        // No group and no mode has exactly one row left out: one row missing is its group's (or its "all" row's) remainder.
        let hidden = Set(all.keys).subtracting(published.keys)
        for group in Set(all.keys.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }) {
            #expect(hidden.filter { $0.hasPrefix(group + " ") }.count != 1, "\(group): one row left out, given away by the others")
        }
        for dimension in ["hour", "weekday"] {
            for mode in Set(all.keys.map { String($0.split(separator: " ")[2]) }) where published["all all \(mode)"] != nil {
                #expect(hidden.filter { $0.hasPrefix(dimension + " ") && $0.hasSuffix(" " + mode) }.count != 1, "\(dimension), \(mode)")
            }
        }
    }
}
