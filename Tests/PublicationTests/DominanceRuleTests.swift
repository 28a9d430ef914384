import MobilityCore
import Publication
import Testing
import Trips

/// The (2, 85 %) dominance rule on weighted values (`DominanceRule`), with the case: one
/// person of three weighted to a district's population.
@Suite struct DominanceRuleTests {
    @Test func aValueTwoPersonsMakeMostOfIsNotPublished() {
        #expect(DominanceRule.publishes([10, 10, 10], k: 3))
        #expect(!DominanceRule.publishes([10, 10], k: 3), "fewer than k contributors")
        #expect(!DominanceRule.publishes([2_112_000, 0, 0], k: 3), "one weighted person: the others gave nothing")
        #expect(!DominanceRule.publishes([80, 10, 5, 5], k: 3), "the two largest make 90 %")
        #expect(DominanceRule.publishes([40, 40, 10, 10], k: 3), "the two largest make 80 %")
        #expect(DominanceRule.publishes([5], k: 1), "k = 1 publishes one person's values on purpose")
    }

    /// Three persons' car and walk trips of one day; only p1 got a weight (2,112,000 per day).
    static func trips(weights: [String: Double]) -> [PlanningTrip] {
        ["p1", "p2", "p3"].flatMap { person in
            ["car", "walk"].map { mode in
                PlanningTrip(
                    device: person, person: person, startSeconds: 1_714_982_400 + 8 * 3600, origin: nil, destination: nil,
                    durationSeconds: 600, distanceMeters: 5000, mainMode: mode, dailyWeight: weights[person] ?? 0,
                    co2eGrams: mode == "car" ? 900 : 0)
            }
        }
    }

    @Test func oneWeightedPersonIsNotADistrictAndTheUnweightedRowsStand() throws {
        let lone = Self.trips(weights: ["p1": 2_112_000])
        let days = ["p1": 1, "p2": 1, "p3": 1]
        let co2e = CO2eTable(lone, validDays: days, homeZones: nil, zeroModes: ["walk"], minimumPersons: 3)
        let all = try #require(co2e.rows.first { $0.zone == "all" && $0.mode == "all" })
        #expect(all.persons == 3 && all.co2eGrams == 2700, "the unweighted row stands")
        #expect(all.weightedGrams == nil && co2e.rows.allSatisfy { ($0.weightedGrams ?? 0) == 0 }, "no weighted CO2e of one person")
        #expect(co2e.dominatedWeights > 0)
        let shares = ModeShareTable(
            lone.map {
                ModeShareTable.Trip(person: $0.person, startSeconds: $0.startSeconds, mode: $0.mainMode, dailyWeight: $0.dailyWeight)
            },
            calendars: LocalCalendars(), bands: TimeBands(), minimumPersons: 3, replicates: 50)
        #expect(!shares.rows.isEmpty && shares.rows.allSatisfy { $0.shareWeighted == nil && $0.tripsWeighted == nil })

        // Everyone weighted alike: the weighted values are published.
        let even = Self.trips(weights: ["p1": 1000, "p2": 1000, "p3": 1000])
        let balanced = CO2eTable(even, validDays: days, homeZones: nil, zeroModes: ["walk"], minimumPersons: 3)
        #expect(balanced.rows.first { $0.zone == "all" && $0.mode == "all" }?.weightedGrams == 2_700_000)
        #expect(balanced.dominatedWeights == 0)
    }

    /// Unweighted magnitudes too: two long car commutes and one short make a car row whose CO2e
    /// is 99 % two persons', so each could read the other's from it. The CO2e of the car row is
    /// left out, and of the whole row too (walking emits nothing: it is the car's, as dominated);
    /// trips, persons and the walk row stand.
    @Test func aCO2eTwoPersonsMakeMostOfIsLeftOutAndTheRowStands() throws {
        let trips = [("p1", 9000.0), ("p2", 8000), ("p3", 100)].flatMap { person, grams in
            [
                PlanningTrip(
                    device: person, person: person, startSeconds: 0, origin: nil, destination: nil, durationSeconds: 600,
                    distanceMeters: grams * 5, mainMode: "car", co2eGrams: grams),
                PlanningTrip(
                    device: person, person: person, startSeconds: 0, origin: nil, destination: nil, durationSeconds: 600,
                    distanceMeters: 1000, mainMode: "walk", co2eGrams: 0)
            ]
        }
        let table = CO2eTable(trips, validDays: ["p1": 1, "p2": 1, "p3": 1], homeZones: nil, zeroModes: ["walk"], minimumPersons: 3)
        let car = try #require(table.rows.first { $0.mode == "car" })
        let all = try #require(table.rows.first { $0.mode == CO2eTable.all })
        let walk = try #require(table.rows.first { $0.mode == "walk" })
        #expect(car.trips == 3 && car.persons == 3 && car.co2eGrams == nil && car.distanceMeters == nil)
        #expect(all.trips == 6 && all.co2eGrams == nil, "all's CO2e is the car's")
        #expect(walk.co2eGrams == 0 && walk.distanceMeters == 3000)
        #expect(table.dominatedMagnitudes == 2 && table.complementaryMagnitudes == 0)
    }
}
