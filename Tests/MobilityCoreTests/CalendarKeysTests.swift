import MobilityCore
import Testing

/// Local time against the rules as the law states them, not against the tz database the code
/// reads: Directive 2000/84/EC, Articles 2 and 3 (summer time in the EU from 01:00 UTC on the
/// last Sunday of March to 01:00 UTC on the last Sunday of October), and the US Energy Policy
/// Act of 2005, §110 (02:00 local on the second Sunday of March to 02:00 local on the first
/// Sunday of November).
@Suite struct CalendarKeysTests {
    let paris = CalendarKeys(zone: "Europe/Paris")!
    func utc(_ text: String) -> Double { ISO8601.parse(text)!.secondsSince1970 }

    @Test func parisChangesAtOneUTCOnTheLastSundaysOfMarchAndOctober() {
        #expect(paris.offsetSeconds(at: utc("2024-03-31T00:59:59Z")) == 3600)
        #expect(paris.offsetSeconds(at: utc("2024-03-31T01:00:00Z")) == 7200)
        #expect(paris.offsetSeconds(at: utc("2024-10-27T00:59:59Z")) == 7200)
        #expect(paris.offsetSeconds(at: utc("2024-10-27T01:00:00Z")) == 3600)
        #expect(paris.hour(utc("2024-03-31T00:59:59Z")) == 1)
        #expect(paris.hour(utc("2024-03-31T01:00:00Z")) == 3) // 02:00–03:00 does not exist
        #expect(paris.hour(utc("2024-10-27T00:30:00Z")) == 2)
        #expect(paris.hour(utc("2024-10-27T01:30:00Z")) == 2) // 02:00–03:00 twice
    }

    @Test func aDayOfTwentyThreeHoursAndOneOfTwentyFive() {
        let march31 = paris.dayNumber(utc("2024-03-31T12:00:00Z"))
        #expect(CalendarKeys.dateText(march31) == "2024-03-31")
        #expect(paris.dayStart(march31) == utc("2024-03-30T23:00:00Z"))
        #expect(paris.dayStart(march31 + 1) - paris.dayStart(march31) == 23 * 3600)
        let october27 = paris.dayNumber(utc("2024-10-27T12:00:00Z"))
        #expect(paris.dayStart(october27) == utc("2024-10-26T22:00:00Z"))
        #expect(paris.dayStart(october27 + 1) - paris.dayStart(october27) == 25 * 3600)
        #expect(paris.dayStart(october27 + 2) - paris.dayStart(october27 + 1) == 24 * 3600)
        // The last instant of a day is that day's, the next the next day's.
        #expect(paris.dayNumber(paris.dayStart(october27 + 1) - 0.001) == october27)
        #expect(paris.dayNumber(paris.dayStart(october27 + 1)) == october27 + 1)
        #expect(paris.weekday(utc("2024-10-27T22:59:59Z")) == 6) // still Sunday in Paris
        #expect(paris.weekday(utc("2024-10-27T23:00:00Z")) == 0)
    }

    @Test func newYorkChangesAtTwoLocalOnTheSecondSundayOfMarchAndTheFirstOfNovember() {
        let newYork = CalendarKeys(zone: "America/New_York")!
        #expect(newYork.offsetSeconds(at: utc("2024-03-10T06:59:59Z")) == -5 * 3600)
        #expect(newYork.offsetSeconds(at: utc("2024-03-10T07:00:00Z")) == -4 * 3600)
        #expect(newYork.offsetSeconds(at: utc("2024-11-03T05:59:59Z")) == -4 * 3600)
        #expect(newYork.offsetSeconds(at: utc("2024-11-03T06:00:00Z")) == -5 * 3600)
        #expect(newYork.localText(utc("2024-11-03T05:30:00Z")) == "2024-11-03T01:30:00-04:00")
        #expect(newYork.localText(utc("2024-11-03T06:30:00Z")) == "2024-11-03T01:30:00-05:00")
    }

    @Test func aFixedOffsetIsNamedByIt() {
        #expect(CalendarKeys().name == "UTC")
        #expect(CalendarKeys(utcOffsetSeconds: 7200).name == "UTC+02:00")
        #expect(CalendarKeys(utcOffsetSeconds: -12_600).name == "UTC-03:30")
        let plusTwo = CalendarKeys(utcOffsetSeconds: 7200)
        #expect(plusTwo.hour(utc("2024-05-06T22:30:00Z")) == 0)
        #expect(plusTwo.dayStart(plusTwo.dayNumber(utc("2024-05-06T22:30:00Z"))) == utc("2024-05-06T22:00:00Z"))
        #expect(CalendarKeys(zone: "Europe/Atlantis") == nil)
    }

    @Test func aDeviceThatFliesFromLondonToTokyo() {
        let london = CalendarKeys(zone: "Europe/London")!, tokyo = CalendarKeys(zone: "Asia/Tokyo")!
        let landed = utc("2024-07-01T08:00:00Z") // 17:00 in Tokyo
        let trip = CalendarKeys(timeline: [(-.infinity, london), (landed, tokyo)])
        #expect(trip.zones == ["Europe/London", "Asia/Tokyo"])
        #expect(trip.name == "Europe/London then Asia/Tokyo")
        #expect(trip.zone(at: landed - 1) == "Europe/London")
        #expect(trip.hour(landed - 1) == 8) // 08:59:59 BST
        #expect(trip.hour(landed) == 17)
        // 1 July: from London's midnight (30 June 23:00 UTC) to Tokyo's (1 July 15:00 UTC), 16 h.
        let july1 = trip.dayNumber(landed)
        #expect(trip.dayStart(july1) == utc("2024-06-30T23:00:00Z"))
        #expect(trip.dayStart(july1 + 1) == utc("2024-07-01T15:00:00Z"))
        #expect(trip.dayNumber(landed - 1) == july1)
    }
}
