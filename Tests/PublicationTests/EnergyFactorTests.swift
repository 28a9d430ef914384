import Foundation
import MobilityCore
import Publication
import Testing
@testable import Trips

/// Final energy beside CO2e (`EmissionFactors.megajoulesPerKm`, `CO2eTable`), with answers
/// worked by hand.
@Suite struct EnergyFactorTests {
    /// A city's table: a car of 3 MJ per vehicle-km shared by 1.5 persons, a bus of 1.2 MJ per
    /// passenger-km, walking 0, and a train with CO2e but no energy given.
    static let city = EmissionFactors(
        country: "SE", year: 2025, source: "a city's table",
        factors: [
            .init(mode: .walk, gramsPerKm: 0, per: .passenger, source: "none", megajoulesPerKm: 0),
            .init(mode: .car, gramsPerKm: 150, per: .vehicle, occupancy: 1.5, source: "car", megajoulesPerKm: 3),
            .init(mode: .bus, gramsPerKm: 80, per: .passenger, source: "bus", megajoulesPerKm: 1.2),
            .init(mode: .train, gramsPerKm: 10, per: .passenger, source: "train")
        ])

    @Test func aLegsEnergyIsItsDistanceTimesItsModesMegajoulesPerPassengerKm() throws {
        let city = Self.city
        #expect(city.problem == nil && city.givesEnergy)
        #expect(abs(try #require(city.megajoules(mode: .car, distanceMeters: 6_000)) - 12) < 1e-12, "6 km × 3 MJ ÷ 1.5")
        #expect(abs(try #require(city.megajoules(mode: .bus, distanceMeters: 2_500)) - 3) < 1e-12)
        #expect(city.megajoules(mode: .walk, distanceMeters: 900) == 0)
        #expect(city.megajoules(mode: .train, distanceMeters: 10_000) == nil, "CO2e given, energy not: none is guessed")
        #expect(city.grams(mode: .train, distanceMeters: 10_000) == 100)
        #expect(city.megajoules(mode: .vehicle, distanceMeters: 1_000) == nil && city.megajoules(mode: .vehicle, distanceMeters: 0) == 0)
        #expect(city.megajoules(mode: .still, distanceMeters: 500) == 0)
        #expect(
            city.text.contains("car 100.00 g/passenger-km (150.00 g/vehicle-km ÷ 1.5 persons) and 2.000 MJ/passenger-km"), "\(city.text)")
        #expect(city.usesNoEnergy(.walk) && city.usesNoEnergy(.train) && !city.usesNoEnergy(.car))

        // The default (DESNZ) gives no energy: no leg has any, not even one without distance.
        let uk = EmissionFactors.ukDESNZ2025
        #expect(
            !uk.givesEnergy && uk.megajoules(mode: .walk, distanceMeters: 0) == nil && uk.megajoules(mode: .car, distanceMeters: 1) == nil)
        #expect(uk.text.hasSuffix("no energy factors (megajoules_per_km), so no energy is counted"))

        var broken = city
        broken.factors[2].megajoulesPerKm = -1
        #expect(broken.problem == "bus: megajoules_per_km must be a number ≥ 0")

        // From the configuration, in its snake-case keys; a row without it has none.
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try decoder.decode(
            EmissionFactors.self,
            from: Data(
                """
                {"country": "SE", "year": 2025, "source": "s", "factors": [
                  {"mode": "car", "grams_per_km": 150, "megajoules_per_km": 3, "per": "vehicle", "occupancy": 1.5, "source": "car"},
                  {"mode": "train", "grams_per_km": 10, "per": "passenger", "source": "train"}]}
                """.utf8))
        #expect(decoded.factors.map(\.megajoulesPerKm) == [3, nil])
    }

    @Test func aTripsEnergyIsItsLegsAndNoneWhenALegHasNone() throws {
        func leg(_ mode: Mode?, _ meters: Double) -> Tripleg {
            Tripleg(
                device: "d", firstFix: 0, lastFix: 1, startSeconds: 0, endSeconds: 60, distanceMeters: meters, mode: mode, modeSource: nil)
        }
        let legs = [leg(.walk, 400), leg(.bus, 5_000), leg(.car, 1_500), leg(.train, 20_000)]
        func trip(_ indices: [Int]) -> Trip {
            Trip(
                device: "d", startSeconds: 0, endSeconds: 60, distanceMeters: 0, mainMode: nil, legs: indices, originStaypoint: nil,
                destinationStaypoint: nil, originGeofence: nil, destinationGeofence: nil)
        }
        #expect(abs(try #require(Self.city.megajoules(of: trip([0, 1, 2]), legs: legs)) - (0 + 6 + 3)) < 1e-12)
        #expect(Self.city.megajoules(of: trip([0, 3]), legs: legs) == nil, "the train leg has no energy factor")
        #expect(Self.city.grams(of: trip([0, 3]), legs: legs) == 200, "but its CO2e is known")
    }

    /// Energy per zone, mode and person, and its own audit: a train whose table gives CO2e but
    /// no energy counts no energy, so a zone's energy adds up over fewer modes than its CO2e, and
    /// the energy audit must hold that relation too (k = 3, one car driver).
    @Test func energyAddsUpAndItsAuditHoldsOverTheModesThatUseEnergy() throws {
        func trip(_ person: String, _ mode: String, grams: Double, megajoules: Double?, weight: Double? = nil) -> PlanningTrip {
            PlanningTrip(
                device: person, person: person, startSeconds: 0, origin: nil, destination: nil, durationSeconds: 60,
                distanceMeters: 1000, mainMode: mode, dailyWeight: weight, co2eGrams: grams, energyMegajoules: megajoules)
        }
        // Walkers make a trip each, rail riders two and bus riders three: the audits leave out the
        // smallest cells that hide the car, so the counts' audit takes walk and CO2e's the train.
        let trips =
            ["w1", "w2", "w3"].map { trip($0, "walk", grams: 0, megajoules: 0) }
            + ["b1", "b2", "b3"].flatMap { person in (0..<3).map { _ in trip(person, "bus", grams: 80, megajoules: 1.2) } }
            + ["r1", "r2", "r3"].flatMap { person in (0..<2).map { _ in trip(person, "train", grams: 10, megajoules: nil) } }
            + [trip("c1", "car", grams: 100, megajoules: 2)]
        let days = Dictionary(trips.map { ($0.person, 1) }, uniquingKeysWith: { first, _ in first })
        let zeroModes = CO2eTable.zeroModes(of: trips, factors: Self.city)
        let zeroEnergy = CO2eTable.zeroEnergyModes(of: trips, factors: Self.city)
        #expect(zeroModes == ["walk"] && zeroEnergy == ["walk", "train"])
        func leaks(_ table: CO2eTable) -> Bool {
            // The car's energy is `all` − bus (walk and train count none).
            Set(table.rows.map(\.mode)).isSuperset(of: ["all", "bus"])
        }
        let co2eOnly = CO2eTable(trips, validDays: days, homeZones: nil, zeroModes: zeroModes, minimumPersons: 3)
        let audited = CO2eTable(
            trips, validDays: days, homeZones: nil, zeroModes: zeroModes, zeroEnergyModes: zeroEnergy, minimumPersons: 3)
        print("energy audit, k = 3: CO2e audit only \(co2eOnly.rows.map(\.mode)), with energy's \(audited.rows.map(\.mode))")
        #expect(leaks(co2eOnly), "the CO2e audit alone publishes all and bus: \(co2eOnly.rows.map(\.mode))")
        #expect(!audited.rows.contains { $0.mode == "car" } && !leaks(audited), "\(audited.rows.map(\.mode))")
        #expect(audited.suppressedPrimary == 1 && audited.suppressedComplementary >= 1)

        // Sums: every trip's energy, and those without one counted; weighted with weights.
        let mixed = [
            trip("p1", "car", grams: 100, megajoules: 2, weight: 3), trip("p1", "train", grams: 200, megajoules: nil, weight: 3),
            trip("p2", "car", grams: 300, megajoules: 6, weight: 1)
        ]
        let sums = CO2eTable(mixed, validDays: ["p1": 2, "p2": 1], homeZones: nil, minimumPersons: 1)
        let everyone = try #require(sums.rows.first { $0.mode == "all" })
        #expect(everyone.energyMegajoules == 8 && everyone.tripsWithoutEnergy == 1 && everyone.weightedMegajoules == 12)
        #expect(everyone.co2eGrams == 600 && everyone.tripsWithoutFactor == 0)
        #expect(sums.rows.first { $0.mode == "train" }?.energyMegajoules == nil, "a row with no trip of known energy has none, not 0")
        let persons = CO2eTable.persons(mixed, validDays: ["p1": 2, "p2": 1])
        #expect(persons[0].energyMegajoules == 2 && persons[0].tripsWithoutEnergy == 1 && persons[0].weeklyMegajoules == 7)
        #expect(persons[1].weeklyMegajoules == 42)
    }
}
