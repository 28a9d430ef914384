import MobilityCore
import Publication
import Testing
import Trips

/// The modal split's distance and time are magnitudes (issue 81, step 5): published only where
/// the (2, 85 %) dominance rule holds (`DominanceRule`), while the row's trips, a count of k
/// persons or more, stand.
@Suite struct ModalSplitDominanceTests {
    /// Four persons walk to a bus stop and ride the bus at 08:00; ann rides 200 km, the others
    /// 3 km. The bus row has 4 persons (k = 3) but ann makes 94 % of its distance, and of the
    /// whole day's: her ride is not published, nor what would give it away.
    static let persons = ["ann", "ben", "cem", "dov"]
    static func entries(annBusMeters: Double) -> (trips: [ModalTotal.Entry], legs: [ModalTotal.Entry]) {
        let trips = persons.map { ModalTotal.Entry(person: $0, startSeconds: 8 * 3600, mode: "bus") }
        let legs = persons.flatMap { person in
            [
                ModalTotal.Entry(person: person, startSeconds: 7.9 * 3600, mode: "walk", distanceMeters: 400, durationSeconds: 300),
                ModalTotal.Entry(
                    person: person, startSeconds: 8 * 3600, mode: "bus", distanceMeters: person == "ann" ? annBusMeters : 3000,
                    durationSeconds: 900)
            ]
        }
        return (trips, legs)
    }

    @Test func aRideOnePersonMakesMostOfIsLeftOutWhileTheTripsStand() throws {
        let (trips, legs) = Self.entries(annBusMeters: 200_000)
        let totals = ModalTotal.totals(trips: trips, legs: legs)
        let bus = try #require(totals.first { $0.dimension == "all" && $0.mode == "bus" })
        #expect(bus.distanceByPerson["ann"] == 200_000 && bus.distanceByPerson.count == 4)
        let split = ModalSplit(totals: totals, minimumPersons: 3)
        let busRow = try #require(split.rows.first { $0.dimension == "all" && $0.mode == "bus" })
        #expect(busRow.trips == 4 && busRow.tripShare == 1, "the count of 4 persons stands")
        #expect(busRow.distanceMeters == nil && busRow.distanceShare == nil && busRow.durationSeconds == nil)
        // The whole day's distance is ann's too (94 %): any published share would give it, and
        // with it her ride by subtraction; so no row of the group publishes its distance.
        #expect(split.rows.filter { $0.dimension == "all" }.allSatisfy { $0.distanceMeters == nil }, "\(split.rows)")
        #expect(split.dominatedMagnitudes > 0, "\(split.dominatedMagnitudes)")
        // Each group either publishes no distance, or leaves out at least two (none follows by subtraction).
        for group in Set(split.rows.map { [$0.dimension, $0.key] }) {
            let rows = split.rows.filter { [$0.dimension, $0.key] == group }
            let all = totals.filter { [$0.dimension, $0.key] == group }.count
            let hidden = all - rows.filter { $0.distanceMeters != nil }.count
            #expect(hidden == 0 || hidden == all || hidden >= 2, "\(group): \(hidden) of \(all) left out")
        }
        // Ann's hour is hers too: its bus row keeps its trips and leaves out her distance.
        let hour = split.rows.first { $0.dimension == "hour" && $0.mode == "bus" }
        #expect(hour?.trips == 4 && hour?.distanceMeters == nil)
    }

    /// The same four with rides of like length: nothing dominated, every distance published.
    @Test func ridesOfLikeLengthPublishTheirDistance() throws {
        let (trips, legs) = Self.entries(annBusMeters: 3500)
        let split = ModalSplit(totals: ModalTotal.totals(trips: trips, legs: legs), minimumPersons: 3)
        #expect(split.dominatedMagnitudes == 0 && split.complementaryMagnitudes == 0)
        let bus = try #require(split.rows.first { $0.dimension == "all" && $0.mode == "bus" })
        #expect(bus.distanceMeters == 12_500 && bus.durationSeconds == 3600)
        #expect(split.rows.allSatisfy { $0.distanceMeters != nil && $0.durationShare != nil })
    }

    /// Time, not distance: ann's bus leg lasts 5 h, the others' 15 min. The rule holds for each
    /// magnitude apart; one failing leaves both out (they are published together).
    @Test func aDominatedTimeLeavesTheRowsMagnitudesOut() throws {
        let trips = Self.entries(annBusMeters: 3000).trips
        var legs = Self.entries(annBusMeters: 3000).legs
        for index in legs.indices where legs[index].person == "ann" && legs[index].mode == "bus" { legs[index].durationSeconds = 5 * 3600 }
        let split = ModalSplit(totals: ModalTotal.totals(trips: trips, legs: legs), minimumPersons: 3)
        let bus = try #require(split.rows.first { $0.dimension == "all" && $0.mode == "bus" })
        #expect(bus.trips == 4 && bus.durationSeconds == nil && bus.distanceMeters == nil)
        #expect(split.dominatedMagnitudes > 0)
        // At k = 1 (--allow-identifying-k) nothing is held back.
        let open = ModalSplit(totals: ModalTotal.totals(trips: trips, legs: legs), minimumPersons: 1)
        #expect(open.rows.allSatisfy { $0.durationSeconds != nil })
    }
}
