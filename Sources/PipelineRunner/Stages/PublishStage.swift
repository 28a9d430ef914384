import Foundation
import HeatMaps
import MobilityCore
import Publication
import Reports
import Store
import Trips

/// What publishes from a complete store: the last stage of `pipeline run` and the whole of
/// `pipeline publish`, one code for both, so that a distributed run publishes what a single
/// run does.
///
/// Three jobs at once: the files (what only the command writes, `first`: a run's releases,
/// publish's heat maps; then `od_grid.csv` from the per-device tables, and `quarantine.csv`),
/// and beside them the two report pages and the GeoPackage, whose heat-map and OD parts wait
/// for those files (`Gate`).
struct PublishStage: Sendable {
    var store: PipelineStore
    var outputFolder: String
    /// Where the per-device tables' CSVs are: `restricted/`, or a distributed run's work folder
    /// (the report then points at their Parquet datasets).
    var tablesFolder: String
    var modelPath: String?
    var calendar: CalendarKeys
    /// The run's heat-map settings: `od_grid.csv` takes its cell size and k.
    var heatMap: HeatMapParameters
    /// The planner's zones (`od_zones.csv`), read before the run began; nil: no zone OD.
    var zones: ZoneLayer? = nil
    /// The bands of the local day (`od_zones.csv`, `mode_shares.csv`; the report's modal split).
    var bands = TimeBands()
    /// The classifier's measured confusion, for `mode_shares.csv`'s corrected shares; nil: none.
    var confusion: ConfusionCorrection? = nil
    /// The population the persons are weighted to (`person_weights.csv`, the weighted columns); nil: none.
    var population: PlanningInputs.Population? = nil
    /// CO2e per passenger-km of each mode (`co2e.csv`, `person_co2e.csv`; the report names them).
    var emissionFactors = EmissionFactors.ukDESNZ2025
    /// The countries layer the legs' factors were chosen by (`planning.countries`), read before the run began.
    var countries = LegCountries()

    struct Outcome {
        /// Nil when the per-device tables were not there to draw it from.
        var odGrid: ODGridOutput.Summary?
        /// Nil without a zone layer, or without the per-device tables.
        var odZones: ZoneODOutput.Summary?
        /// Nil without the per-device tables.
        var modeShares: ModeSharesOutput.Summary?
        /// Nil without a population, or without the per-device tables.
        var weights: PersonWeightsOutput.Summary?
        /// Nil without the per-device tables.
        var co2e: CO2eOutput.Summary?
        /// Files in the store's quarantine.
        var quarantined = 0
        var files: [String] = []
        /// What to log, in order.
        var notes: [String] = []
        /// What the user should know that stopped nothing (the run prints them last).
        var warnings: [String] = []
        /// Wall seconds: `od_grid` and `quarantine` (after `first`), `report` and `geopackage`
        /// (beside them).
        var stageSeconds: [String: Double] = [:]
    }

    func run<First>(first: @escaping @Sendable () throws -> First) throws -> (First, Outcome) {
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        try OutputLayout.prepareRestricted(in: outputFolder)
        let written = ConcurrentSlots<(First, Outcome)>(count: 1)
        let seconds = ConcurrentSlots<Double>(count: 2) // the report, the GeoPackage
        let gate = Gate()
        try runConcurrently([
            { [self] in written.store(try gate.opening { (try first(), try files()) }, at: 0) },
            { [self] in
                let started = Date()
                let k = HeatMapParameters().minimumPersons // where no stage recorded one
                var report = ReportPage(
                    facts: try store.reportFacts(defaultMinimumPersons: k), folder: outputFolder, modelPath: modelPath,
                    calendars: try store.localCalendars(dataset: calendar))
                report.bands = bands
                report.perDeviceTablesAsParquet =
                    (tablesFolder as NSString).standardizingPath
                    != (OutputLayout.restricted(in: outputFolder) as NSString).standardizingPath
                try report.write {
                    try gate.wait()
                    return try store.publishedReportFacts(defaultMinimumPersons: k)
                }
                seconds.store(Date().timeIntervalSince(started), at: 0)
            },
            { [self] in
                let started = Date()
                try GeoPackageOutput(folder: outputFolder, tablesFolder: tablesFolder).write(
                    legLines: { [store] in try store.withTriplegLines($0) }, geofences: try store.geofences()
                ) {
                    try gate.wait()
                    return try store.storedHeatMapNames()
                }
                seconds.store(Date().timeIntervalSince(started), at: 1)
            }
        ])
        var (value, outcome) = written.values[0]
        (outcome.stageSeconds["report"], outcome.stageSeconds["geopackage"]) = (seconds.values[0], seconds.values[1])
        outcome.files += [
            (outputFolder as NSString).appendingPathComponent("report.html"),
            (outputFolder as NSString).appendingPathComponent(GeoPackageOutput.fileName),
            OutputLayout.path("report.html", in: OutputLayout.restricted(in: outputFolder)),
            OutputLayout.path(GeoPackageOutput.fileName, in: OutputLayout.restricted(in: outputFolder))
        ]
        return (value, outcome)
    }

    /// `od_grid.csv` (when the per-device tables are there) and `quarantine.csv`.
    private func files() throws -> Outcome {
        var outcome = Outcome()
        var clock = Date()
        func step(_ stage: String) { outcome.stageSeconds[stage] = Date().timeIntervalSince(clock); clock = Date() }
        if FileManager.default.fileExists(atPath: (tablesFolder as NSString).appendingPathComponent(OutputSchema.trips.file)) {
            let grid = try ODGridOutput(folder: outputFolder, parameters: heatMap, tablesFolder: tablesFolder).write(
                persons: try store.devicePersons(),
                margins: [SplitMargins(text: try store.derivedState(PipelineStore.splitMarginsKey))].compactMap { $0 })
            try store.setDerivedState(PipelineStore.odGridKey, ODGridOutput.text(grid)) // for the report
            outcome.odGrid = grid
            outcome.notes.append(ODGridOutput.text(grid))
            outcome.files.append((outputFolder as NSString).appendingPathComponent(ODGridOutput.fileName))
        }
        step("od_grid")
        outcome = try planningFiles(into: outcome)
        clock = Date()
        let quarantined = try store.quarantinedFiles()
        outcome.quarantined = Set(quarantined.map(\.path)).count
        let quarantine = OutputLayout.path("quarantine.csv", in: outputFolder)
        try QuarantineReport.write(quarantined, to: quarantine)
        outcome.files.append(quarantine)
        step("quarantine")
        return outcome
    }
}
