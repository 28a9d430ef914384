import Foundation
import MobilityCore
import Publication
import Testing
import Trips

/// The geofence OD table's time bands (`ODMatrix`): the same audit as the zone OD's.
@Suite struct ODMatrixBandTests {
    func group(_ band: String, _ trips: Int, _ persons: Int) -> ODGroup {
        ODGroup(
            band: band, origin: "home", destination: "work", trips: trips, devices: persons, persons: persons,
            durationsSeconds: Array(repeating: 600, count: trips), distancesMeters: Array(repeating: 2000, count: trips),
            mainModes: ["car": trips])
    }

    @Test func aLoneBandRowUnderKTakesASecondWithItAndOldGroupsStandAlone() {
        let od = ODMatrix(groups: [group("all_day", 5, 4), group("am_peak", 4, 3), group("off_peak", 1, 1)], minimumPersons: 3)
        #expect(od.rows.map(\.band) == ["all_day"] && od.suppressedBandRows == 1 && od.complementaryRows == 1)
        let both = ODMatrix(groups: [group("all_day", 7, 6), group("am_peak", 4, 3), group("pm_peak", 3, 3)], minimumPersons: 3)
        #expect(both.rows.map(\.band) == ["all_day", "am_peak", "pm_peak"] && both.complementaryRows == 0)
        // Groups a version before bands reduced (all_day alone) are published as they were.
        #expect(ODMatrix(groups: [group("all_day", 5, 4)], minimumPersons: 3).rows.count == 1)
        #expect(ODMatrixCounts(od).line.contains("1 geofence pairs published") && ODMatrixCounts(both).bandRows == 2)
    }
}
