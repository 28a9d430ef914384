import MobilityCore
import Publication
import Testing
@testable import Trips

/// CO2e per leg (`EmissionFactors`) and per home zone and mode (`CO2eTable`) with answers
/// worked by hand.
@Suite struct CO2eTableTests {
    @Test func aLegsCO2eIsItsDistanceTimesItsModesFactorPerPassenger() throws {
        let uk = EmissionFactors.ukDESNZ2025
        // DESNZ 2025: average local bus 0.10385 kg CO2e per passenger.km; average car (unknown
        // fuel) 0.16725 kg per km, the whole car the traveller's by default.
        #expect(abs(try #require(uk.grams(mode: .bus, distanceMeters: 10_000)) - 1038.5) < 1e-9)
        #expect(abs(try #require(uk.grams(mode: .car, distanceMeters: 10_000)) - 1672.5) < 1e-9)
        #expect(uk.grams(mode: .walk, distanceMeters: 5_000) == 0)
        // A vehicle of unknown kind, or no mode: no factor is guessed; a leg without distance emits nothing.
        #expect(uk.grams(mode: .vehicle, distanceMeters: 1_000) == nil)
        #expect(uk.grams(mode: nil, distanceMeters: 1_000) == nil)
        #expect(uk.grams(mode: .vehicle, distanceMeters: 0) == 0)

        // A car shared by 1.5 persons on average: per passenger, two thirds of the car.
        var shared = uk
        shared.source = "a city's survey"
        shared.factors[shared.factors.firstIndex { $0.mode == .car }!].occupancy = 1.5
        #expect(abs(try #require(shared.grams(mode: .car, distanceMeters: 3_000)) - 167.25 * 3 / 1.5) < 1e-9)
        #expect(shared.problem == nil && uk.problem == nil)
    }

    @Test func aTripsCO2eIsItsLegsAndNoneWhenALegHasNoFactor() throws {
        func leg(_ mode: Mode?, _ meters: Double) -> Tripleg {
            Tripleg(
                device: "d", firstFix: 0, lastFix: 1, startSeconds: 0, endSeconds: 60, distanceMeters: meters, mode: mode, modeSource: nil)
        }
        let legs = [leg(.walk, 400), leg(.bus, 5_000), leg(.walk, 300), leg(.vehicle, 2_000), leg(nil, 0)]
        func trip(_ indices: [Int]) -> Trip {
            Trip(
                device: "d", startSeconds: 0, endSeconds: 60, distanceMeters: 0, mainMode: nil, legs: indices, originStaypoint: nil,
                destinationStaypoint: nil, originGeofence: nil, destinationGeofence: nil)
        }
        let uk = EmissionFactors.ukDESNZ2025
        #expect(abs(try #require(uk.grams(of: trip([0, 1, 2, 4]), legs: legs)) - 519.25) < 1e-9)
        #expect(uk.grams(of: trip([1, 3]), legs: legs) == nil, "a vehicle leg of 2 km: no factor, so no CO2e for the trip")
    }

    /// A table of several years: a leg takes its mode's factor of its own year, else of the
    /// latest year before it, else of the earliest after it; a trip's legs each their own.
    @Test func aLegTakesTheFactorOfItsYear() throws {
        var table = EmissionFactors(
            country: "GB", year: 2025, source: "a city's table",
            factors: [
                .init(mode: .car, gramsPerKm: 160, per: .vehicle, source: "2025"),
                .init(mode: .car, gramsPerKm: 180, per: .vehicle, source: "2023", year: 2023),
                .init(mode: .car, gramsPerKm: 170, per: .vehicle, source: "2024", year: 2024),
                .init(mode: .bus, gramsPerKm: 100, per: .passenger, source: "2025 bus")
            ])
        #expect(table.problem == nil && table.spansYears)
        let car = { (year: Int?) in table.factor(.car, year: year)?.source }
        #expect([car(2023), car(2024), car(2025), car(2030), car(2019), car(nil)] == ["2023", "2024", "2025", "2025", "2023", "2025"])
        #expect(table.factor(.bus, year: 2020)?.source == "2025 bus", "a mode of one year serves every year")
        #expect(abs(try #require(table.grams(mode: .car, distanceMeters: 1_000, year: 2024)) - 170) < 1e-9)
        let legs = [
            Tripleg(
                device: "d", firstFix: 0, lastFix: 1, startSeconds: 0, endSeconds: 60, distanceMeters: 1_000, mode: .car, modeSource: nil),
            Tripleg(
                device: "d", firstFix: 1, lastFix: 2, startSeconds: 60, endSeconds: 120, distanceMeters: 2_000, mode: .car, modeSource: nil)
        ]
        let trip = Trip(
            device: "d", startSeconds: 0, endSeconds: 120, distanceMeters: 3_000, mainMode: .car, legs: [0, 1], originStaypoint: nil,
            destinationStaypoint: nil, originGeofence: nil, destinationGeofence: nil)
        // A trip over New Year: its first leg in 2023, its second in 2024.
        let grams = try #require(table.grams(of: trip, legs: legs) { $0 < 60 ? 2023 : 2024 })
        #expect(abs(grams - (180 + 2 * 170)) < 1e-9)
        #expect(table.text.contains("car 180.00 g/passenger-km (2023)") && table.text.contains("car 160.00 g/passenger-km (160.00"))
        table.factors[0].gramsPerKm = 0
        #expect(!table.emitsNothing(.car), "a mode emits nothing only when every year's factor is 0")
        #expect(table.emitsNothing(.walk) && table.emitsNothing(nil))
    }

    @Test func aTableThatCannotBeUsedSaysWhy() {
        var table = EmissionFactors.ukDESNZ2025
        table.factors.append(.init(mode: .bus, gramsPerKm: 80, per: .passenger, source: "x"))
        #expect(table.problem == "bus is listed twice for 2025")
        table.factors[table.factors.count - 1].year = 2024 // another year's bus is another row
        #expect(table.problem == nil)
        table.factors[table.factors.count - 1].year = 24
        #expect(table.problem == "bus: year 24 is not a year")
        table = .ukDESNZ2025
        table.factors[0].occupancy = 0
        #expect(table.problem == "walk: occupancy must be > 0")
        // Other numbers under the default's name would be cited wrongly.
        var planning = PlanningParameters()
        planning.emissionFactors.factors[2].gramsPerKm = 100
        #expect(planning.problem?.contains("need their own source") == true, "\(planning.problem ?? "nil")")
        planning.emissionFactors.source = "Ademe Base Carbone 2024"
        #expect(planning.problem == nil)
    }

    /// Three persons at home in `a` (p1, p2, p3), one in `b` (p4), one without a home (p5);
    /// k = 2. Each trip: (person, main mode, km, grams, daily weight).
    @Test func rowsAddUpPerZoneAndModeAndNoRowUnderKCanBeWorkedOut() throws {
        func trip(_ person: String, _ mode: String, _ km: Double, _ grams: Double?, weight: Double = 2) -> PlanningTrip {
            PlanningTrip(
                device: person, person: person, startSeconds: 0, origin: nil, destination: nil, durationSeconds: 600,
                distanceMeters: km * 1000, mainMode: mode, dailyWeight: weight, co2eGrams: grams)
        }
        let trips = [
            trip("p1", "car", 10, 1000), trip("p1", "walk", 1, 0), trip("p2", "car", 20, 2000), trip("p2", "bus", 5, 500),
            trip("p3", "bus", 5, 500), trip("p3", "vehicle", 8, nil), trip("p4", "car", 30, 3000), trip("p5", "walk", 2, 0)
        ]
        let days = ["p1": 2, "p2": 1, "p3": 1, "p4": 3, "p5": 1]
        let homes = ["p1": "a", "p2": "a", "p3": "a", "p4": "b"]
        let table = CO2eTable(trips, validDays: days, homeZones: homes, minimumPersons: 2)
        func row(_ zone: String, _ mode: String) -> CO2eTable.Row? { table.rows.first { $0.zone == zone && $0.mode == mode } }

        let everyone = try #require(row("all", "all"))
        #expect(everyone.trips == 8 && everyone.persons == 5 && everyone.tripsWithoutFactor == 1)
        #expect(everyone.co2eGrams == 7000 && everyone.personDays == 8 && everyone.weightedGrams == 14000)
        #expect(abs(try #require(everyone.distanceMeters) - 81_000) < 1e-6)
        // Every published row as worked by hand: (grams, persons, person-days of the zone).
        let expected: [String: (grams: Double, persons: Int, days: Int)] = [
            "all all": (7000, 5, 8), "all car": (6000, 3, 8), "all bus": (1000, 2, 8), "all walk": (0, 2, 8), "all vehicle": (0, 1, 8),
            "a all": (4000, 3, 4), "a car": (3000, 2, 4), "a bus": (1000, 2, 4), "a walk": (0, 1, 4), "a vehicle": (0, 1, 4),
            "b all": (3000, 1, 3), "b car": (3000, 1, 3), "(no zone) all": (0, 1, 1), "(no zone) walk": (0, 1, 1)
        ]
        for published in table.rows {
            let want = try #require(expected["\(published.zone) \(published.mode)"], "\(published)")
            #expect(published.persons == want.persons && published.personDays == want.days)
            #expect(published.co2eGrams == nil || published.co2eGrams == want.grams, "\(published)")
        }
        // A CO2e two persons make all of (k = 2: p2's and p3's bus trips) is left out, and the row stands.
        let bus = try #require(row("all", "bus"))
        #expect(bus.trips == 2 && bus.co2eGrams == nil && table.dominatedMagnitudes > 0)
        // Zone b and the persons without a zone are one person each: left out, and so is what
        // would give them away. With `all car` and `a car` both published, `b car` (one person)
        // would follow; the audit leaves out at least one of them.
        #expect(row("b", "all") == nil && row(CO2eTable.noZone, "all") == nil && row("b", "car") == nil)
        #expect(table.rows.allSatisfy { $0.persons >= 2 })
        #expect(table.suppressedPrimary == 7 && table.suppressedComplementary == 3)
        #expect([row("all", "car"), row("a", "car")].compactMap { $0 }.count < 2, "b's car CO2e would be all's minus a's")
        // Per person and week: p1's 1,000 g over 2 valid days is 3,500 g a week; p3's vehicle trip has none.
        let persons = CO2eTable.persons(trips, validDays: days)
        #expect(persons.map(\.person) == ["p1", "p2", "p3", "p4", "p5"])
        #expect(persons[0].co2eGrams == 1000 && persons[0].weeklyGrams == 3500 && persons[0].trips == 2)
        #expect(persons[2].tripsWithoutFactor == 1 && persons[2].co2eGrams == 500 && persons[2].weeklyGrams == 3500)
        print("CO2e table, k = 2: published \(table.rows.map { "\($0.zone) \($0.mode)" })")
    }

    /// One car driver and one cyclist (three trips each) among walkers and bus riders, k = 3: the
    /// car and bike rows are left out (each keeps the other within ±3 trips), and since a
    /// bike's CO2e is 0 by its factor, `all` minus bus minus walk would be the driver's own
    /// CO2e; the audit leaves out one more, the smaller.
    @Test func aModeThatEmitsNothingDoesNotHideTheOneThatDoes() {
        func trip(_ person: String, _ mode: String, _ grams: Double) -> PlanningTrip {
            PlanningTrip(
                device: person, person: person, startSeconds: 0, origin: nil, destination: nil, durationSeconds: 60,
                distanceMeters: 1000, mainMode: mode, co2eGrams: grams)
        }
        let trips =
            ["w1", "w2", "w3"].map { trip($0, "walk", 0) } + ["b1", "b2", "b3"].map { trip($0, "bus", 104) }
            + (1...3).map { _ in trip("c1", "car", 1672) } + (1...3).map { _ in trip("k1", "bike", 0) }
        let days = Dictionary(trips.map { ($0.person, 1) }, uniquingKeysWith: { first, _ in first })
        let zeroModes = CO2eTable.zeroModes(of: trips, factors: .ukDESNZ2025)
        #expect(zeroModes == ["walk", "bike"])
        let naive = CO2eTable(trips, validDays: days, homeZones: nil, minimumPersons: 3)
        #expect(naive.rows.map(\.mode) == ["all", "bus", "walk"], "without the zero modes known, all three are published")
        let audited = CO2eTable(trips, validDays: days, homeZones: nil, zeroModes: zeroModes, minimumPersons: 3)
        #expect(audited.rows.map(\.mode) == ["all", "walk"] && audited.suppressedComplementary == 1, "\(audited.rows.map(\.mode))")
        #expect((audited.suppressedTrips, audited.complementaryTrips) == (6, 3), "the car and bike trips under k, the bus trips beside")
        #expect(!(audited.rows.contains { $0.mode == "all" } && audited.rows.contains { $0.mode == "bus" }))
    }

    @Test func withoutZonesEveryoneIsOneZone() {
        let trips = (1...3).map {
            PlanningTrip(
                device: "d\($0)", person: "p\($0)", startSeconds: 0, origin: nil, destination: nil, durationSeconds: 60,
                distanceMeters: 1000, mainMode: "bus", co2eGrams: 103.85)
        }
        let table = CO2eTable(trips, validDays: ["p1": 1, "p2": 1, "p3": 1], homeZones: nil, minimumPersons: 3)
        #expect(table.rows.map(\.zone) == ["all", "all"] && table.rows.map(\.mode) == ["all", "bus"])
        #expect(table.rows.allSatisfy { abs(($0.co2eGrams ?? .nan) - 311.55) < 1e-9 && $0.weightedGrams == nil && $0.personDays == 3 })
        #expect(table.dominatedMagnitudes == 0, "three persons' equal parts: no two make 85 %")
    }
}
