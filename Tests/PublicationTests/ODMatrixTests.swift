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
            mainModes: ["car": trips], modePersons: ["car": persons])
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

    /// A share is a count (share × trips) of its own persons: one person's bike trip in a row of
    /// six persons is left out, with a second share so that it is not the row's trips less the
    /// others; the row itself stands.
    @Test func aShareFewerThanKPersonsMadeIsLeftOutWithASecondAndTheRowStands() throws {
        let row = ODGroup(
            band: "all_day", origin: "home", destination: "work", trips: 9, devices: 6, persons: 6,
            durationsSeconds: Array(repeating: 600, count: 9), distancesMeters: Array(repeating: 2000, count: 9),
            mainModes: ["walk": 5, "bike": 1, "car": 3], modePersons: ["walk": 5, "bike": 1, "car": 3])
        let od = ODMatrix(groups: [row], minimumPersons: 3)
        let published = try #require(od.rows.first)
        #expect(published.trips == 9 && published.suppressedModes.contains("bike") && published.suppressedModes.count == 2)
        #expect(published.modeShares["bike"] == nil && published.modeShares.count == 1)
        #expect(od.suppressedShares == 1 && od.complementaryShares == 1)
        // Groups a distributed run's reduction made before persons per mode: the row, no share.
        var old = row
        old.modePersons = [:]
        let before = ODMatrix(groups: [old], minimumPersons: 3)
        #expect(before.rows.count == 1 && before.rows[0].modeShares.isEmpty && before.rows[0].suppressedModes.count == 3)
    }
}
