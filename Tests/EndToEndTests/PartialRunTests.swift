import Foundation
import MobilityCore
import Reports
import Store
import TestSupport
import Testing

/// `pipeline run --partial`, as a distributed run's part runs it: every stage into the store,
/// nothing published.
@Suite(.serialized) struct PartialRunTests {
    let runs = RunCommandTests()

    @Test func aPartialRunWritesOnlyTheStoreWithItsDeviceCells() throws {
        let folder = try TemporaryFolder()
        try runs.simulate(folder, devices: 4, imu: false)
        let (first, summary) = try runs.run(folder, out: "part", ["--partial"])
        #expect(first.status == 2, "one input is quarantined on purpose: \(first.stderr)")
        #expect(summary["partial"] as? Bool == true && (summary["trips"] as? Int ?? 0) > 0 && summary["quarantined"] as? Int == 1)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.file("part")).filter { !$0.hasPrefix(".") }.sorted()
        #expect(written == ["part-tables", "restricted"], "nothing published: \(written)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.file("part/restricted")).filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(kept == ["pipeline.sqlite", "pipeline.sqlite.lock"], "the part's store, in restricted/: \(kept)")
        let own = try FileManager.default.contentsOfDirectory(atPath: folder.file("part/part-tables"))
        for name in ["staypoints.csv", "trips.csv", "triplegs.csv", "device_stats.csv", "modes.csv", "rides.csv", "triplegs.geojson"] {
            #expect(own.contains(name), "the part's own rows for the merge: \(name) missing from \(own)")
        }
        #expect(
            !own.contains { $0.hasPrefix("heatmap") || $0 == "report.html" || $0 == "quarantine.csv" },
            "no heat map, report or quarantine: \(own)")
        // The partial groups of what crosses devices, for the merge: one JSON-lines file per
        // table the schema declares, its first line the declared columns.
        let partials = try FileManager.default.contentsOfDirectory(atPath: folder.file("part/part-tables/partials")).sorted()
        #expect(partials == OutputSchema.partialTables.map(\.fileName).sorted())
        for table in OutputSchema.partialTables {
            let lines = try String(contentsOfFile: folder.file("part/part-tables/partials/" + table.fileName), encoding: .utf8)
                .split(separator: "\n")
            let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String]
            #expect(header == table.columns.map(\.name), "\(table.name)")
            for line in lines.dropFirst() {
                let row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any]
                #expect(row?.count == table.columns.count, "\(table.name): \(line)")
            }
        }
        let trips = try CSVTable.read(path: folder.file("part/part-tables/trips.csv"))
        let od = try String(contentsOfFile: folder.file("part/part-tables/partials/od_groups.jsonl"), encoding: .utf8)
        // Each trip is in its pair's all_day group and in its band's.
        let groups = try od.split(separator: "\n").dropFirst().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])
        }
        let tripsInGroups = groups.filter { $0[0] as? String == "all_day" }.map { $0[3] as? Int ?? 0 }
        #expect(tripsInGroups.reduce(0, +) == trips.rows.count, "every trip in one whole-day OD group")
        #expect(groups.filter { $0[0] as? String != "all_day" }.map { $0[3] as? Int ?? 0 }.reduce(0, +) == trips.rows.count)
        #expect(first.stderr.contains("partial run: nothing published"))

        let store = try PipelineStore(path: folder.file("part/restricted/pipeline.sqlite"))
        let deviceCells = try store.heatMapDeviceCells()
        #expect(Set(deviceCells.map(\.device)).count == 4, "every device's cells are kept for merging")
        #expect(try store.tableCounts()["quarantine"] == 1, "the store keeps the quarantine that quarantine.csv would have shown")

        let (again, second) = try runs.run(folder, out: "part", ["--partial"])
        #expect(again.status == 0 && second["up_to_date"] as? Bool == true, "the quarantine is carried over, not new")

        // The same folder run in full: every stage runs again, publishes, and keeps no device cells.
        let (full, complete) = try runs.run(folder, out: "part")
        #expect(full.status == 0 && complete["up_to_date"] as? Bool == false && complete["partial"] as? Bool == false)
        for name in ["report.html", "heatmap.csv", "restricted/trips.csv", "restricted/quarantine.csv", "restricted/modes.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("part/\(name)")), "missing \(name)")
        }
        #expect(try PipelineStore(path: folder.file("part/restricted/pipeline.sqlite")).heatMapDeviceCells().isEmpty)

        // Now that the folder holds published reports, a partial run refuses it.
        let (refused, _) = try runs.run(folder, out: "part", ["--partial"])
        #expect(refused.status == 1 && refused.stderr.contains("holds a complete run's reports"))
    }
}
