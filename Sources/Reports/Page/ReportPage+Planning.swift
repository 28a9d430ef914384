import Foundation
import MobilityCore
import Publication
import Store
import Trips

extension ReportPage {
    /// The planning tables (docs/planning.md): each mode's share of trips with its 95 % interval
    /// over persons and, with a confusion matrix, corrected for the classifier's confusion,
    /// over the whole day and per time band, as `mode_shares.csv` publishes them. Every number
    /// says its k and how it was made; then, with a zone layer, the busiest zone pairs per time
    /// band as `od_zones.csv` publishes them (the zone OD's line is in the OD section).
    func planning(_ published: ReportFacts.Published) throws -> String {
        let notWeighted = Self.notWeighted(populationGiven: published.populationGiven)
        let path = (folder as NSString).appendingPathComponent(OutputSchema.modeShares.file)
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        let table = try OutputSchema.modeShares.read(in: folder)
        let column = OutputSchema.modeShares.index
        func percent(_ row: [String?], _ name: String) -> String {
            row[column(name)].flatMap(Double.init).map { HTML.number(100 * $0, 1) } ?? "–"
        }
        func interval(_ row: [String?], _ low: String, _ high: String) -> String {
            row[column(low)] == nil ? "–" : percent(row, low) + "–" + percent(row, high)
        }
        let corrected = table.rows.contains { $0[column("corrected_share")] != nil }
        let weighted = table.rows.contains { $0[column("share_weighted")] != nil }
        let rows = table.rows.map { row in
            [
                row[column("time_band")] ?? "", row[column("travel_mode")] ?? "", row[column("trips")] ?? "",
                row[column("persons")] ?? "", percent(row, "trip_share") + "%",
                interval(row, "trip_share_low95", "trip_share_high95")
            ] + (corrected ? [percent(row, "corrected_share") + "%", interval(row, "corrected_low95", "corrected_high95")] : [])
                + (weighted ? [percent(row, "share_weighted") + "%", row[column("trips_weighted")] ?? ""] : [])
        }
        let source = table.rows.first.flatMap { $0[column("correction")] }
        let k = published.minimumPersons
        return "<section><h2>Planning tables</h2><p class=\"note\">Each main mode's share of trips, over the whole day and per time "
            + "band of the departure on each person's clock, with its 95 % interval from a bootstrap over persons "
            + "(\(ModeShareEstimate.defaultReplicates) replicates; mode_shares.csv). "
            + (source.map {
                "Corrected: the share most likely to have given the observed one through the classifier's confusion measured on "
                    + "\(HTML.escape($0)), with an interval that also draws that evaluation again. "
            } ?? "Not corrected for the classifier's confusion: give --confusion with `pipeline evaluate --json`'s output. ")
            + (weighted
                ? "Weighted: each person expanded to their home zone's residents and raked to the population's margins, "
                    + "trips per valid day (person_weights.csv), so weighted trips are the population's on an average day. "
                : notWeighted)
            + "Only the trips of valid person-days count. A row fewer than k = \(k) persons made (unweighted), and whatever would give it "
            + "away, is left out.</p>"
            + (published.modeSharesLine.map { "<p class=\"note\">\(HTML.escape($0)).</p>" } ?? "")
            + (weighted ? try implausibleWeights() : "")
            + HTML.table(
                ["time band", "mode", "trips", "persons", "share", "95 % interval"] + (corrected ? ["corrected", "95 % interval"] : [])
                    + (weighted ? ["weighted share", "weighted trips per day"] : []),
                rows, numeric: Set(2..<(6 + (corrected ? 2 : 0) + (weighted ? 2 : 0))))
            + (try zoneOD(minimumPersons: k)) + (try co2e(published)) + "</section>"
    }

    /// What a table says when it is not weighted: the option that weights it, or, when it was
    /// given, that nobody could be weighted (the log and `--json` say why).
    static func notWeighted(populationGiven: Bool) -> String {
        populationGiven
            ? "Not weighted: --population was given, but no person could be weighted to it (restricted/person_weights.csv and the log say why). "
            : "Not weighted to the population: give --population. "
    }

    /// The persons whose expansion weight passes a plausibility bound (`ExpansionWeights`,
    /// `restricted/person_weights.csv`): by name on the operator's page; on the published page,
    /// only that there are some, and the bounds.
    func implausibleWeights() throws -> String {
        let path = OutputLayout.path(OutputSchema.personWeights.file, in: folder)
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        let table = try CSVTable.read(path: path)
        guard let person = table.columns.firstIndex(of: "person"), let weight = table.columns.firstIndex(of: "weight"),
            let reason = table.columns.firstIndex(of: "implausible_weight")
        else { return "" }
        let found = table.rows.filter { $0[reason] != nil }
        guard !found.isEmpty else { return "" }
        let bounds =
            "over \(Int(ExpansionWeights.medianMultiple)) times the median weight, or alone over "
            + "\(Int(100 * ExpansionWeights.populationShare)) % of the residents the panel represents"
        guard isRestricted else {
            return "<p class=\"warning\">Some persons' weights are implausible (\(bounds)): the weighted columns lean on few "
                + "persons, and a weighted value they make most of is left out. The operator's page names them.</p>"
        }
        return
            "<p class=\"warning\">\(found.count) of the weighted persons \(found.count == 1 ? "has" : "have") an implausible weight (\(bounds)); the weights "
            + "are kept as raked, and a weighted value such a person makes most of is left out (dominance rule).</p>"
            + HTML.table(
                ["person", "weight", "why implausible"], found.map { [$0[person] ?? "", $0[weight] ?? "", $0[reason] ?? ""] }, numeric: [1])
    }

    /// CO2e per main mode (every person) and per home zone, as `co2e.csv` publishes them, and
    /// the factors they come from, each with its source.
    func co2e(_ published: ReportFacts.Published) throws -> String {
        let notWeighted = Self.notWeighted(populationGiven: published.populationGiven)
        guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(OutputSchema.co2e.file)) else {
            return ""
        }
        let table = try OutputSchema.co2e.read(in: folder)
        let column = OutputSchema.co2e.index
        let weighted = table.rows.contains { $0[column("co2e_kg_weighted")] != nil }
        let energy = table.rows.contains { $0[column("energy_mj")] != nil }
        func row(_ row: [String?], first: String) -> [String] {
            [
                first, row[column("trips")] ?? "", row[column("persons")] ?? "",
                HTML.number((row[column("distance_m")].flatMap(Double.init) ?? 0) / 1000, 1), row[column("co2e_kg")] ?? "",
                row[column("co2e_g_per_person_day")] ?? "–", row[column("trips_without_factor")] ?? ""
            ] + (weighted ? [row[column("co2e_kg_weighted")] ?? ""] : [])
                + (energy
                    ? [
                        row[column("energy_mj")] ?? "–", row[column("energy_mj_per_person_day")] ?? "–",
                        row[column("trips_without_energy")] ?? ""
                    ]
                        + (weighted ? [row[column("energy_mj_weighted")] ?? "–"] : []) : [])
        }
        let header =
            ["trips", "persons", "km", "kg CO2e", "g CO2e per person-day", "trips without a factor"]
            + (weighted ? ["kg CO2e per average day (weighted)"] : [])
            + (energy ? ["MJ", "MJ per person-day", "trips without energy"] + (weighted ? ["MJ per average day (weighted)"] : []) : [])
        let modes = table.rows.filter { $0[column("home_zone_id")] == CO2eTable.all }.map {
            row($0, first: $0[column("travel_mode")] ?? "")
        }
        let zones = table.rows.filter { $0[column("home_zone_id")] != CO2eTable.all && $0[column("travel_mode")] == CO2eTable.all }
            .map { row($0, first: $0[column("home_zone_name")] ?? "") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let factors = published.co2eFactors.flatMap { try? decoder.decode(EmissionFactors.self, from: Data($0.utf8)) }
        var html =
            "<h3>\(energy ? "CO2e and energy" : "CO2e")</h3><p class=\"note\">CO2e of the trips of valid person-days by main mode (a trip's CO2e is its legs' and counts "
            + "to its main mode), from the factors below; a trip with a leg known only as a vehicle, or of no mode, has none: no "
            + "factor is guessed for it. Per person-day divides by the valid person-days of every person counted. "
            + (weighted ? "Weighted: expanded to the population's average day (person_weights.csv). " : notWeighted)
            + "A row fewer than k = \(published.minimumPersons) persons made, and whatever would give it away, is left out (co2e.csv). "
            + (energy
                ? "Energy is final energy in operation (the fuel or electricity used), from the factors' megajoules_per_km.</p>"
                : "No energy is shown: the factors give no megajoules_per_km (docs/planning.md).</p>")
            + (published.co2eLine.map { "<p class=\"note\">\(HTML.escape($0)).</p>" } ?? "")
            + HTML.table(["mode"] + header, modes, numeric: Set(1...header.count))
        if !zones.isEmpty {
            html +=
                "<p class=\"note\">Per home zone (the zone each person's home lies in), every mode.</p>"
                + HTML.table(["home zone"] + header, zones, numeric: Set(1...header.count))
        }
        if let factors {
            html +=
                "<p class=\"note\">Factors for \(HTML.escape(factors.spansCountries ? factors.countries.joined(separator: ", ") : factors.country)) \(factors.year): \(HTML.escape(factors.source)) "
                + "(planning.emission_factors). A mode with no factor here has no CO2e"
                + (factors.givesEnergy ? ", and one without MJ no energy." : ".")
                + (factors.spansYears
                    ? " A leg takes its mode's factor of the local year it started in, else of the latest year before it, else of the earliest after it."
                    : "")
                + (factors.spansCountries
                    ? " A leg takes the factors of the country its first fix lies in (planning.countries; triplegs.csv start_country), "
                        + "else \(HTML.escape(factors.country))'s; one in a country not listed here has no CO2e."
                    : "") + "</p>"
                + Self.factorTable(factors)
        }
        return html
    }

    /// The factors, a row each: per passenger-km, as given, and the source.
    static func factorTable(_ factors: EmissionFactors) -> String {
        let header =
            ["mode"] + (factors.spansCountries ? ["country"] : []) + (factors.spansYears ? ["year"] : []) + ["g CO2e per passenger-km"]
            + (factors.givesEnergy ? ["MJ per passenger-km"] : []) + ["as given", "source"]
        let rows = factors.factors.map { factor -> [String] in
            let given = HTML.number(factor.gramsPerKm, 2) + (factor.megajoulesPerKm.map { " g and " + HTML.number($0, 3) + " MJ" } ?? " g")
            let basis = factor.per == .vehicle ? " per vehicle-km ÷ " + HTML.number(factor.occupancy, 2) + " persons" : " per passenger-km"
            var row = [factor.mode.rawValue]
            if factors.spansCountries { row.append(factors.country(of: factor)) }
            if factors.spansYears { row.append(String(factors.year(of: factor))) }
            row.append(HTML.number(factor.gramsPerPassengerKm, 2))
            if factors.givesEnergy { row.append(factor.megajoulesPerPassengerKm.map { HTML.number($0, 3) } ?? "–") }
            return row + [given + basis, factor.source]
        }
        let first = factors.spansCountries ? 2 : 1
        return HTML.table(header, rows, numeric: Set(first...(first + (factors.spansYears ? 1 : 0) + (factors.givesEnergy ? 1 : 0))))
    }

    /// The whole day's published zone pairs as desire lines between zone centres (weighted trips
    /// per day where there are weights, else trips).
    static func desireLineMap(_ table: CSVTable, column: (String) -> Int, weighted: Bool) -> String {
        var places: [(name: String, longitude: Double, latitude: Double)] = [], index: [String: Int] = [:]
        var pairs: [(origin: Int, destination: Int, trips: Double)] = []
        func place(_ row: [String?], _ end: String) -> Int? {
            guard let id = row[column(end + "_zone_id")], let lat = row[column(end + "_center_lat_deg")].flatMap(Double.init),
                let lon = row[column(end + "_center_lon_deg")].flatMap(Double.init)
            else { return nil }
            if let known = index[id] { return known }
            index[id] = places.count
            places.append((row[column(end + "_zone_name")] ?? id, lon, lat))
            return places.count - 1
        }
        for row in table.rows where row[column("time_band")] == TimeBands.allDay {
            guard let o = place(row, "origin"), let d = place(row, "destination"),
                let trips = row[column(weighted ? "trips_weighted" : "trips")].flatMap(Double.init)
            else { continue }
            pairs.append((o, d, trips))
        }
        return SVGChart.desireLines(
            places: places, pairs: pairs,
            title: "Zone pairs over the whole day (line width and circle area: \(weighted ? "weighted trips per day" : "trips"))",
            unit: weighted ? "weighted trips per day" : "trips")
    }

    /// The zone OD's busiest pairs per time band, as `od_zones.csv` publishes them.
    func zoneOD(minimumPersons k: Int) throws -> String {
        guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(OutputSchema.odZones.file)) else {
            return ""
        }
        let table = try OutputSchema.odZones.read(in: folder)
        let column = OutputSchema.odZones.index
        let weighted = table.rows.contains { $0[column("trips_weighted")] != nil }
        var html =
            "<p class=\"note\">Trips between the zones of the planner's layer, by the time band of their departure: the 10 busiest "
            + "pairs of each band as od_zones.csv publishes them, each made by at least k = \(k) persons (unweighted), "
            + "no band row left to subtraction from its pair's whole day"
            + (weighted ? "; weighted trips expand the panel to the population's average day." : ".") + "</p>"
        var bands: [String] = []
        for row in table.rows where !bands.contains(row[column("time_band")] ?? "") { bands.append(row[column("time_band")] ?? "") }
        html += Self.desireLineMap(table, column: column, weighted: weighted)
        for band in bands {
            let rows = table.rows.filter { $0[column("time_band")] == band }.prefix(10).map { row in
                [
                    row[column("origin_zone_name")] ?? "", row[column("destination_zone_name")] ?? "", row[column("trips")] ?? "",
                    row[column("persons")] ?? "", HTML.duration(row[column("median_duration_s")].flatMap(Double.init) ?? 0),
                    HTML.number((row[column("median_distance_m")].flatMap(Double.init) ?? 0) / 1000, 1)
                ] + (weighted ? [row[column("trips_weighted")] ?? ""] : [])
            }
            html +=
                "<h3>\(HTML.escape(band))</h3>"
                + HTML.table(
                    ["origin zone", "destination zone", "trips", "persons", "median duration", "median km"]
                        + (weighted ? ["weighted trips per day"] : []), Array(rows), numeric: Set(2..<(weighted ? 7 : 6)))
        }
        return html
    }
}
