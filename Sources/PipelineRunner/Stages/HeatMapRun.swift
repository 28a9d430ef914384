import Foundation
import HeatMaps
import MobilityCore
import Reports
import Store
import Trips

/// The heat-map stage over a store: streams each device's fixes, a piece at a time, with the modes of
/// its stored staypoints and legs, counts them into the overall map and one map per mode,
/// keeps the cells seen by at least k persons (store and files), and reports the rest as
/// suppressed.
public struct HeatMapRun {
    public var storePath: String
    public var reportsFolder: String
    public var parameters = HeatMapParameters()
    /// The calendar of what belongs to no device (the filter's dates as given); each device's
    /// fixes are filtered in its own local time, as the last trip stage decided it.
    public var calendar = CalendarKeys()
    public var grouping = TrackGrouping.device
    /// Also keep each device's unfiltered counts per cell in the store (never in a file), so
    /// that runs over disjoint parts of a data set can be merged before k is applied.
    public var keepDeviceCells = false
    /// Write the published maps into `reportsFolder` (false: the store only).
    public var writesFiles = true
    /// A distributed run's part: also write its partial groups (`heatmaps`, `heat_cells`;
    /// `HeatMapPartials`) into this folder for the merge. Needs `keepDeviceCells`.
    public var partialsFolder: String?

    public init(storePath: String, reportsFolder: String) {
        self.storePath = storePath
        self.reportsFolder = reportsFolder
    }

    public struct Summary: Sendable, Encodable {
        public var devices = 0
        public var fixes = 0
        /// Published and suppressed cells of the overall map.
        public var cells = 0
        public var suppressedCells = 0
        /// Published cells per map ("all" and each mode).
        public var cellsByMap: [String: Int] = [:]
        public var cellMeters = 0.0
        public var minimumPersons = 0
        public var seconds = 0.0
        public var files: [String] = []

        enum CodingKeys: String, CodingKey {
            case devices, fixes, cells, suppressedCells = "suppressed_cells", cellsByMap = "cells_by_map"
            case cellMeters = "cell_m", minimumPersons = "k", seconds, files
        }
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        try StoreSession.run(storePath: storePath, progress: progress) { try run(store: $0, progress: progress) }
    }

    /// The stage on a command's open store (`pipeline run` hands every stage its one session's store).
    public func run(store: PipelineStore, progress: ProgressReporter) throws -> Summary {
        let started = Date()
        let filter = try parameters.filter(calendar: calendar)
        let calendars = try store.localCalendars(dataset: calendar)
        let grid = HeatGrid(cellMeters: parameters.cellMeters)
        var layers = HeatMapLayers(grid: grid, filter: filter)
        var summary = Summary()
        // Tracks of one person one after another, so each cell counts its persons exactly.
        let persons = grouping == .device ? try store.devicePersons() : [:]
        let names = try store.trackNames(groupedBy: grouping).sorted { (persons[$0] ?? $0, $0) < (persons[$1] ?? $1, $1) }
        var deviceCells: [HeatMapLayers.DeviceCell] = []
        for (index, name) in names.enumerated() {
            progress.update(done: index, total: names.count, item: name)
            var device = layers.begin(
                intervals: try store.storedIntervals(device: name), device: name, person: persons[name] ?? name,
                calendar: grouping == .device ? calendars.device(name) : nil, keepingCells: keepDeviceCells)
            // A piece of fixes at a time while the store holds them in time order; else what they
            // counted is taken back and the track read whole and sorted.
            var fixes = 0
            let streamed = try store.forEachTrackPiece(named: name, groupedBy: grouping, pieceSize: Self.pieceFixes) { piece in
                layers.add(piece, to: &device)
                fixes += piece.count
            }
            if !streamed {
                layers.rollBack(&device)
                let track = try store.track(named: name, groupedBy: grouping)
                layers.add(track.points.array, to: &device)
                fixes = track.points.count
            }
            deviceCells += layers.finish(&device)
            summary.fixes += fixes
        }
        progress.update(done: names.count, total: names.count, item: "")
        let (rows, published) = layers.published(minimumPersons: parameters.minimumPersons, filterDescription: parameters.filterDescription)
        for row in rows {
            if HeatMapLayers.isPublished(map: row.map, cells: row.cells.count) { summary.cellsByMap[row.map] = row.cells.count }
            if row.map == "all" { (summary.cells, summary.suppressedCells) = (row.cells.count, row.suppressed) }
        }
        try store.replaceHeatMaps(
            rows,
            deviceCells: deviceCells.map {
                .init(map: $0.map, cellID: $0.cellID, device: $0.device, person: $0.person, fixes: $0.fixes, dwellSeconds: $0.dwellSeconds)
            })
        if let partialsFolder {
            let maps = rows.map {
                HeatMapPartials.Map(name: $0.map, cellMeters: $0.cellMeters, minimumPersons: $0.minimumPersons, filter: $0.filter)
            }
            for table in HeatMapPartials(deviceCells).tables(maps: maps) { try table.write(to: partialsFolder) }
        }
        summary.files = writesFiles ? try HeatMapFiles(maps: rows, grid: grid).write(to: reportsFolder, cells: published) : []
        summary.devices = names.count
        summary.cellMeters = grid.cellMeters
        summary.minimumPersons = parameters.minimumPersons
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Fixes read from the store at a time: 65,536 (2 MB), so the stage's memory follows the
    /// cells, not the largest device's fixes.
    static let pieceFixes = 1 << 16

    static func row(_ grid: HeatGrid, _ cell: HeatGrid.Cell, _ counts: HeatMap.Counts) -> PipelineStore.HeatMapRows.Cell {
        .init(
            id: grid.id(cell), center: grid.centre(cell), bounds: grid.bounds(cell), fixes: counts.fixes, devices: counts.devices,
            persons: counts.persons, dwellSeconds: counts.dwellSeconds)
    }
}

extension HeatMapLayers {
    /// Every map's store rows ("all" first, then the modes in order) with the cells k persons
    /// or more were in, and those cells by map, for the files.
    func published(minimumPersons k: Int, filterDescription: String)
        -> (rows: [PipelineStore.HeatMapRows], cells: [String: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]])
    {
        var rows: [PipelineStore.HeatMapRows] = []
        var cells: [String: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]] = [:]
        for map in published(minimumPersons: k) {
            cells[map.name] = map.cells
            rows.append(
                .init(
                    map: map.name, cellMeters: grid.cellMeters, minimumPersons: k, filter: filterDescription,
                    cells: map.cells.map { HeatMapRun.row(grid, $0.cell, $0.counts) }, suppressed: map.suppressed))
        }
        return (rows, cells)
    }
}
