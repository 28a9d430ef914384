import Foundation
import MobilityCore
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
        #expect(written == ["part-tables", "pipeline.sqlite", "pipeline.sqlite.lock"], "nothing published: \(written)")
        let own = try FileManager.default.contentsOfDirectory(atPath: folder.file("part/part-tables"))
        for name in ["staypoints.csv", "trips.csv", "triplegs.csv", "device_stats.csv", "modes.csv", "rides.csv", "triplegs.geojson"] {
            #expect(own.contains(name), "the part's own rows for the merge: \(name) missing from \(own)")
        }
        #expect(
            !own.contains { $0.hasPrefix("heatmap") || $0 == "report.html" || $0 == "quarantine.csv" },
            "no heat map, report or quarantine: \(own)")
        // The modal split's keys of every trip and leg, for the merge to group by: three each
        // (all, local hour, local weekday; per-device splits are device_stats.csv's).
        let keys = try CSVTable.read(path: folder.file("part/part-tables/modal_keys.csv"))
        let trips = try CSVTable.read(path: folder.file("part/part-tables/trips.csv")),
            legs = try CSVTable.read(path: folder.file("part/part-tables/triplegs.csv"))
        #expect(keys.columns == ["kind", "id", "dimension", "dimension_value"])
        #expect(keys.rows.count == 3 * (trips.rows.count + legs.rows.count))
        #expect(Set(keys.rows.map { $0[2]! }) == ["all", "hour", "weekday"])
        #expect(keys.rows.filter { $0[2] == "hour" }.allSatisfy { $0[3]!.count == 2 && Int($0[3]!)! < 24 })
        #expect(first.stderr.contains("partial run: nothing published"))

        let store = try PipelineStore(path: folder.file("part/pipeline.sqlite"))
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
        #expect(try PipelineStore(path: folder.file("part/pipeline.sqlite")).heatMapDeviceCells().isEmpty)

        // Now that the folder holds published reports, a partial run refuses it.
        let (refused, _) = try runs.run(folder, out: "part", ["--partial"])
        #expect(refused.status == 1 && refused.stderr.contains("holds a complete run's reports"))
    }
}
