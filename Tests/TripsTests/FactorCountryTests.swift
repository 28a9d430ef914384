import Foundation
import MobilityCore
import Testing
@testable import Trips

/// Factors by country within one run (`EmissionFactors` rows with a `country`, `LegCountries`),
/// with answers worked by hand.
@Suite struct FactorCountryTests {
    /// France by default, with a car factor of 2024 and 2025; Germany's own car and train.
    static let table = EmissionFactors(
        country: "FR", year: 2025, source: "two countries' tables",
        factors: [
            .init(mode: .walk, gramsPerKm: 0, per: .passenger, source: "none"),
            .init(mode: .car, gramsPerKm: 160, per: .vehicle, occupancy: 1.6, source: "FR car 2025"),
            .init(mode: .car, gramsPerKm: 200, per: .vehicle, occupancy: 1.6, source: "FR car 2024", year: 2024),
            .init(mode: .train, gramsPerKm: 4, per: .passenger, source: "FR rail"),
            .init(mode: .car, gramsPerKm: 180, per: .vehicle, occupancy: 1.5, source: "DE car 2023", year: 2023, country: "de"),
            .init(mode: .train, gramsPerKm: 30, per: .passenger, source: "DE rail", country: "DE")
        ])

    @Test func aLegTakesItsOwnCountrysRowsAndNoOtherCountrys() throws {
        let table = Self.table
        #expect(table.problem == nil, "\(table.problem ?? "")")
        #expect(table.countries == ["FR", "DE"] && table.spansCountries)
        // 10 km by car: France's factor of the year (or its table's), Germany's of 2023 for any later year.
        #expect(table.grams(mode: .car, distanceMeters: 10_000, year: 2025) == 1_000, "160 g ÷ 1.6 × 10 km")
        #expect(table.grams(mode: .car, distanceMeters: 10_000, year: 2024, country: "FR") == 1_250, "200 g ÷ 1.6 × 10 km")
        #expect(table.grams(mode: .car, distanceMeters: 10_000, year: 2025, country: "DE") == 1_200, "180 g ÷ 1.5 × 10 km, 2023's")
        #expect(table.grams(mode: .car, distanceMeters: 10_000, year: 2025, country: "de") == 1_200, "codes match whatever their case")
        #expect(table.grams(mode: .train, distanceMeters: 10_000, country: "DE") == 300)
        // Germany lists no walk, but a walk emits nothing wherever the table lists it: 0, not none.
        #expect(table.grams(mode: .walk, distanceMeters: 1_000, country: "DE") == 0)
        #expect(table.grams(mode: .walk, distanceMeters: 1_000, country: "BE") == 0)
        #expect(table.grams(mode: .walk, distanceMeters: 1_000, country: "FR") == 0)
        // A country the table does not list at all has no factor for any mode.
        #expect(table.grams(mode: .train, distanceMeters: 1_000, country: "BE") == nil)
        #expect(table.grams(mode: .train, distanceMeters: 0, country: "BE") == 0, "no distance, nothing emitted")
        #expect(table.text.contains("train 30.00 g/passenger-km in DE"), "\(table.text)")

        // A trip of a French car leg and a German train leg sums each leg's own country.
        let legs = [
            Tripleg(
                device: "d", firstFix: 0, lastFix: 5, startSeconds: 0, endSeconds: 600, distanceMeters: 8_000, mode: .car,
                modeSource: .gpsRules),
            Tripleg(
                device: "d", firstFix: 5, lastFix: 9, startSeconds: 600, endSeconds: 1_800, distanceMeters: 50_000, mode: .train,
                modeSource: .gpsRules)
        ]
        let trip = Trip(
            device: "d", startSeconds: 0, endSeconds: 1_800, distanceMeters: 58_000, mainMode: .train, legs: [0, 1], originStaypoint: nil,
            destinationStaypoint: nil, originGeofence: nil, destinationGeofence: nil)
        let countries = ["FR", "DE"]
        let grams = try #require(table.grams(of: trip, legs: legs, year: { _ in 2025 }, country: { countries[$0] }))
        #expect(abs(grams - (800 + 1_500)) < 1e-9, "8 km × 100 g + 50 km × 30 g")
        #expect(table.grams(of: trip, legs: legs, year: { _ in 2025 }, country: { ["FR", "BE"][$0] }) == nil, "a leg without a factor")
    }

    @Test func aCountryIsListedOnceAModeAndYearAndNamedByItsCode() {
        var twice = Self.table
        twice.factors.append(.init(mode: .train, gramsPerKm: 31, per: .passenger, source: "DE rail again", country: "de"))
        #expect(twice.problem == "train is listed twice for 2025 in DE", "\(twice.problem ?? "")")
        var named = Self.table
        named.factors[5].country = "Germany"
        #expect(named.problem?.contains("country Germany is not an ISO 3166-1 alpha-2 code") == true, "\(named.problem ?? "")")
        // One mode and year in each of two countries is two rows, not one listed twice.
        #expect(Self.table.problem == nil)
        #expect(!EmissionFactors.ukDESNZ2025.spansCountries && EmissionFactors.ukDESNZ2025.countries == ["GB"])
    }

    /// Two features of France (a mainland and an island), Germany, and a feature whose code is
    /// Natural Earth's `-99`.
    static func layer() throws -> LegCountries {
        func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> Geofence.Shape {
            .polygon(rings: [
                [
                    GeoPoint(longitudeDegrees: west, latitudeDegrees: south), GeoPoint(longitudeDegrees: east, latitudeDegrees: south),
                    GeoPoint(longitudeDegrees: east, latitudeDegrees: north), GeoPoint(longitudeDegrees: west, latitudeDegrees: north),
                    GeoPoint(longitudeDegrees: west, latitudeDegrees: south)
                ]
            ])
        }
        return try LegCountries(
            path: "/data/countries.geojson",
            fences: [
                (1, Geofence(id: "FR", name: "France", kind: "zone", shape: box(-5, 42, 8, 51))),
                (2, Geofence(id: "DE", name: "Germany", kind: "zone", shape: box(8, 47, 15, 55))),
                (3, Geofence(id: "fr", name: "Corsica", kind: "zone", shape: box(8.5, 41.3, 9.6, 43.1))),
                (4, Geofence(id: "-99", name: "a disputed area", kind: "zone", shape: box(20, 42, 21, 43)))
            ], dropped: [])
    }

    @Test func aLegsCountryIsThePolygonItsFirstFixLiesIn() throws {
        let countries = try Self.layer()
        let layer = try #require(countries.layer)
        #expect(layer.zones.map(\.id) == ["FR", "DE"], "France's two features are one country")
        #expect(layer.dropped.map(\.feature) == [4] && layer.dropped[0].reason.contains("-99"))
        #expect(countries.country(of: GeoPoint(longitudeDegrees: 2.35, latitudeDegrees: 48.86)) == "FR")
        #expect(countries.country(of: GeoPoint(longitudeDegrees: 9.0, latitudeDegrees: 42.0)) == "FR", "Corsica")
        #expect(countries.country(of: GeoPoint(longitudeDegrees: 13.4, latitudeDegrees: 52.5)) == "DE")
        #expect(countries.country(of: GeoPoint(longitudeDegrees: 20.5, latitudeDegrees: 42.5)) == nil, "the dropped feature")
        #expect(countries.country(of: GeoPoint(longitudeDegrees: -30, latitudeDegrees: 42.5)) == nil, "the sea")
        #expect(countries.country(of: nil) == nil && LegCountries().country(of: GeoPoint(longitudeDegrees: 2, latitudeDegrees: 48)) == nil)

        // A device's legs: Paris to Berlin by train starts in France; the next leg in Berlin;
        // one by time (no fix); one starting at sea. Compacting keeps each leg's start.
        let points = [
            (2.35, 48.86), (7.0, 50.0), (13.4, 52.5), (13.5, 52.6), (-30.0, 45.0), (-29.9, 45.1)
        ].enumerated().map {
            TrackPoint(timeSeconds: Double($0.offset) * 600, latitudeDegrees: $0.element.1, longitudeDegrees: $0.element.0)
        }
        var byTime = Tripleg(
            device: "d", firstFix: 0, lastFix: 0, startSeconds: 0, endSeconds: 60, distanceMeters: 0, mode: .walk, modeSource: .model)
        byTime.byTime = true
        let legs = [
            Tripleg(
                device: "d", firstFix: 0, lastFix: 2, startSeconds: 0, endSeconds: 1_200, distanceMeters: 880_000, mode: .train,
                modeSource: .gpsRules),
            Tripleg(
                device: "d", firstFix: 2, lastFix: 3, startSeconds: 1_200, endSeconds: 1_800, distanceMeters: 13_000, mode: .car,
                modeSource: .gpsRules),
            byTime,
            Tripleg(
                device: "d", firstFix: 4, lastFix: 5, startSeconds: 2_400, endSeconds: 3_000, distanceMeters: 14_000, mode: .boat,
                modeSource: .gpsRules)
        ]
        let device = DeviceTrips(track: DeviceTrack(device: "d", points: points), staypoints: [], dwells: [], triplegs: legs, trips: [])
        #expect(countries.countries(of: device, calendar: CalendarKeys()) == ["FR", "DE", nil, nil])
        #expect(countries.countries(of: device.compacted(), calendar: CalendarKeys()) == ["FR", "DE", nil, nil])

        let tally = countries.tally(countries.countries(of: device, calendar: CalendarKeys()), factors: Self.table)
        #expect(tally.legs == ["FR": 3, "DE": 1] && tally.outside == 2 && tally.withoutFactors.isEmpty && tally.unused.isEmpty)
        #expect(tally.layer == "countries.geojson", "the file's name, not where it lies")
        #expect(tally.warning == nil)
        #expect(
            tally.line
                == "CO2e factors by the country each leg started in (countries.geojson): legs with factors 3 in FR, 1 in DE; 2 outside every country of the layer or without a fix, given FR's; 1 feature is no country and not used (feature 4: its code -99 is not an ISO 3166-1 alpha-2 code (two letters))",
            "\(tally.line ?? "")")

        // Under a table of France alone, Germany's legs have no factor: counted, said, a warning.
        var france = Self.table
        france.factors.removeAll { $0.country != nil }
        let alone = countries.tally(countries.countries(of: device, calendar: CalendarKeys()), factors: france)
        #expect(alone.withoutFactors == ["DE": 1] && alone.legs == ["FR": 3])
        #expect(
            alone.warning?.contains("1 in DE have no CO2e (but a walk's or ride's 0): the table has no factors for that country") == true,
            "\(alone.line ?? "")")
        // What is published holds totals only: no count per country, no unlisted country named.
        #expect(
            alone.publishedLine
                == "CO2e factors by the country each leg started in (countries.geojson); 2 legs outside every country of the layer or without a fix, given FR's; 1 legs started in a country the table has no factors for and have no CO2e (but a walk's or ride's 0) (the legs' table names it, start_country; add rows with its country to planning.emission_factors, or name it in planning.emission_factors.also_for); 1 feature is no country and not used (feature 4: its code -99 is not an ISO 3166-1 alpha-2 code (two letters))",
            "\(alone.publishedLine ?? "")")

        // Without a layer a leg takes its time zone's country: a Paris phone's are France's.
        let paris = CalendarKeys(zone: "Europe/Paris")!, helsinki = CalendarKeys(zone: "Europe/Helsinki")!
        let byZone = LegCountries().countries(of: device, calendar: paris)
        #expect(byZone == ["FR", "FR", "FR", "FR"])
        let none = LegCountries().tally(byZone, factors: Self.table)
        #expect(none.legs == ["FR": 4] && none.outside == 0 && none.unused == ["DE"] && none.warning == nil)
        // A Helsinki phone under France's table: no factor is borrowed unasked; said, with the options.
        let finnish = LegCountries().countries(of: device, calendar: helsinki)
        let abroad = LegCountries().tally(finnish, factors: france)
        #expect(abroad.withoutFactors == ["FI": 4] && abroad.legs.isEmpty)
        #expect(
            abroad.warning
                == "CO2e factors by the country of each leg's time zone: legs with factors none; 4 in FI have no CO2e (but a walk's or ride's 0): the table has no factors for that country (add rows with its country to planning.emission_factors, or name it in planning.emission_factors.also_for if the table's FR factors apply there too)",
            "\(abroad.warning ?? "")")
        #expect(france.grams(mode: .car, distanceMeters: 1000, country: "FI") == nil)
        #expect(france.grams(mode: .walk, distanceMeters: 1000, country: "FI") == 0, "walking emits nothing anywhere")
        // The user's word that France's factors apply in Finland too (or everywhere).
        for alsoFor in [["FI"], ["*"]] {
            var shared = france
            shared.alsoFor = alsoFor
            let tally = LegCountries().tally(finnish, factors: shared)
            #expect(tally.legs == ["FR": 4] && tally.borrowed == ["FI": 4] && tally.withoutFactors.isEmpty && tally.warning == nil)
            #expect(shared.grams(mode: .car, distanceMeters: 1000, country: "FI") == france.grams(mode: .car, distanceMeters: 1000))
            #expect(shared.problem == nil)
        }
        var wrong = france
        wrong.alsoFor = ["Finland"]
        #expect(wrong.problem == "also_for: Finland is not an ISO 3166-1 alpha-2 code (two letters) or *")
        // A fixed offset has no country: the table's.
        #expect(LegCountries().countries(of: device, calendar: CalendarKeys(utcOffsetSeconds: 3600)) == [nil, nil, nil, nil])
    }
}
