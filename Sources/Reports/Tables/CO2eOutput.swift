import Foundation
import MobilityCore
import Publication
import Trips

/// `co2e.csv` (CO2e per home zone and main mode, `CO2eTable`) and `restricted/person_co2e.csv`
/// (per person and week), from the trips of valid person-days (`PlanningSample`) and their
/// `co2e_g`, so a single run and `pipeline publish` after a Spark merge write the same bytes.
public struct CO2eOutput {
    public static let fileName = OutputSchema.co2e.file
    public static let personFileName = OutputSchema.personCO2e.file

    public struct Summary: Sendable, Codable {
        /// The factors' country, year and source, and each mode's grams per passenger-km.
        public var factors = ""
        public var rows = 0, suppressedPrimary = 0, suppressedComplementary = 0, minimumPersons = 0
        /// The trips left out with the whole panel's mode rows under k, and with those beside them.
        public var suppressedTrips = 0, complementaryTrips = 0
        /// Published rows whose weighted CO2e or energy the dominance rule left out, and beside them.
        public var dominatedWeights = 0, complementaryWeights = 0
        /// Published rows whose unweighted distance, CO2e or energy the dominance rule left out, and beside them.
        public var dominatedMagnitudes = 0, complementaryMagnitudes = 0
        /// The CO2e of the trips counted, kilograms, and the trips without one (a `vehicle` or
        /// unknown leg with distance).
        public var co2eKg = 0.0, trips = 0, tripsWithoutFactor = 0
        /// The same expanded to the population's average day; null without weights.
        @NullEncodable public var co2eKgWeighted: Double?
        /// The final energy of the trips that have one, megajoules (null where the factors give
        /// no energy), and the trips without one.
        @NullEncodable public var energyMJ: Double?
        public var tripsWithoutEnergy = 0
        /// The same expanded to the population's average day; null without weights or energy.
        @NullEncodable public var energyMJWeighted: Double?
        /// Legs by the country whose factors they took (`triplegs.csv` `start_country`).
        @NullEncodable public var countries: LegCountries.Tally?
        /// Trip counts under k left out whose feasible interval no complement widened to ±k.
        public var narrowCounts = 0
        /// Every home zone's row left out: protecting them would have taken the whole panel's.
        public var zoneRowsLeftOut = false
        /// Per published table (`modal_split.csv`, `mode_shares.csv`), the margins (`all_day`, the
        /// bands) the rows were audited against its rows in; empty when audited alone.
        public var linkedTables: [String: [String]] = [:]
        enum CodingKeys: String, CodingKey {
            case factors, rows, suppressedPrimary = "suppressed_primary", suppressedComplementary = "suppressed_complementary"
            case suppressedTrips = "suppressed_trips", complementaryTrips = "complementary_trips"
            case minimumPersons = "k", co2eKg = "co2e_kg", trips, tripsWithoutFactor = "trips_without_factor"
            case co2eKgWeighted = "co2e_kg_weighted", energyMJ = "energy_mj", tripsWithoutEnergy = "trips_without_energy"
            case energyMJWeighted = "energy_mj_weighted", countries
            case dominatedWeights = "dominated_weights", complementaryWeights = "complementary_weights"
            case dominatedMagnitudes = "dominated_magnitudes", complementaryMagnitudes = "complementary_magnitudes"
            case narrowCounts = "narrow_counts", linkedTables = "linked_tables", zoneRowsLeftOut = "zone_rows_left_out"
        }
    }

    /// Writes both files into `outputFolder` (the per-person one to its `restricted/`). With a
    /// `layer`, rows per home zone (the zone each person's home lies in); with `weights`, the
    /// weighted CO2e. `countries` tallies the legs by the country whose factors they took.
    @discardableResult
    public static func write(
        _ sample: PlanningSample, factors: EmissionFactors, layer: ZoneLayer?, weights: ExpansionWeights?, minimumPersons: Int,
        outputFolder: String, countries: LegCountries.Tally? = nil, margins: [SplitMargins] = []
    ) throws -> Summary {
        let trips = sample.trips.map { $0.weighted(by: weights) }
        let homeZones = layer.map { layer in
            sample.homes.compactMapValues { home in
                layer.zone(latitudeDegrees: home.latitude, longitudeDegrees: home.longitude).map { layer.zones[$0].id }
            }
        }
        let table = CO2eTable(
            trips, validDays: sample.validDays, homeZones: homeZones, zeroModes: CO2eTable.zeroModes(of: trips, factors: factors),
            zeroEnergyModes: factors.givesEnergy ? CO2eTable.zeroEnergyModes(of: trips, factors: factors) : nil,
            minimumPersons: minimumPersons, margins: margins)
        let names = Dictionary(layer?.zones.map { ($0.id, $0.name) } ?? [], uniquingKeysWith: { first, _ in first })
        var csv = CSVWriter(columns: OutputSchema.co2e.names)
        for row in table.rows {
            csv.append([
                row.zone, names[row.zone] ?? row.zone, row.mode, String(row.persons), String(row.trips),
                row.distanceMeters.map { String(format: "%.1f", $0) }, row.co2eGrams.map { String(format: "%.3f", $0 / 1000) },
                String(row.tripsWithoutFactor), String(row.personDays),
                row.personDays > 0 ? row.co2eGrams.map { String(format: "%.1f", $0 / Double(row.personDays)) } : nil,
                row.weightedGrams.map { String(format: "%.3f", $0 / 1000) },
                row.energyMegajoules.map { String(format: "%.3f", $0) }, String(row.tripsWithoutEnergy),
                row.personDays > 0 ? row.energyMegajoules.map { String(format: "%.3f", $0 / Double(row.personDays)) } : nil,
                row.weightedMegajoules.map { String(format: "%.3f", $0) }
            ])
        }
        try csv.write(to: OutputLayout.path(fileName, in: outputFolder))
        try personCSV(sample).write(to: OutputLayout.path(personFileName, in: outputFolder))
        let known = trips.compactMap(\.co2eGrams), energy = trips.compactMap(\.energyMegajoules)
        let everyone = table.rows.first { $0.zone == CO2eTable.all && $0.mode == CO2eTable.all }
        let weighted = (grams: everyone?.weightedGrams.map { $0 / 1000 }, megajoules: energy.isEmpty ? nil : everyone?.weightedMegajoules)
        var summary = Summary(
            factors: factors.text, rows: table.rows.count, suppressedPrimary: table.suppressedPrimary,
            suppressedComplementary: table.suppressedComplementary, minimumPersons: minimumPersons, co2eKg: known.reduce(0, +) / 1000,
            trips: trips.count, tripsWithoutFactor: trips.count - known.count,
            // The weighted totals are the table's `all` row, as it publishes them: none where the dominance rule left them out.
            co2eKgWeighted: weighted.grams, energyMJ: energy.isEmpty ? nil : energy.reduce(0, +),
            tripsWithoutEnergy: trips.count - energy.count, energyMJWeighted: weighted.megajoules, countries: countries)
        (summary.dominatedWeights, summary.complementaryWeights) = (table.dominatedWeights, table.complementaryWeights)
        (summary.suppressedTrips, summary.complementaryTrips) = (table.suppressedTrips, table.complementaryTrips)
        (summary.dominatedMagnitudes, summary.complementaryMagnitudes) = (table.dominatedMagnitudes, table.complementaryMagnitudes)
        (summary.narrowCounts, summary.linkedTables, summary.zoneRowsLeftOut) = (
            table.narrowCounts, table.auditedMargins, table.zoneRowsLeftOut
        )
        return summary
    }

    /// The legs of `restricted/triplegs.csv` in `tablesFolder` by the country they started in
    /// (`start_country`, which `countries` gave them), under `factors`.
    public static func countryTally(tablesFolder: String, countries: LegCountries, factors: EmissionFactors) throws
        -> LegCountries.Tally
    {
        let legs = try OutputSchema.triplegs.read(in: tablesFolder)
        let column = OutputSchema.triplegs.index("start_country")
        return countries.tally(legs.rows.map { $0[column].flatMap { $0.isEmpty ? nil : $0 } }, factors: factors)
    }

    /// A row per person with valid person-days or trips, by name.
    static func personCSV(_ sample: PlanningSample) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.personCO2e.names)
        for row in CO2eTable.persons(sample.trips, validDays: sample.validDays) {
            csv.append([
                row.person, String(row.validDays), String(row.trips), String(format: "%.1f", row.distanceMeters),
                String(format: "%.3f", row.co2eGrams / 1000), String(row.tripsWithoutFactor),
                row.weeklyGrams.map { String(format: "%.3f", $0 / 1000) },
                row.energyMegajoules.map { String(format: "%.3f", $0) }, String(row.tripsWithoutEnergy),
                row.weeklyMegajoules.map { String(format: "%.3f", $0) }
            ])
        }
        return csv
    }

    public static func text(_ s: Summary) -> String {
        String(format: "CO2e: %.1f kg from %d trips", s.co2eKg, s.trips - s.tripsWithoutFactor)
            + (s.tripsWithoutFactor > 0
                ? "; \(s.tripsWithoutFactor) trip\(s.tripsWithoutFactor == 1 ? " has" : "s have") none (a vehicle or unknown leg"
                    + (s.countries?.withoutFactors.isEmpty == false ? ", or a leg in a country the factors do not list" : "")
                    + ": no factor is guessed for them)"
                : "")
            + (s.co2eKgWeighted.map { String(format: "; %.1f kg on the population's average day (weighted)", $0) } ?? "")
            + (s.energyMJ.map { energy in
                String(format: "; energy: %.1f MJ from %d trips", energy, s.trips - s.tripsWithoutEnergy)
                    + (s.tripsWithoutEnergy > 0 ? " (\(s.tripsWithoutEnergy) without an energy factor)" : "")
                    + (s.energyMJWeighted.map { String(format: ", %.1f MJ on the population's average day (weighted)", $0) } ?? "")
            } ?? "; no energy counted (the factors give no megajoules_per_km)")
            + "; \(s.rows) rows of co2e.csv published, \(s.suppressedPrimary) made by fewer than k = \(s.minimumPersons) persons left out and \(s.suppressedComplementary) more so that those cannot be worked out by subtraction"
            + " (trips left out by mode: \(s.suppressedTrips) under k, \(s.complementaryTrips) beside them)"
            + (s.zoneRowsLeftOut ? "; no home zone's row published (they could not be protected without the whole panel's rows)" : "")
            + (s.dominatedMagnitudes + s.complementaryMagnitudes > 0
                ? "; distance, CO2e or energy left out of \(s.dominatedMagnitudes) rows two persons make 85 % of, and of "
                    + "\(s.complementaryMagnitudes) beside them (the rows' trips and persons stand)" : "")
            + (s.dominatedWeights + s.complementaryWeights > 0
                ? "; weighted CO2e or energy left out of \(s.dominatedWeights) rows two persons dominate (or fewer than k weighted persons "
                    + "made; the total when it is one of them), and of \(s.complementaryWeights) beside them" : "")
            + PublishedCounts.narrowText(s.narrowCounts) + PublishedCounts.linkedText(s.linkedTables)
            + (s.countries?.publishedLine.map { "; " + $0 } ?? "")
    }
}
