import MobilityCore
import Testing
import Trips

/// The modal split's partial rows (`ModalTotal.partialTable`) are the rows of `totals`: the same
/// keys, trips and persons, and legs' values that, added in the order given, are its totals to
/// the last bit (what the reducer of a distributed run adds over the parts).
@Suite struct PartialGroupsTests {
    @Test func partialModalRowsAddUpToTheTotalsExactly() throws {
        var generator = SeededGenerator(seed: 11)
        let persons = ["ann", "bo", "cy"], modes = ["walk", "bus", "car"]
        let start = 1_714_977_212.0
        func entry(leg: Bool) -> ModalTotal.Entry {
            ModalTotal.Entry(
                person: persons.randomElement(using: &generator)!, startSeconds: start + Double.random(in: 0..<172_800, using: &generator),
                mode: modes.randomElement(using: &generator)!,
                distanceMeters: leg ? Double.random(in: 0..<1e5, using: &generator) * (Bool.random(using: &generator) ? 1e12 : 1) : 0,
                durationSeconds: leg ? Double.random(in: 0..<3600, using: &generator) : 0)
        }
        let trips = (0..<200).map { _ in entry(leg: false) }, legs = (0..<500).map { _ in entry(leg: true) }
        let totals = ModalTotal.totals(trips: trips, legs: legs)
        let partial = ModalTotal.partialTable(trips: trips, legs: legs)
        #expect(
            partial.columns.map(\.merge) == [
                .key, .key, .key, .sum, .orderedSum, .orderedSum, .distinctCount, .distinctCount, .distinctCount, .personSums,
                .personSums
            ])
        #expect(partial.rows.count == totals.count)
        for row in partial.rows {
            guard case .text(let dimension?) = row[0], case .text(let key?) = row[1], case .text(let mode?) = row[2],
                case .integer(let tripCount) = row[3], case .numbers(let distances) = row[4], case .numbers(let durations) = row[5],
                case .names(let names) = row[6], case .names(let tripNames) = row[7], case .names(let legNames) = row[8],
                case .personNumbers(let distanceParts) = row[9], case .personNumbers(let durationParts) = row[10]
            else {
                Issue.record("unexpected values \(row)")
                continue
            }
            let total = try #require(totals.first { $0.dimension == dimension && $0.key == key && $0.mode == mode })
            #expect(total.trips == tripCount && total.persons == names.count)
            #expect(total.tripPersons == tripNames.count && total.legPersons == legNames.count)
            #expect(names == tripNames.union(legNames))
            #expect(distances.reduce(0, +).bitPattern == total.distanceMeters.bitPattern)
            #expect(durations.reduce(0, +).bitPattern == total.durationSeconds.bitPattern)
            // Each person's part, as the reducer adds it (one value at a time, in order), is the totals' to the last bit.
            #expect(distanceParts.mapValues { $0.reduce(0, +).bitPattern } == total.distanceByPerson.mapValues(\.bitPattern))
            #expect(durationParts.mapValues { $0.reduce(0, +).bitPattern } == total.durationByPerson.mapValues(\.bitPattern))
            #expect(Set(distanceParts.keys) == legNames)
        }
    }
}
