import Foundation
import Fusion
import Ingest
import MobilityCore
import Store
import Trips

/// The files a run's planning settings name, read before any work so a bad one stops the run
/// at once.
enum PlanningInputs {
    /// Every file of the settings, read.
    struct Loaded: Sendable {
        var zones: ZoneLayer?
        var confusion: ConfusionCorrection?
        var population: Population?
        var corrections = LegCorrections()
        var countries = LegCountries()
    }

    static func load(_ planning: PlanningParameters) throws -> Loaded {
        Loaded(
            zones: try zones(planning), confusion: try confusion(planning), population: try population(planning),
            corrections: try corrections(planning), countries: try countries(planning))
    }

    /// What a partial run reads: the corrections and the countries (a part decides its legs
    /// and their CO2e; it publishes nothing).
    static func loadForPart(_ planning: PlanningParameters) throws -> Loaded {
        Loaded(corrections: try corrections(planning), countries: try countries(planning))
    }

    /// The countries layer (`planning.countries`, `--countries`): a GeoPackage's first feature
    /// table (`.gpkg`), else GeoJSON.
    static func countries(_ planning: PlanningParameters) throws -> LegCountries {
        guard let path = planning.countries else { return LegCountries() }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(.invalidZoneLayer, path: path, reason: "no such file (planning.countries or --countries)")
        }
        let (fences, dropped) =
            path.lowercased().hasSuffix(".gpkg")
            ? try GeoPackageFeatures.zoneFences(
                path: path, idColumn: planning.countryProperty, nameColumn: "name", nameColumnIsOptional: true)
            : try ZoneLayerReader.geoJSON(
                path: path, idProperty: planning.countryProperty, nameProperty: "name", idOption: "--country-property")
        return try LegCountries(path: path, fences: fences, dropped: dropped)
    }

    /// People's corrections of their legs (`planning.corrections`, `--corrections`).
    static func corrections(_ planning: PlanningParameters) throws -> LegCorrections {
        guard let path = planning.corrections else { return LegCorrections() }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(.invalidCorrections, path: path, reason: "no such file (planning.corrections or --corrections)")
        }
        let name = (path as NSString).lastPathComponent
        return LegCorrections(
            try CorrectionsReader.read(path: path).map {
                .init(
                    device: $0.device, person: $0.person, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds, mode: $0.mode,
                    purpose: $0.purpose, notATrip: $0.notATrip, file: name, line: $0.line)
            })
    }

    /// The zone layer (`planning.zones`, `--zones`): a GeoPackage's first feature table
    /// (`.gpkg`), else GeoJSON.
    static func zones(_ planning: PlanningParameters) throws -> ZoneLayer? {
        guard let path = planning.zones else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(.invalidZoneLayer, path: path, reason: "no such file (planning.zones or --zones)")
        }
        if path.lowercased().hasSuffix(".gpkg") {
            let (fences, dropped) = try GeoPackageFeatures.zoneFences(
                path: path, idColumn: planning.zoneIdProperty, nameColumn: planning.zoneNameProperty,
                nameColumnIsOptional: planning.zoneNameProperty == PlanningParameters().zoneNameProperty)
            return try ZoneLayer(path: path, fences: fences, dropped: dropped)
        }
        let (fences, dropped) = try ZoneLayerReader.geoJSON(
            path: path, idProperty: planning.zoneIdProperty, nameProperty: planning.zoneNameProperty)
        return try ZoneLayer(path: path, fences: fences, dropped: dropped)
    }

    /// The classifier's confusion (`planning.confusion`, `--confusion`).
    static func confusion(_ planning: PlanningParameters) throws -> ConfusionCorrection? {
        guard let path = planning.confusion else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(.invalidConfusionMatrix, path: path, reason: "no such file (planning.confusion or --confusion)")
        }
        let (counts, source) = try ConfusionCountsReader.read(path: path)
        return ConfusionCorrection(
            counts: counts.map { .init(person: $0.person, truth: $0.truth, predicted: $0.predicted, count: $0.count) }, source: source)
    }

    /// What expansion weights are raked to (`planning.population`, `--population`), with the
    /// persons' categories (`planning.person_attributes`); nil without a population.
    static func population(_ planning: PlanningParameters) throws -> Population? {
        guard let path = planning.population else {
            if let attributes = planning.personAttributes {
                throw PipelineError(
                    .invalidPopulation, path: attributes,
                    reason: "person attributes are raked to a population's margins: give --population too")
            }
            return nil
        }
        guard planning.zones != nil else {
            throw PipelineError(.invalidPopulation, path: path, reason: "weights go by each person's home zone: give --zones too")
        }
        for file in [path] + [planning.personAttributes].compactMap({ $0 }) where !FileManager.default.fileExists(atPath: file) {
            throw PipelineError(.invalidPopulation, path: file, reason: "no such file (planning.population, person_attributes)")
        }
        let (zones, margins) = try PopulationReader.population(path: path)
        let attributes =
            try planning.personAttributes.map { try PopulationReader.personAttributes(path: $0, variables: Set(margins.keys)) } ?? [:]
        return Population(path: path, zones: zones, margins: margins, attributes: attributes)
    }

    /// A population to weight to, as read.
    struct Population: Sendable {
        var path: String
        var zones: [String: Double]
        var margins: [String: [String: Double]]
        var attributes: [String: [String: String]]
    }
}
