import Foundation
import MobilityCore
import Reports
import TestSupport
import Testing

/// CO2e end to end (`planning.emission_factors`, `co2e_g` on legs and trips, `co2e.csv`,
/// `person_co2e.csv`, the report): a simulated city run with a factor table of its own, every
/// number checked against the legs' distances and modes it comes from. The table is for 2025
/// with rows of 2024 for the car and the bus: the simulated city's legs (2024) take their 2024
/// factors, and the 2025 factor of every other mode (the earliest year after theirs). The road
/// vehicles and the modes on foot also give final energy (`megajoules_per_km`); the train gives none, so its legs
/// have CO2e but no `energy_mj`.
@Suite(.serialized) struct CO2eTests {
    let cli = PipelineCLI()

    static let configuration = """
        privacy:
          k: 1
        planning:
          emission_factors:
            country: FR
            year: 2025
            source: "A test city's own table"
            factors:
              - {mode: walk, grams_per_km: 0, megajoules_per_km: 0, per: passenger, source: "none in operation"}
              - {mode: bike, grams_per_km: 0, megajoules_per_km: 0, per: passenger, source: "none in operation"}
              - {mode: car, grams_per_km: 400, megajoules_per_km: 4.8, per: vehicle, occupancy: 1.6, source: "test car of 2025"}
              - {mode: car, grams_per_km: 200, megajoules_per_km: 3.2, per: vehicle, occupancy: 1.6, source: "test car", year: 2024}
              - {mode: bus, grams_per_km: 900, megajoules_per_km: 14, per: vehicle, occupancy: 20, source: "test bus of 2025"}
              - {mode: bus, grams_per_km: 800, megajoules_per_km: 12, per: vehicle, occupancy: 20, source: "test bus", year: 2024}
              - {mode: train, grams_per_km: 5, per: passenger, source: "test rail"}

        """

    /// A folder with the simulated city of 8 devices over 2 days in `city/`, GPS only.
    func simulatedCity() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "8", "--days", "2", "--seed", "23", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        return folder
    }

    @Test func legsTripsZonesAndPersonsAddUpFromTheConfiguredFactors() throws {
        let folder = try simulatedCity()
        try folder.write("factors.yaml", Self.configuration)
        try folder.write("zones.geojson", PopulationWeightsTests.zones)
        let run = try cli.pipeline(
            ["run", "city", "--out", "out", "--config", "factors.yaml", "--allow-identifying-k", "--zones", "zones.geojson", "--json"],
            in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")

        // Each leg: its distance times its mode's grams per passenger-km; no factor, no CO2e.
        let perKm: [String: Double] = ["walk": 0, "bike": 0, "car": 200 / 1.6, "bus": 800.0 / 20, "train": 5]
        // And its final energy: the car's 2024 row, 3.2 MJ per vehicle-km shared by 1.6 persons.
        let megajoulesPerKm: [String: Double] = ["walk": 0, "bike": 0, "car": 3.2 / 1.6, "bus": 12.0 / 20]
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let l = { (name: String) in legs.columns.firstIndex(of: name)! }
        var legGrams: [String: (sum: Double, missing: Bool)] = [:], legsWithout = 0
        var legEnergy: [String: (sum: Double, missing: Bool)] = [:]
        for row in legs.rows {
            let distance = Double(row[l("distance_m")]!)!
            let grams = row[l("co2e_g")].flatMap(Double.init)
            let energy = row[l("energy_mj")].flatMap(Double.init)
            if let factor = megajoulesPerKm[row[l("travel_mode")]!] {
                #expect(abs(try #require(energy) - factor * distance / 1000) <= 0.0005 + 1e-9, "\(row)")
            } else if distance > 0 {
                #expect(energy == nil, "a train leg, a vehicle leg or one of no mode: no energy factor, \(row)")
            }
            if let trip = row[l("trip_id")] {
                let sofar = legEnergy[trip] ?? (0, false)
                legEnergy[trip] = (sofar.sum + (energy ?? 0), sofar.missing || (energy == nil && distance > 0))
            }
            if let factor = perKm[row[l("travel_mode")]!] {
                #expect(abs(try #require(grams) - factor * distance / 1000) <= 0.05 + 1e-9, "\(row)")
            } else if distance > 0 {
                #expect(grams == nil, "\(row)")
                legsWithout += 1
            }
            if let trip = row[l("trip_id")] {
                let sofar = legGrams[trip] ?? (0, false)
                legGrams[trip] = (sofar.sum + (grams ?? 0), sofar.missing || (grams == nil && distance > 0))
            }
        }
        #expect(legs.rows.contains { ["car", "bus", "train"].contains($0[l("travel_mode")]!) && Double($0[l("co2e_g")] ?? "0")! > 0 })
        // A road vehicle's legs (the GPS leg model types the simulated drives car or bus) give energy.
        #expect(legs.rows.contains { ["car", "bus"].contains($0[l("travel_mode")]!) && Double($0[l("energy_mj")] ?? "0")! > 0 })
        #expect(legs.rows.contains { $0[l("travel_mode")] == "train" && $0[l("energy_mj")] == nil && $0[l("co2e_g")] != nil })
        print("legs without a factor (bus, vehicle or no mode, with distance): \(legsWithout) of \(legs.rows.count)")

        // Each trip: the sum of its legs'; none where a leg has none.
        let trips = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        let t = { (name: String) in trips.columns.firstIndex(of: name)! }
        var tripTotal = 0.0, tripEnergy = 0.0
        /// The trip's `column`: its legs' sum (each rounded to `rounding`), none where a leg has none.
        func sumOfLegs(_ row: [String?], _ column: String, _ legs: [String: (sum: Double, missing: Bool)], rounding: Double) throws
            -> Double
        {
            let value = row[t(column)].flatMap(Double.init)
            let sum = try #require(legs[row[t("trip_id")]!])
            #expect((value == nil) == sum.missing, "\(column): \(row)")
            guard let value else { return 0 }
            #expect(abs(value - sum.sum) <= rounding * Double(Int(row[t("legs")]!)!) + 1e-9, "\(column): \(row)")
            return value
        }
        for row in trips.rows {
            tripEnergy += try sumOfLegs(row, "energy_mj", legEnergy, rounding: 0.0005)
            tripTotal += try sumOfLegs(row, "co2e_g", legGrams, rounding: 0.05)
        }

        // co2e.csv (k = 1, so every row is published): `all` is every trip counted; zones and
        // modes add up to it, and per person-day divides by the zone's valid person-days.
        let table = try CSVTable.read(path: folder.file("out/co2e.csv"))
        let c = { (name: String) in table.columns.firstIndex(of: name)! }
        func rows(zone: String? = nil, mode: String? = nil) -> [[String?]] {
            table.rows.filter { row in zone.map { row[c("home_zone_id")] == $0 } ?? true && mode.map { row[c("travel_mode")] == $0 } ?? true
            }
        }
        func kg(_ rows: [[String?]]) -> Double { rows.reduce(0) { $0 + Double($1[c("co2e_kg")]!)! } }
        let everyone = try #require(rows(zone: "all", mode: "all").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let summary = try #require(json["co2e"] as? [String: Any], "\(json.keys.sorted())")
        let excluded = (json["mode_shares"] as? [String: Any])?["excluded_trips"] as? Int ?? -1
        if excluded == 0 { #expect(abs(Double(everyone[c("co2e_kg")]!)! - tripTotal / 1000) < 0.01) }
        #expect(abs(kg(rows(zone: "all").filter { $0[c("travel_mode")] != "all" }) - Double(everyone[c("co2e_kg")]!)!) < 0.01)
        #expect(abs(kg(rows(mode: "all").filter { $0[c("home_zone_id")] != "all" }) - Double(everyone[c("co2e_kg")]!)!) < 0.01)
        for row in table.rows {
            let perDay = Double(row[c("co2e_g_per_person_day")]!)!
            #expect(abs(perDay - Double(row[c("co2e_kg")]!)! * 1000 / Double(row[c("person_days")]!)!) < 0.1, "\(row)")
        }
        #expect((summary["factors"] as? String)?.hasPrefix("CO2e factors for FR 2025: A test city's own table") == true, "\(summary)")
        #expect((summary["factors"] as? String)?.contains("car 125.00 g/passenger-km (2024)") == true, "\(summary)")
        #expect((summary["factors"] as? String)?.contains("bus 40.00 g/passenger-km (2024)") == true, "\(summary)")
        #expect(summary["trips_without_factor"] as? Int == Int(everyone[c("trips_without_factor")]!))
        // Energy beside CO2e, the same way: `all` is every trip of known energy, zones add up to it.
        func megajoules(_ rows: [[String?]]) -> Double { rows.reduce(0) { $0 + (Double($1[c("energy_mj")] ?? "") ?? 0) } }
        if excluded == 0 { #expect(abs(Double(everyone[c("energy_mj")]!)! - tripEnergy) < 0.01) }
        #expect(abs(megajoules(rows(mode: "all").filter { $0[c("home_zone_id")] != "all" }) - Double(everyone[c("energy_mj")]!)!) < 0.01)
        #expect(summary["trips_without_energy"] as? Int == Int(everyone[c("trips_without_energy")]!))
        #expect(
            Int(everyone[c("trips_without_energy")]!)! > Int(everyone[c("trips_without_factor")]!)!,
            "the train trips have CO2e but no energy")
        #expect(abs((summary["energy_mj"] as? Double ?? -1) - Double(everyone[c("energy_mj")]!)!) < 0.01, "\(summary)")
        #expect((summary["factors"] as? String)?.contains("and 2.000 MJ/passenger-km") == true, "\(summary)")

        // Per person and week: their CO2e over their valid days, times 7.
        let persons = try CSVTable.read(path: folder.file("out/restricted/person_co2e.csv"))
        let p = { (name: String) in persons.columns.firstIndex(of: name)! }
        #expect(persons.rows.count == 8)
        for row in persons.rows {
            let (kg, days) = (Double(row[p("co2e_kg")]!)!, Double(row[p("valid_days")]!)!)
            if days > 0 { #expect(abs(Double(row[p("co2e_kg_per_week")]!)! - kg / days * 7) < 0.002, "\(row)") }
            if days > 0, let energy = row[p("energy_mj")].flatMap(Double.init) {
                #expect(abs(Double(row[p("energy_mj_per_week")]!)! - energy / days * 7) < 0.002, "\(row)")
            }
        }
        #expect(abs(persons.rows.reduce(0) { $0 + Double($1[p("co2e_kg")]!)! } - Double(everyone[c("co2e_kg")]!)!) < 0.01)

        // The report names the table and each factor's source.
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(
            report.contains("Factors for FR 2025: A test city&#39;s own table")
                || report.contains("Factors for FR 2025: A test city's own table"))
        #expect(report.contains(">year</th>") && report.contains("of the local year it started in"))
        #expect(report.contains("test car") && report.contains("125.00"))
        #expect(report.contains("MJ per passenger-km") && report.contains("MJ per person-day"))
        #expect(report.contains("<h3>CO2e and energy</h3>"))
    }

    /// Two countries' factors in one table, and a countries layer (`--countries`) that puts the
    /// simulated city's west in France (two features), its south-east in Germany and its
    /// north-east in Belgium, which the table does not list.
    static let countriesConfiguration = """
        privacy:
          k: 1
        planning:
          emission_factors:
            country: FR
            year: 2025
            source: "Two countries' tables"
            factors:
              - {mode: walk, grams_per_km: 0, per: passenger, source: "none in operation"}
              - {mode: bike, grams_per_km: 0, per: passenger, source: "none in operation"}
              - {mode: car, grams_per_km: 160, per: vehicle, occupancy: 1.6, source: "FR car"}
              - {mode: train, grams_per_km: 4, per: passenger, source: "FR rail"}
              - {mode: walk, grams_per_km: 0, per: passenger, source: "none in operation", country: DE}
              - {mode: bike, grams_per_km: 0, per: passenger, source: "none in operation", country: DE}
              - {mode: car, grams_per_km: 180, per: vehicle, occupancy: 1.5, source: "DE car", country: DE}
              - {mode: train, grams_per_km: 30, per: passenger, source: "DE rail", country: DE}

        """

    static let countries = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"code":"FR","name":"France"},"geometry":{"type":"Polygon","coordinates":[[[-10,40],[2.3522,40],[2.3522,48.8566],[-10,48.8566],[-10,40]]]}},
        {"type":"Feature","properties":{"code":"FR","name":"France"},"geometry":{"type":"Polygon","coordinates":[[[-10,48.8566],[2.3522,48.8566],[2.3522,60],[-10,60],[-10,48.8566]]]}},
        {"type":"Feature","properties":{"code":"DE","name":"Germany"},"geometry":{"type":"Polygon","coordinates":[[[2.3522,40],[20,40],[20,48.8566],[2.3522,48.8566],[2.3522,40]]]}},
        {"type":"Feature","properties":{"code":"BE","name":"Belgium"},"geometry":{"type":"Polygon","coordinates":[[[2.3522,48.8566],[20,48.8566],[20,60],[2.3522,60],[2.3522,48.8566]]]}},
        {"type":"Feature","properties":{"code":"-99","name":"disputed"},"geometry":{"type":"Polygon","coordinates":[[[30,40],[31,40],[31,41],[30,41],[30,40]]]}}
        ]}
        """

    @Test func eachLegTakesTheFactorsOfTheCountryItStartedIn() throws {
        let folder = try simulatedCity()
        try folder.write("factors.yaml", Self.countriesConfiguration)
        try folder.write("countries.geojson", Self.countries)
        let run = try cli.pipeline(
            [
                "run", "city", "--out", "out", "--config", "factors.yaml", "--allow-identifying-k", "--countries", "countries.geojson",
                "--country-property", "code", "--json"
            ], in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")

        // Each leg's country is where its line (triplegs.geojson) begins; its CO2e that country's factor.
        let geojson =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("out/restricted/triplegs.geojson"))))
            as! [String: Any]
        var starts: [String: [Double]] = [:]
        for feature in geojson["features"] as! [[String: Any]] {
            let id = (feature["properties"] as! [String: Any])["tripleg_id"] as! Int
            starts[String(id)] = ((feature["geometry"] as! [String: Any])["coordinates"] as? [[Double]])?.first
        }
        let perKm = ["FR": ["walk": 0.0, "bike": 0, "car": 100, "train": 4], "DE": ["walk": 0.0, "bike": 0, "car": 120, "train": 30]]
        let legs = try CSVTable.read(path: folder.file("out/restricted/triplegs.csv"))
        let l = { (name: String) in legs.columns.firstIndex(of: name)! }
        var byCountry: [String: Int] = [:], checked: [String: Int] = [:], grams: [String: (sum: Double, missing: Bool)] = [:]
        for row in legs.rows {
            let distance = Double(row[l("distance_m")]!)!
            let co2e = row[l("co2e_g")].flatMap(Double.init)
            if let trip = row[l("trip_id")] {
                let sofar = grams[trip] ?? (0, false)
                grams[trip] = (sofar.sum + (co2e ?? 0), sofar.missing || (co2e == nil && distance > 0))
            }
            guard let start = starts[row[l("tripleg_id")]!], start.count == 2 else {
                #expect(row[l("start_country")] == nil, "a leg without a line has no country: \(row)")
                continue
            }
            let country = start[0] < 2.3522 ? "FR" : start[1] < 48.8566 ? "DE" : "BE"
            #expect(row[l("start_country")] == country, "\(start): \(row)")
            byCountry[country, default: 0] += 1
            guard distance > 0 else { continue }
            let emitsNothing = ["walk", "bike"].contains(row[l("travel_mode")]!)
            if country == "BE" {
                #expect(co2e == (emitsNothing ? 0 : nil), "Belgium has no factors: none is borrowed but a walk's or ride's 0, \(row)")
            } else if let factor = perKm[country]![row[l("travel_mode")]!] {
                #expect(abs(try #require(co2e) - factor * distance / 1000) <= 0.05 + 1e-9, "\(row)")
                if factor > 0 { checked[country, default: 0] += 1 }
            } else {
                #expect(co2e == (emitsNothing ? 0 : nil), "a mode neither country lists, \(row)")
            }
        }
        print("legs by country: \(byCountry); checked with a factor above 0: \(checked)")
        try #require(byCountry.keys.sorted() == ["BE", "DE", "FR"], "the simulated city spans the three: \(byCountry)")
        #expect(checked["FR", default: 0] > 0 && checked["DE", default: 0] > 0)

        // Each trip sums its legs' own countries'.
        let trips = try CSVTable.read(path: folder.file("out/restricted/trips.csv"))
        let t = { (name: String) in trips.columns.firstIndex(of: name)! }
        for row in trips.rows {
            let value = row[t("co2e_g")].flatMap(Double.init)
            let sum = try #require(grams[row[t("trip_id")]!])
            #expect((value == nil) == sum.missing, "\(row)")
            if let value { #expect(abs(value - sum.sum) <= 0.05 * Double(Int(row[t("legs")]!)!) + 1e-9, "\(row)") }
        }

        // The run says it: legs per country, Belgium's without factors, the dropped feature.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let warnings = json["warnings"] as? [String] ?? []
        #expect(
            warnings.contains { $0.contains("in BE have no CO2e (but a walk's or ride's 0): the table has no factors for that country") },
            "\(warnings)")
        let co2e = try #require(json["co2e"] as? [String: Any])
        let tally = try #require(co2e["countries"] as? [String: Any], "\(co2e)")
        #expect(tally["layer"] as? String == "countries.geojson" && tally["table_country"] as? String == "FR")
        #expect((tally["legs"] as? [String: Int]) == byCountry.filter { $0.key != "BE" }, "\(tally)")
        #expect((tally["without_factors"] as? [String: Int]) == ["BE": byCountry["BE"]!], "\(tally)")
        #expect((tally["dropped"] as? [String])?.first?.hasPrefix("feature 5: its code -99") == true, "\(tally)")
        let report = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(report.contains("Factors for FR, DE 2025") && report.contains(">country</th>"), "the factor table names each row's country")
        #expect(
            report.contains("the country its first fix lies in")
                && report.contains("\(byCountry["BE"]!) legs started in a country the table has no factors for and have no CO2e"))
        // The published report gives totals only: no leg count per country, no unlisted country's name.
        #expect(
            !report.contains("\(byCountry["FR"]!) in FR") && !report.contains("in BE have no CO2e"), "per-country counts are restricted")

        // Without the layer, each leg takes its time zone's country: the simulated city is in
        // Paris, so every leg is France's (the table's DE rows go unused), and says so.
        let plain = try cli.pipeline(
            ["run", "city", "--out", "plain", "--config", "factors.yaml", "--allow-identifying-k", "--json"], in: folder.path)
        try #require([0, 2].contains(plain.status), "\(plain.stderr)")
        let plainJSON = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let plainTally = try #require((plainJSON["co2e"] as? [String: Any])?["countries"] as? [String: Any], "\(plainJSON["co2e"] ?? "")")
        #expect((plainTally["legs"] as? [String: Int])?.keys.sorted() == ["FR"], "\(plainTally)")
        #expect((plainTally["unused"] as? [String]) == ["DE"] && (plainTally["without_factors"] as? [String: Int]) == [:])
        let plainLegs = try CSVTable.read(path: folder.file("plain/restricted/triplegs.csv"))
        #expect(plainLegs.rows.allSatisfy { $0[l("start_country")] == "FR" })
    }

    @Test func otherNumbersUnderTheDefaultsNameAreRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/empty.gpx", "<gpx version=\"1.1\"></gpx>")
        try folder.write(
            "bad.yaml",
            "planning:\n  emission_factors:\n    factors:\n      - {mode: car, grams_per_km: 90, per: vehicle, source: guess}\n")
        let refused = try cli.pipeline(["run", "traces", "--out", "out", "--config", "bad.yaml"], in: folder.path)
        #expect(refused.status == 64 && refused.stderr.contains("need their own source"), "\(refused.stderr)")
        try folder.write(
            "mode.yaml",
            "planning:\n  emission_factors:\n    source: x\n    factors:\n      - {mode: tram, grams_per_km: 9, per: passenger, source: y}\n"
        )
        let unknown = try cli.pipeline(["run", "traces", "--out", "out", "--config", "mode.yaml"], in: folder.path)
        #expect(
            unknown.status == 64 && unknown.stderr.contains("mode.yaml") && unknown.stderr.contains("tram"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")), "stopped before any work")
    }
}
