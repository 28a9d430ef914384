import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// Heat maps of disjoint parts of a data set, merged: each device's unfiltered cells, kept in
/// the parts' stores, give the whole data set's published cells when distinct devices are
/// counted over every part before k is applied; applying k in each part does not.
@Suite struct HeatMapMergeTests {
    /// The bundled traces' eight phones, GPX only, each file given by itself (device = folder).
    static func gpxFiles() throws -> [String] {
        let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../traces").standardized.path
        let phones = try FileManager.default.contentsOfDirectory(atPath: traces).filter { $0.hasPrefix("phone-") }.sorted()
        return phones.map { "\(traces)/\($0)/2024-05-06.gpx" }
    }

    /// Ingest, trips, then heat maps keeping device cells; returns the store.
    func run(_ files: [String], in folder: String) throws -> PipelineStore {
        let storePath = folder + "/pipeline.sqlite"
        var options = IngestOptions(paths: files, storePath: storePath)
        options.reportsFolder = folder
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        _ = try TripsRun(storePath: storePath, reportsFolder: folder).run(progress: ProgressReporter(quiet: true))
        var heatMap = HeatMapRun(storePath: storePath, reportsFolder: folder)
        heatMap.keepDeviceCells = true
        _ = try heatMap.run(progress: ProgressReporter(quiet: true))
        return try PipelineStore(path: storePath)
    }

    struct Cell: Hashable { var map: String, id: String }

    static func published(_ store: PipelineStore) throws -> [Cell: (fixes: Int, devices: Int, dwell: Double)] {
        var cells: [Cell: (fixes: Int, devices: Int, dwell: Double)] = [:]
        for row in try store.rows("SELECT map, cell_id, fixes, devices, dwell_s FROM heatmap_cells") {
            cells[Cell(map: row["map"]!!, id: row["cell_id"]!!)] = (Int(row["fixes"]!!)!, Int(row["devices"]!!)!, Double(row["dwell_s"]!!)!)
        }
        return cells
    }

    @Test func devicesCountedOverEveryPartThenKGiveTheWholeRunsCells() throws {
        let files = try Self.gpxFiles()
        try #require(files.count == 8, "the bundled traces hold eight phones")
        let folder = try TemporaryFolder()
        let whole = try run(files, in: folder.file("whole"))
        // Three uneven parts, by device.
        let parts = try [Array(files[0..<1]), Array(files[1..<4]), Array(files[4...])].enumerated().map { index, part in
            try run(part, in: folder.file("part-\(index)"))
        }
        let k = HeatMapRun(storePath: "", reportsFolder: "").parameters.minimumPersons

        // Each device's cells do not depend on the other devices.
        let wholeDeviceCells = try whole.heatMapDeviceCells()
        let partDeviceCells = try parts.flatMap { try $0.heatMapDeviceCells() }
        #expect(
            Set(partDeviceCells.map { "\($0.map) \($0.cellID) \($0.device) \($0.fixes) \($0.dwellSeconds.bitPattern)" })
                == Set(wholeDeviceCells.map { "\($0.map) \($0.cellID) \($0.device) \($0.fixes) \($0.dwellSeconds.bitPattern)" }))
        #expect(Set(wholeDeviceCells.map(\.device)).count == 8)

        // Merged: distinct devices and fixes summed over the parts, then k.
        var merged: [Cell: (fixes: Int, devices: Set<String>, dwell: Double)] = [:]
        for cell in partDeviceCells.sorted(by: { ($0.map, $0.cellID, $0.device) < ($1.map, $1.cellID, $1.device) }) {
            var counts = merged[Cell(map: cell.map, id: cell.cellID)] ?? (0, [], 0)
            counts.fixes += cell.fixes
            counts.devices.insert(cell.device)
            counts.dwell += cell.dwellSeconds
            merged[Cell(map: cell.map, id: cell.cellID)] = counts
        }
        let kept = merged.filter { $0.value.devices.count >= k }
        let expected = try Self.published(whole)
        #expect(!expected.isEmpty && kept.count == expected.count)
        for (cell, counts) in kept {
            let single = try #require(expected[cell], "\(cell) is published by the whole run")
            #expect(counts.fixes == single.fixes && counts.devices.count == single.devices, "\(cell)")
            // Dwell is summed per device, then over devices; the whole run adds every step in
            // turn. Equal to rounding (here exactly, the GPX times being whole seconds).
            #expect(abs(counts.dwell - single.dwell) <= 1e-9 * max(1, single.dwell), "\(cell)")
        }
        let wholeSuppressed = try whole.rows("SELECT map, suppressed_cells FROM heatmaps").reduce(0) { $0 + Int($1["suppressed_cells"]!!)! }
        #expect(merged.count - kept.count == wholeSuppressed)

        // Negative control: k applied in each part publishes a different, smaller map.
        let perPart = try parts.reduce(into: Set<Cell>()) { $0.formUnion(try Self.published($1).keys) }
        #expect(perPart.count < expected.count)
        // The device cells never reach a file: heatmap.csv holds only cells seen by k devices or more.
        let csv = try String(contentsOfFile: folder.file("whole/heatmap.csv"), encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",")
        }
        let devicesColumn = try #require(csv[0].firstIndex(of: "devices"))
        #expect(csv.dropFirst().allSatisfy { Int($0[devicesColumn])! >= k })
    }

    @Test func withoutTheFlagNoDeviceCellsAreKept() throws {
        let folder = try TemporaryFolder()
        let files = Array(try Self.gpxFiles().prefix(2))
        let storePath = folder.file("out/pipeline.sqlite")
        var options = IngestOptions(paths: files, storePath: storePath)
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        _ = try TripsRun(storePath: storePath, reportsFolder: folder.file("out")).run(progress: ProgressReporter(quiet: true))
        var heatMap = HeatMapRun(storePath: storePath, reportsFolder: folder.file("out"))
        heatMap.keepDeviceCells = true
        _ = try heatMap.run(progress: ProgressReporter(quiet: true))
        #expect(try !PipelineStore(path: storePath).heatMapDeviceCells().isEmpty)
        heatMap.keepDeviceCells = false
        _ = try heatMap.run(progress: ProgressReporter(quiet: true))
        #expect(try PipelineStore(path: storePath).heatMapDeviceCells().isEmpty, "a run without the flag leaves none behind")
    }
}
