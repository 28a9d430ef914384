import MobilityCore
import Publication
import Testing
import Trips

/// The modal split's suppression (`ModalSplit`, with `CellSuppression`) on its own relations.
@Suite struct ModalSplitSuppressionTests {
    /// The modal split's own relations: three groups of a dimension under "all", one mode of one
    /// person in one hour; nothing left out can be recovered, and what is published holds k.
    @Test func theModalSplitLeavesNoPersonRecoverable() {
        func total(_ dimension: String, _ key: String, _ mode: String, _ trips: Int, _ persons: Int) -> ModalTotal {
            ModalTotal(
                dimension: dimension, key: key, mode: mode, trips: trips, distanceMeters: Double(trips) * 1000,
                durationSeconds: Double(trips) * 600, persons: persons)
        }
        let totals = [
            total("all", "all", "walk", 30, 9), total("all", "all", "car", 20, 6), total("all", "all", "bike", 1, 1),
            total("hour", "07", "walk", 10, 5), total("hour", "07", "car", 12, 4), total("hour", "07", "bike", 1, 1),
            total("hour", "08", "walk", 12, 6), total("hour", "08", "car", 5, 3),
            total("hour", "17", "walk", 8, 4), total("hour", "17", "car", 3, 3)
        ]
        let split = ModalSplit(totals: totals, minimumPersons: 3)
        #expect(split.rows.allSatisfy { $0.persons >= 3 } && !split.rows.contains { $0.mode == "bike" })
        #expect(
            split.suppressedPrimary == 2 && split.suppressedComplementary >= 2,
            "\(split.suppressedPrimary) \(split.suppressedComplementary)")
        // With the two bike rows gone, "all" walk and car still give the bike's share unless one of them goes too.
        let published = Set(split.rows.map { "\($0.dimension) \($0.key) \($0.mode)" })
        #expect(!(published.contains("all all walk") && published.contains("all all car")), "\(published.sorted())")
        #expect(!(published.contains("hour 07 walk") && published.contains("hour 07 car")), "\(published.sorted())")
        // The same rows whatever order the totals come in (a dictionary's, a distributed run's reducers').
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<10 {
            #expect(ModalSplit(totals: totals.shuffled(using: &generator), minimumPersons: 3).rows == split.rows)
        }
    }

    /// A row's trips are one person's, its legs four persons': the persons who made its trips
    /// are fewer than k, so its trip count is left out (and whatever would give it away),
    /// though the row's persons (trip or leg) are k or more.
    @Test func aRowsTripsOfOnePersonDoNotPassKOnOthersLegs() {
        let entries = (
            trips: [ModalTotal.Entry(person: "ann", startSeconds: 8 * 3600, mode: "bus")]
                + ["ann", "ben", "cem", "dov"].flatMap { person in
                    (0..<3).map { ModalTotal.Entry(person: person, startSeconds: 7 * 3600 + Double($0) * 60, mode: "walk") }
                },
            legs: ["ann", "ben", "cem", "dov"].flatMap { person in
                [
                    ModalTotal.Entry(person: person, startSeconds: 8 * 3600, mode: "bus", distanceMeters: 3000, durationSeconds: 600),
                    ModalTotal.Entry(person: person, startSeconds: 7 * 3600, mode: "walk", distanceMeters: 800, durationSeconds: 600)
                ]
            }
        )
        let totals = ModalTotal.totals(trips: entries.trips, legs: entries.legs)
        let bus = totals.first { $0.dimension == "all" && $0.mode == "bus" }!
        #expect((bus.persons, bus.tripPersons, bus.legPersons) == (4, 1, 4))
        let split = ModalSplit(totals: totals, minimumPersons: 3)
        #expect(
            !split.rows.contains { $0.mode == "bus" && $0.trips > 0 },
            "one person's bus trip published as a count: \(split.rows.filter { $0.mode == "bus" })")
        #expect(split.suppressedPrimary > 0)
        // The part tables a distributed run merges carry both counts of persons.
        let partial = ModalTotal.partialTable(trips: entries.trips, legs: entries.legs)
        #expect(partial.columns.map(\.name).suffix(5).prefix(3) == ["persons", "trip_persons", "leg_persons"])
    }
}
