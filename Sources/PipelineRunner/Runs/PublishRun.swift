import Comfort
import Foundation
import HeatMaps
import MobilityCore
import Publication
import Reports
import Store
import Trips

/// `pipeline publish`: the files of a complete run that come from the store, written from a
/// store that a distributed run's merge filled (spark/): the heat maps (`heatmap.csv`,
/// `heatmap.geojson`, the PNGs), `restricted/quarantine.csv`, `report.html` (and the
/// operator's `restricted/report.html`), and `od_grid.csv` and `pipeline.gpkg` (from the CSV
/// files the merge wrote in `restricted/`, `OutputLayout`).
///
/// The merge inserts each published cell's id and counts (k already applied over every
/// part's devices); the cell's centre and edges follow from its id (`HeatGrid`), so they are
/// computed here, by the code that computes them in a single run, and written back.
public struct PublishRun: Sendable {
    public var storePath: String
    public var outputFolder: String
    public var modelPath: String?
    public var calendar = CalendarKeys()
    /// The heat-map settings of the run (`od_grid.csv` takes its cell size and k).
    public var heatMapParameters = HeatMapParameters()
    /// A distributed run's reductions (`ReducedTables`): with them, publish also writes the
    /// heat maps (k applied here), `od_matrix.csv`, `modal_split.csv` and the comfort summaries.
    public var reducedFolder: String?
    /// Where the per-device tables' CSVs are, for `od_grid.csv` and the GeoPackage. Default:
    /// the output folder's `restricted/`; a distributed run without `--csv` keeps them in its work folder, and
    /// the report then points at their Parquet datasets instead (`parquet/trips`).
    public var tablesFolder: String?
    /// Time bands and the zone layer, as given to `pipeline run` (`od_zones.csv`).
    public var planning = PlanningParameters()

    public init(storePath: String, outputFolder: String) {
        (self.storePath, self.outputFolder) = (storePath, outputFolder)
    }

    public struct Summary: Sendable, Encodable {
        public var heatMaps = 0, cells = 0, quarantined = 0
        /// null when the per-device tables were not there to draw it from.
        @NullEncodable public var odGrid: ODGridOutput.Summary?
        /// null without a zone layer or the per-device tables.
        @NullEncodable public var odZones: ZoneODOutput.Summary?
        /// null without the per-device tables.
        @NullEncodable public var modeShares: ModeSharesOutput.Summary?
        /// `co2e.csv` (`CO2eOutput`).
        @NullEncodable public var co2e: CO2eOutput.Summary?
        /// null without a population.
        @NullEncodable public var weights: PersonWeightsOutput.Summary?
        public var files: [String] = []
        /// Wall seconds of each stage (reductions, heat_maps, od_grid, quarantine, report,
        /// geopackage; the report and the GeoPackage run beside the others and wait for the heat
        /// maps and the OD grid), as `pipeline run`'s summary has them.
        public var stageSeconds: [String: Double] = [:]
        /// Logged, not printed in `--json`.
        var notes: [String] = []
        enum CodingKeys: String, CodingKey {
            case heatMaps = "heat_maps", cells, quarantined, odGrid = "od_grid", odZones = "od_zones", modeShares = "mode_shares", co2e,
                weights,
                files,
                stageSeconds = "stage_seconds"
        }
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let (zones, confusion, population, countries) = try {
            let l = try PlanningInputs.load(planning); return (l.zones, l.confusion, l.population, l.countries)
        }()
        return try StoreSession.run(storePath: storePath, progress: progress) { store in
            try checkK(store: store)
            let stage = PublishStage(
                store: store, outputFolder: outputFolder, tablesFolder: tablesFolder ?? OutputLayout.restricted(in: outputFolder),
                modelPath: modelPath, calendar: calendar, heatMap: heatMapParameters, zones: zones, bands: planning.bands,
                confusion: confusion, population: population, emissionFactors: planning.emissionFactors,
                countries: countries)
            var (summary, outcome) = try stage.run { [self] in try heatMapFiles(store: store) }
            (summary.notes + outcome.notes + outcome.warnings.map { "warning: " + $0 }).forEach(progress.log)
            (summary.odGrid, summary.odZones, summary.quarantined) = (outcome.odGrid, outcome.odZones, outcome.quarantined)
            (summary.modeShares, summary.weights, summary.co2e) = (outcome.modeShares, outcome.weights, outcome.co2e)
            summary.files += outcome.files
            summary.stageSeconds.merge(outcome.stageSeconds) { $1 }
            return summary
        }
    }

    /// Without reductions, the store's modal split, OD table, heat maps and split margins are
    /// the ones the trip stage published, at its k: a later table published at another k would be
    /// audited against margins of that k and stand beside tables of it. Exit 64 naming both.
    func checkK(store: PipelineStore) throws {
        let k = heatMapParameters.minimumPersons
        guard reducedFolder == nil, let stored = try store.minimumPersons(), stored != k else { return }
        throw PipelineError(
            .usage,
            "publish --k \(k): \(storePath) was published at k = \(stored) (its modal_split.csv, od_matrix.csv and heat maps); "
                + "publish applies another k only to a distributed run's --reduced tables. Give --k \(stored), "
                + "or run `pipeline run --k \(k)` on the inputs again.")
    }

    /// What only `publish` writes: the reductions' tables and the heat maps (`publishReductions`),
    /// or, without reductions, the heat maps the merge stored (`completedHeatMaps`).
    func heatMapFiles(store: PipelineStore) throws -> Summary {
        var summary = Summary()
        var clock = Date()
        func step(_ stage: String) { summary.stageSeconds[stage] = Date().timeIntervalSince(clock); clock = Date() }
        var heatMaps: PublishedHeatMaps?
        if let reducedFolder {
            let reductions = try publishReductions(ReducedTables(folder: reducedFolder), store: store)
            (summary.files, heatMaps) = (summary.files + reductions.files, reductions.heatMaps)
        } else {
            heatMaps = try Self.completedHeatMaps(store: store)
        }
        step("reductions")
        if let heatMaps, let grid = heatMaps.grid {
            summary.files += try HeatMapFiles(maps: heatMaps.maps, grid: grid).write(to: outputFolder, cells: heatMaps.cells)
            (summary.heatMaps, summary.cells) = (heatMaps.maps.count, heatMaps.maps.first { $0.map == "all" }?.cells.count ?? 0)
        } else {
            summary.notes.append("publish: the store holds no heat map, so no heatmap.csv, heatmap.geojson or PNG is written")
        }
        step("heat_maps")
        return summary
    }

    /// The heat maps as published: the store's rows (in run order, cells in cell order) and
    /// each map's cells with their counts, for `HeatMapFiles`.
    struct PublishedHeatMaps {
        var maps: [PipelineStore.HeatMapRows] = []
        var cells: [String: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]] = [:]
        /// Nil when there is no map.
        var grid: HeatGrid? { maps.first.map { HeatGrid(cellMeters: $0.cellMeters) } }

        mutating func append(_ map: PipelineStore.HeatMapRows, cells published: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]) {
            var filled = map
            let grid = HeatGrid(cellMeters: map.cellMeters)
            filled.cells = published.map { HeatMapRun.row(grid, $0.cell, $0.counts) }
            maps.append(filled)
            cells[map.map] = published
        }
    }

    /// Without reductions: the cells the merge stored (ids and counts), each given its centre
    /// and edges from its id and written back.
    static func completedHeatMaps(store: PipelineStore) throws -> PublishedHeatMaps {
        var heatMaps = PublishedHeatMaps()
        for map in inRunOrder(try store.storedHeatMaps()) {
            let grid = HeatGrid(cellMeters: map.cellMeters)
            let cells = try map.cells.map {
                (
                    cell: try grid.cell(id: $0.id, map: map.map),
                    counts: HeatMap.Counts(
                        fixes: $0.fixes, devices: $0.devices, persons: $0.persons,
                        dwellSeconds: $0.dwellSeconds)
                )
            }
            heatMaps.append(map, cells: cells.sorted { $0.cell < $1.cell })
        }
        if !heatMaps.maps.isEmpty { try store.replaceHeatMaps(heatMaps.maps) }
        return heatMaps
    }

    /// The formulas over a distributed run's reductions, as a single run applies them: k on the
    /// merged heat-map cells (into the store, and returned for the heat-map files), the OD
    /// table, the modal split and, when the run had rides, the comfort summaries. Returns the
    /// files written and the heat maps.
    func publishReductions(_ reduced: ReducedTables, store: PipelineStore) throws -> (files: [String], heatMaps: PublishedHeatMaps) {
        var heatMaps = PublishedHeatMaps()
        for map in try reduced.heatMaps().sorted(by: { HeatMap.runsBefore($0.map, $1.map) }) {
            let (cells, suppressed) = HeatMap(grid: HeatGrid(cellMeters: map.cellMeters), cells: map.cells).published(
                minimumPersons: map.minimumPersons)
            heatMaps.append(
                .init(
                    map: map.map, cellMeters: map.cellMeters, minimumPersons: map.minimumPersons, filter: map.filter,
                    cells: [], suppressed: suppressed), cells: cells)
        }
        try store.replaceHeatMaps(heatMaps.maps)
        func path(_ name: String) -> String { (outputFolder as NSString).appendingPathComponent(name) }
        let geofences = Dictionary(try store.geofences().map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let published = TripPublication(
            odGroups: try reduced.odGroups(), modalTotals: try reduced.modalTotals(), bands: planning.bands,
            privacy: PrivacyParameters(k: heatMapParameters.minimumPersons), geofences: geofences.count)
        let (odMatrix, modalSplit) = (published.odMatrix, published.modalSplit)
        try TripTables.odMatrix(odMatrix, geofences: geofences).write(to: path("od_matrix.csv"))
        try store.setDerivedState(PipelineStore.minimumPersonsKey, String(heatMapParameters.minimumPersons))
        try store.setDerivedState(PipelineStore.odMatrixKey, ODMatrixCounts(odMatrix).line)
        try TripTables.modalSplit(modalSplit).write(to: path("modal_split.csv"))
        try store.setDerivedState(PipelineStore.modalSplitKey, ModalSplitCounts(modalSplit).line)
        try store.setDerivedState(PipelineStore.splitMarginsKey, try published.margins.text())
        try store.setDerivedState(PipelineStore.tripFiguresKey, try TripFigures(published, store: store).text()) // for the report
        // A distributed run matches no leg against a feed (`--transit` runs on one machine): the
        // table's header, as a single run without a feed writes it.
        let punctuality = LinePunctuality(
            [], matched: 0, bands: planning.bands, privacy: PrivacyParameters(k: heatMapParameters.minimumPersons))
        try PunctualityOutput.write(punctuality, to: outputFolder)
        try store.setDerivedState(PipelineStore.punctualityKey, "")
        var files = [path("od_matrix.csv"), path("modal_split.csv"), path(PunctualityOutput.fileName)]
        if FileManager.default.fileExists(atPath: (reduced.folder as NSString).appendingPathComponent("train_comfort_groups")) {
            try ComfortTables.writeSummaries(
                trains: try reduced.comfortGroups("train_comfort_groups").map(ComfortSummary.init(group:)),
                routes: try reduced.comfortGroups("route_comfort_groups").map(ComfortSummary.init(group:)),
                to: outputFolder, minimumPersons: heatMapParameters.minimumPersons)
            files += [path("train_comfort.csv"), path("route_comfort.csv")]
        }
        return (files, heatMaps)
    }

    /// "all" first, then the modes in `Mode` order, as `HeatMapRun` writes them.
    static func inRunOrder(_ maps: [PipelineStore.HeatMapRows]) -> [PipelineStore.HeatMapRows] {
        maps.sorted { HeatMap.runsBefore($0.map, $1.map) }
    }
}
