import ArgumentParser
import PipelineRunner
import Trips

/// The planning tables' zone layer and time bands: each overrides its key in `--config`.
struct PlanningOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A polygon layer of zones (GeoJSON, or a GeoPackage's first feature table, in EPSG:4326) to count trips between: od_zones.csv and the GeoPackage's od_zones layer, whole day and per time band, k persons per row (overrides planning.zones).",
            discussion: "Default: none (no zone OD). docs/planning.md says how trips are placed and rows suppressed.",
            valueName: "file"))
    var zones: String?

    @Option(
        name: .customLong("zone-id"),
        help: ArgumentHelp(
            "The property (GeoJSON) or column (GeoPackage) of --zones holding each zone's id (overrides planning.zone_id_property; default \(PlanningParameters().zoneIdProperty)).",
            valueName: "name"))
    var zoneId: String?

    @Option(
        name: .customLong("zone-name"),
        help: ArgumentHelp(
            "The property or column of --zones holding each zone's name; the id where missing (overrides planning.zone_name_property; default \(PlanningParameters().zoneNameProperty)).",
            valueName: "name"))
    var zoneName: String?

    @Option(
        help: ArgumentHelp(
            "The classifier's confusion measured on held-out people, to correct mode_shares.csv by: `pipeline evaluate --json`'s output, or a CSV true_mode,predicted_mode,count[,person] (overrides planning.confusion).",
            discussion: "Default: none (shares with their intervals, not corrected). docs/planning.md says how.",
            valueName: "file"))
    var confusion: String?

    @Option(
        help: ArgumentHelp(
            "Residents per zone of --zones, a CSV zone_id,population with optional variable:category margin columns (age_band:30-44): each person gets an expansion weight (home zone, valid person-days, raked to the margins) and od_zones.csv and mode_shares.csv gain weighted columns (overrides planning.population).",
            discussion: "Default: none (no weights). k keeps counting persons, unweighted. docs/planning.md says how.",
            valueName: "file"))
    var population: String?

    @Option(
        name: .customLong("person-attributes"),
        help: ArgumentHelp(
            "Each person's category of each margin variable of --population: a CSV person,<variable>…, or the inputs' manifest.csv carrying them (path,device,person,<variable>…) (overrides planning.person_attributes). Default: the categories the inputs' manifests carry, if any (else weights to the zones only).",
            valueName: "file"))
    var personAttributes: String?

    @Option(
        help: ArgumentHelp(
            "What people say of their day, a CSV device|person,start,end and travel_mode or purpose: a leg more than half under a row takes its mode (mode_source correction), a stay its purpose, before trips and every table are made (overrides planning.corrections).",
            discussion:
                "Default: none. Corrections live in their file: they hold on every run, with --force, a moved input or another model.",
            valueName: "file"))
    var corrections: String?

    @Option(
        help: ArgumentHelp(
            "A polygon layer of countries (GeoJSON, or a GeoPackage's first feature table, in EPSG:4326) with each one's ISO 3166-1 alpha-2 code: a leg's co2e_g and energy_mj use the emission factors of the country its first fix lies in (triplegs.csv start_country) (overrides planning.countries).",
            discussion:
                "Default: none (every leg takes planning.emission_factors' own country). A leg outside every country takes the table's; one in a country the table has no rows for has no CO2e, counted and said.",
            valueName: "file"))
    var countries: String?

    @Option(
        name: .customLong("country-property"),
        help: ArgumentHelp(
            "The property (GeoJSON) or column (GeoPackage) of --countries holding each country's ISO 3166-1 alpha-2 code (overrides planning.country_property; default \(PlanningParameters().countryProperty); Natural Earth's Admin 0 layer: ISO_A2_EH).",
            valueName: "name"))
    var countryProperty: String?

    @Option(
        name: .customLong("time-band"),
        help: ArgumentHelp(
            "A band of the local day as `name HH:MM-HH:MM` (repeat for each; replaces planning.time_bands; default \(TimeBands.defaultSpecifications.map { "\"\($0)\"" }.joined(separator: " "))); the rest of the day is planning.other_time_band (\(TimeBands.defaultOther)).",
            valueName: "band"))
    var timeBand: [String] = []

    /// The configuration's own check (`PlanningParameters.problem`) on what these options set.
    func validate() throws {
        var configuration = PipelineConfiguration()
        apply(to: &configuration)
        if let problem = configuration.planning.problem {
            throw ValidationError("planning.\(problem) (as the planning options set it)")
        }
    }

    func apply(to configuration: inout PipelineConfiguration) {
        if let zones { configuration.planning.zones = zones }
        if let zoneId { configuration.planning.zoneIdProperty = zoneId }
        if let zoneName { configuration.planning.zoneNameProperty = zoneName }
        if !timeBand.isEmpty { configuration.planning.timeBands = timeBand }
        if let confusion { configuration.planning.confusion = confusion }
        if let population { configuration.planning.population = population }
        if let personAttributes { configuration.planning.personAttributes = personAttributes }
        if let corrections { configuration.planning.corrections = corrections }
        if let countries { configuration.planning.countries = countries }
        if let countryProperty { configuration.planning.countryProperty = countryProperty }
    }
}
