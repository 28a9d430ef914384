import MobilityCore

/// The settings of the planning tables (`planning:` in a configuration file; docs/planning.md).
public struct PlanningParameters: Hashable, Sendable, Codable {
    /// The time bands every OD and modal-split table is cut by, each `name HH:MM-HH:MM` on the
    /// local clock (`TimeBands`). Default: `am_peak 07:00-10:00`, `pm_peak 16:00-19:00`.
    public var timeBands = TimeBands.defaultSpecifications
    /// The name of the time in no band. Default `off_peak`.
    public var otherTimeBand = TimeBands.defaultOther
    /// A polygon layer of zones (GeoJSON, or a GeoPackage's first feature table) for
    /// `od_zones.csv`; a relative path is taken from where the run starts. Null: no zone OD.
    public var zones: String?
    /// The feature property (GeoJSON) or column (GeoPackage) holding a zone's id. Default `id`.
    public var zoneIdProperty = "id"
    /// The one holding a zone's name (the id where it is missing). Default `name`.
    public var zoneNameProperty = "name"
    /// The classifier's confusion measured on held-out people, for `mode_shares.csv`'s corrected
    /// shares: `pipeline evaluate --json`'s output, or a CSV `true_mode,predicted_mode,count`
    /// with an optional `person` column. Null: shares are not corrected.
    public var confusion: String?
    /// Residents per zone of `zones` (`zone_id,population`, optional `variable:category`
    /// margin columns) to weight the panel to (`ExpansionWeights`). Null: no weights.
    public var population: String?
    /// Each person's category of each margin variable (`person,<variable>…`), for raking to the
    /// population's `variable:category` margins. Null: the categories the inputs' manifests
    /// carry (a column per variable), if any; else zones only.
    public var personAttributes: String?
    /// What people say of their day (`device|person,start,end`, and `travel_mode` or `purpose`),
    /// applied over every inferred mode and purpose (`LegCorrections`, `PlacePurposes.correct`).
    /// Null: none.
    public var corrections: String?
    /// CO2e per passenger-km of each mode, with the country, year and source they are for
    /// (`EmissionFactors`). Default: the UK's DESNZ 2025 factors.
    public var emissionFactors = EmissionFactors.ukDESNZ2025
    /// A polygon layer of countries (GeoJSON, or a GeoPackage's first feature table) whose
    /// `country_property` holds each one's ISO 3166-1 alpha-2 code: a leg takes the emission
    /// factors of the country its first fix lies in (`LegCountries`). Null: every leg takes the
    /// table's country.
    public var countries: String?
    /// The feature property (GeoJSON) or column (GeoPackage) of `countries` holding the code.
    /// Default `iso_a2` (Natural Earth's Admin 0 layer has `ISO_A2_EH`).
    public var countryProperty = "iso_a2"

    public init() {}

    /// The bands these settings name; `problem` says first whether they can be read.
    public var bands: TimeBands { (try? TimeBands(specifications: timeBands, other: otherTimeBand)) ?? TimeBands() }

    /// Why the settings cannot be used, or nil.
    public var problem: String? {
        do { _ = try TimeBands(specifications: timeBands, other: otherTimeBand) } catch let error as PipelineError {
            return "time_bands: \(error.description)"
        } catch { return "time_bands: \(error)" }
        if zoneIdProperty.isEmpty || zoneNameProperty.isEmpty { return "zone_id_property and zone_name_property must not be empty" }
        if countryProperty.isEmpty { return "country_property must not be empty" }
        if let problem = emissionFactors.problem { return "emission_factors: \(problem)" }
        let standard = EmissionFactors.ukDESNZ2025
        if emissionFactors.factors != standard.factors, emissionFactors.source == standard.source {
            return "emission_factors: factors other than the default need their own source (and country and year)"
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case timeBands, otherTimeBand, zones, zoneIdProperty, zoneNameProperty, confusion, population, personAttributes, corrections
        case emissionFactors, countries, countryProperty
    }

    /// A key a stored configuration of an earlier version lacks takes its default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timeBands = try container.decodeIfPresent([String].self, forKey: .timeBands) ?? timeBands
        otherTimeBand = try container.decodeIfPresent(String.self, forKey: .otherTimeBand) ?? otherTimeBand
        zones = try container.decodeIfPresent(String.self, forKey: .zones)
        zoneIdProperty = try container.decodeIfPresent(String.self, forKey: .zoneIdProperty) ?? zoneIdProperty
        zoneNameProperty = try container.decodeIfPresent(String.self, forKey: .zoneNameProperty) ?? zoneNameProperty
        confusion = try container.decodeIfPresent(String.self, forKey: .confusion)
        population = try container.decodeIfPresent(String.self, forKey: .population)
        personAttributes = try container.decodeIfPresent(String.self, forKey: .personAttributes)
        corrections = try container.decodeIfPresent(String.self, forKey: .corrections)
        emissionFactors = try container.decodeIfPresent(EmissionFactors.self, forKey: .emissionFactors) ?? emissionFactors
        countries = try container.decodeIfPresent(String.self, forKey: .countries)
        countryProperty = try container.decodeIfPresent(String.self, forKey: .countryProperty) ?? countryProperty
    }

    /// Every key written, the files as null when unset, so the printed configuration shows it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeBands, forKey: .timeBands)
        try container.encode(otherTimeBand, forKey: .otherTimeBand)
        try container.encode(zones, forKey: .zones)
        try container.encode(zoneIdProperty, forKey: .zoneIdProperty)
        try container.encode(zoneNameProperty, forKey: .zoneNameProperty)
        try container.encode(confusion, forKey: .confusion)
        try container.encode(population, forKey: .population)
        try container.encode(personAttributes, forKey: .personAttributes)
        try container.encode(corrections, forKey: .corrections)
        try container.encode(emissionFactors, forKey: .emissionFactors)
        try container.encode(countries, forKey: .countries)
        try container.encode(countryProperty, forKey: .countryProperty)
    }
}
