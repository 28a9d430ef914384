import Foundation
import MobilityCore
import Publication
import Testing
import Trips

/// `mode_shares.csv`'s table (`ModeShareTable`): bands on each person's clock, k persons per
/// row, and the modal split's audit against subtraction.
@Suite struct ModeShareTableTests {
    @Test func rowsHoldKPersonsAndNoLeftOutRowFollowsFromTheOthers() throws {
        let monday = 1_714_953_600.0 // 2024-05-06 00:00 UTC
        var trips: [ModeShareTable.Trip] = []
        // Five persons walk and drive in the morning peak; one cycles in the morning peak (one person: under k = 3).
        for p in 0..<5 {
            trips.append(.init(person: "p\(p)", startSeconds: monday + 8 * 3600, mode: "walk"))
            trips.append(.init(person: "p\(p)", startSeconds: monday + 12 * 3600, mode: "car"))
        }
        trips.append(.init(person: "p0", startSeconds: monday + 8.5 * 3600, mode: "bike"))
        let table = ModeShareTable(trips, calendars: LocalCalendars(), bands: TimeBands(), minimumPersons: 3, replicates: 200)
        let keys = table.rows.map { "\($0.band) \($0.share.mode)" }
        #expect(table.rows.allSatisfy { $0.share.persons >= 3 })
        #expect(!keys.contains("all_day bike") && !keys.contains("am_peak bike"), "\(keys)")
        // With bike gone, am_peak's and all_day's walk rows with their shares give bike's share
        // away unless one more row of each group goes: the audit takes it.
        #expect(table.suppressedPrimary == 2 && table.suppressedComplementary >= 1, "\(table.suppressedComplementary)")
        // The trips lost: the one bike trip under k, and the whole-day rows beside it; with what
        // is published, every one of the 11 trips.
        let published = table.rows.filter { $0.band == TimeBands.allDay }.reduce(0) { $0 + $1.share.trips }
        #expect(table.suppressedTrips == 1 && published + table.suppressedTrips + table.complementaryTrips == 11)
        let car = try #require(table.rows.first { $0.band == "off_peak" && $0.share.mode == "car" })
        #expect(car.share.share == 1 && car.share.trips == 5 && car.share.persons == 5)
        // Shares are of every trip, the left-out ones included.
        if let allWalk = table.rows.first(where: { $0.band == "all_day" && $0.share.mode == "walk" }) {
            #expect(abs(allWalk.share.share - 5.0 / 11) < 1e-12)
            #expect(allWalk.share.low! <= allWalk.share.share && allWalk.share.share <= allWalk.share.high!)
        }
    }
}
