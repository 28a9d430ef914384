import Foundation
import MobilityCore
import Testing
import TestSupport

@testable import Trips

/// Person-days with known answers: the day daylight saving ends in Paris (25 h), a day with a
/// 3 h gap, and a device that travels from London to Paris.
@Suite struct PersonDaysTests {
    let paris = CalendarKeys(zone: "Europe/Paris")!
    func utc(_ text: String) -> Double { ISO8601.parse(text)!.secondsSince1970 }

    /// Home from local midnight, to work 6.6 km east at 10 m/s, work, 3 h with no fix after
    /// which the phone is 300 m further (it moved unrecorded: no stay across the gap), work
    /// there, home, until the next local midnight.
    func day(startingAt midnight: Double, lengthSeconds: Double) -> TrackScript {
        var script = TrackScript()
        script.intervalSeconds = 5
        script.time = midnight
        script.stay(8 * 3600)
        script.move(to: SIMD2(6640, 0), speedMetersPerSecond: 10, mode: .car)
        script.stay(3 * 3600)
        script.gap(3 * 3600)
        script.position = SIMD2(6940, 0)
        script.stay(3 * 3600)
        script.move(to: SIMD2(0, 0), speedMetersPerSecond: 10, mode: .car)
        script.stay(midnight + lengthSeconds - script.time)
        return script
    }

    func days(_ script: TrackScript, calendars: LocalCalendars) -> [PersonDay] {
        let trips = TripAnalysis().analyse(script.track(), geofences: [], modes: script.timeline)
        return PersonDays([trips], persons: ["d1": "anna"], calendars: calendars).days
    }

    @Test func theDayDaylightSavingEndsHasTwentyFiveHoursAndAGapOfThree() {
        let midnight = utc("2024-10-26T22:00:00Z") // 27 October 00:00 in Paris (UTC+2)
        let script = day(startingAt: midnight, lengthSeconds: 25 * 3600)
        let calendars = LocalCalendars(
            paris, devices: ["d1": .init(calendar: paris, source: "configuration")], personDevices: ["anna": "d1"])
        let result = days(script, calendars: calendars)
        #expect(result.map(\.date) == ["2024-10-27"])
        let sunday = result[0]
        #expect(sunday.person == "anna")
        #expect(sunday.zone == "Europe/Paris")
        #expect(sunday.lengthSeconds == 90_000)
        // Tracked: all but the gap; the gap runs from the last fix before it to the first after.
        #expect(abs(sunday.untrackedSeconds - (3 * 3600 + 5)) <= 10, "untracked \(sunday.untrackedSeconds)")
        // Besides the gap, only the seconds between fixes where a stay and a leg meet, and after the last fix.
        let long = sunday.untracked.filter { $0.seconds >= 60 }
        #expect(long.count == 1 && sunday.untracked.allSatisfy { $0.seconds >= 60 || $0.seconds <= 5 })
        #expect(abs(long[0].startSeconds - (midnight + 11 * 3600 + 664)) <= 10)
        #expect(sunday.valid)
        #expect(sunday.fixes == script.points.count)
        #expect(abs(sunday.trackedShare - (90_000 - 3 * 3600 - 5) / 90_000) < 0.001)
    }

    @Test func theDayDaylightSavingStartsHasTwentyThree() {
        let midnight = utc("2024-03-30T23:00:00Z") // 31 March 00:00 in Paris (UTC+1)
        let script = day(startingAt: midnight, lengthSeconds: 23 * 3600)
        let result = days(script, calendars: LocalCalendars(paris))
        #expect(result.map(\.date) == ["2024-03-31"])
        #expect(result[0].lengthSeconds == 82_800)
        #expect(abs(result[0].trackedSeconds - (82_800 - 3 * 3600 - 5)) <= 10)
    }

    /// Monday's hour, two days without a fix, then Wednesday 07:00 to Thursday 03:00: Tuesday
    /// was recorded by nobody, so it is no person-day (counted apart), not a day without travel.
    @Test func aShortDayIsInvalidAndADayWithoutAFixIsNoPersonDay() {
        var script = TrackScript()
        script.time = utc("2024-05-06T06:00:00Z")
        script.stay(3600) // 1 h on Monday (UTC)
        script.gap(2 * 86_400)
        script.stay(20 * 3600) // Wednesday 07:00 to Thursday 03:00
        let result = days(script, calendars: LocalCalendars())
        #expect(result.map(\.date) == ["2024-05-06", "2024-05-08", "2024-05-09"])
        #expect(result.map(\.valid) == [false, true, false])
        var parameters = PersonDayParameters()
        parameters.minimumCoverage = 0.05
        let trips = TripAnalysis().analyse(script.track(), geofences: [], modes: script.timeline)
        let lenient = PersonDays([trips], persons: [:], calendars: LocalCalendars(), parameters: parameters)
        #expect(lenient.days.map(\.valid) == [false, true, true] && lenient.daysNotRecorded == 1)
        #expect(lenient.days.map(\.person) == Array(repeating: "d1", count: 3))
        let summary = lenient.summary()
        #expect(summary.personDays == 3 && summary.valid == 2 && summary.daysNotRecorded == 1 && summary.noValidDay == nil)
        // The last fix of each stay ends it: 1 h and 3 h less a fix interval (5 s).
        let expected: [Double] = [3595, 61_200, 10_795]
        #expect(lenient.days.map(\.trackedSeconds) == expected)
        #expect(summary.medianTrackedShare == 10_795.0 / 86_400)
        // No alarm before a week of earlier runs, whatever the figure; then one below half the panel's usual median.
        #expect(!summary.belowFloor && summary.warning == nil && summary.earlierRuns == 0)
        #expect(!lenient.summary(earlierMedians: Array(repeating: 0.5, count: 6)).belowFloor)
        let alarmed = lenient.summary(earlierMedians: Array(repeating: 0.1, count: 3) + Array(repeating: 0.5, count: 7))
        #expect(alarmed.belowFloor && alarmed.earlierRuns == 10 && alarmed.usualMedianTrackedShare == 0.5)
        #expect(alarmed.warning?.contains("below 50 % of the panel's usual 50 % (the median of its last 10 runs") == true)
        #expect(!lenient.summary(earlierMedians: Array(repeating: 0.2, count: 7)).belowFloor, "0.125 is not below half of 0.2")
        // Every day below the threshold: one sentence says what that leaves empty and what changes it.
        let strict = PersonDays([trips], persons: [:], calendars: LocalCalendars()).summary()
        #expect(strict.valid == 1)
        parameters.minimumCoverage = 0.9
        let none = PersonDays([trips], persons: [:], calendars: LocalCalendars(), parameters: parameters).summary()
        #expect(none.valid == 0 && none.noValidDay?.contains("--study-window HH:MM-HH:MM") == true)
    }

    /// A one-day study from 09:00 to 16:00 (Paris): the day's coverage is that of its hours, so
    /// a phone that recorded them makes a valid day, and one that stopped at 11:00 does not.
    @Test func aStudyWindowMakesAOneDayStudysDaysValid() {
        func study(until end: String) -> PersonDays {
            var script = TrackScript()
            script.time = utc("2024-06-12T06:55:00Z") // 08:55 CEST
            script.stay(2 * 3600)
            script.move(to: SIMD2(3000, 0), speedMetersPerSecond: 8, mode: .bike)
            script.stay(utc(end) - script.time)
            var parameters = PersonDayParameters()
            parameters.window = "09:00-16:00"
            let calendars = LocalCalendars(paris, devices: ["d1": .init(calendar: paris, source: "configuration")])
            let trips = TripAnalysis().analyse(script.track(), geofences: [], modes: script.timeline)
            return PersonDays([trips], persons: ["d1": "anna"], calendars: calendars, parameters: parameters)
        }
        let whole = study(until: "2024-06-12T14:05:00Z") // to 16:05 CEST
        #expect(whole.days.count == 1 && whole.days[0].valid)
        #expect(whole.days[0].startSeconds == utc("2024-06-12T07:00:00Z") && whole.days[0].endSeconds == utc("2024-06-12T14:00:00Z"))
        #expect(whole.days[0].trackedShare > 0.99 && whole.summary().window == "09:00-16:00")
        // The same hours on the whole day: 7 h of 24 is no valid day.
        #expect(
            days(
                {
                    var script = TrackScript()
                    script.time = utc("2024-06-12T06:55:00Z")
                    script.stay(7 * 3600 + 600)
                    return script
                }(), calendars: LocalCalendars(paris, devices: ["d1": .init(calendar: paris, source: "configuration")])
            ).allSatisfy { !$0.valid })
        let stopped = study(until: "2024-06-12T09:00:00Z") // to 11:00 CEST
        #expect(stopped.days.count == 1 && !stopped.days[0].valid)
        #expect(abs(stopped.days[0].trackedShare - 2.0 / 7) < 0.01, "\(stopped.days[0].trackedShare)")
        #expect(PersonDayParameters().problem == nil)
        var wrong = PersonDayParameters()
        wrong.window = "16:00-09:00"
        #expect(wrong.problem?.contains("HH:MM-HH:MM") == true)
    }

    @Test func aStoredConfigurationWithoutTheNewerKeysTakesTheirDefaults() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let parameters = try decoder.decode(PersonDayParameters.self, from: Data(#"{"minimum_coverage": 0.7}"#.utf8))
        #expect(
            parameters.minimumCoverage == 0.7 && parameters.coverageFloor == 0.5 && parameters.purposeMethod == .osna
                && parameters.window == nil)
    }

    @Test func aTravellersDayTakesTheZoneOfItsFirstStay() {
        let (london, tokyo) = (CalendarKeys(zone: "Europe/London")!, CalendarKeys(zone: "Asia/Tokyo")!)
        // Slept in London, flew, landed at 08:00 UTC (17:00 in Tokyo), slept in a Tokyo hotel.
        let landed = utc("2024-07-01T08:00:00Z")
        let fixes = LocalCalendars.Zone(calendar: CalendarKeys(timeline: [(-.infinity, london), (landed, tokyo)]), source: "fixes")
        let stays = [
            (utc("2024-06-30T22:00:00Z"), utc("2024-07-01T06:00:00Z")), (utc("2024-07-01T10:00:00Z"), utc("2024-07-02T00:00:00Z"))
        ]
        let byDays = DeviceZone.byFirstStays(fixes, stays: stays).calendar
        // 1 July is London's day, from its midnight to Tokyo's (15:00 UTC); 2 July is Tokyo's.
        #expect(byDays.zone(at: landed) == "Europe/London")
        #expect(byDays.zone(at: utc("2024-07-01T15:00:00Z")) == "Asia/Tokyo")
        let july1 = byDays.dayNumber(landed)
        #expect(byDays.dayStart(july1) == utc("2024-06-30T23:00:00Z"))
        #expect(byDays.dayStart(july1 + 1) == utc("2024-07-01T15:00:00Z"))
        #expect(byDays.hour(utc("2024-07-01T14:00:00Z")) == 15) // still London's clock on its day

        // A day trip from Elvas into Badajoz and back: the day is Portugal's all through.
        let (lisbon, madrid) = (CalendarKeys(zone: "Europe/Lisbon")!, CalendarKeys(zone: "Europe/Madrid")!)
        let (crossed, back) = (utc("2024-07-01T09:00:00Z"), utc("2024-07-01T17:00:00Z"))
        let trip = LocalCalendars.Zone(
            calendar: CalendarKeys(timeline: [(-.infinity, lisbon), (crossed, madrid), (back, lisbon)]), source: "fixes")
        let night = [(utc("2024-06-30T20:00:00Z"), utc("2024-07-01T07:00:00Z")), (utc("2024-07-01T19:00:00Z"), utc("2024-07-02T07:00:00Z"))]
        #expect(DeviceZone.byFirstStays(trip, stays: night).calendar.zones == ["Europe/Lisbon"])
        // Without stays, the zone at the new zone's midnight decides; a named zone is left as it is.
        #expect(DeviceZone.byFirstStays(fixes, stays: []).calendar.zone(at: utc("2024-07-01T15:00:00Z")) == "Asia/Tokyo")
        let named = LocalCalendars.Zone(calendar: fixes.calendar, source: "manifest")
        #expect(DeviceZone.byFirstStays(named, stays: stays) == named)
    }

    @Test func aDeviceThatTravelsFromLondonToParisChangesZoneOnArrival() {
        var points: [TrackPoint] = []
        let start = utc("2024-07-01T06:00:00Z")
        for second in stride(from: 0.0, to: 4 * 3600, by: 10) { // London, 07:00–11:00 BST
            points.append(TrackPoint(timeSeconds: start + second, latitudeDegrees: 51.5074, longitudeDegrees: -0.1278))
        }
        let landed = start + 6 * 3600 // Paris, from 14:00 CEST on
        for second in stride(from: 0.0, to: 8 * 3600, by: 10) {
            points.append(TrackPoint(timeSeconds: landed + second, latitudeDegrees: 48.8566, longitudeDegrees: 2.3522))
        }
        let zone = DeviceZone.fromFixes(DeviceTrack(device: "d1", points: points), boundaries: ShippedData.zoneBoundaries)!
        #expect(zone.source == "fixes")
        #expect(zone.calendar.zones == ["Europe/London", "Europe/Paris"])
        #expect(zone.calendar.zone(at: landed - 1) == "Europe/London")
        #expect(zone.calendar.zone(at: landed) == "Europe/Paris")
        #expect(zone.calendar.hour(landed) == 14)
        // Named zones win over the fixes, the manifest over the configuration.
        let configured = (calendar: paris, source: "configuration")
        #expect(
            DeviceZone.decide(track: nil, boundaries: nil, manifest: ["Asia/Tokyo"], configured: configured, dataset: CalendarKeys()).source
                == "manifest")
        #expect(
            DeviceZone.decide(track: nil, boundaries: nil, manifest: [], configured: configured, dataset: CalendarKeys()).calendar == paris)
        #expect(DeviceZone.decide(track: nil, boundaries: nil, manifest: [], configured: nil, dataset: paris).source == "none")
        // A person's days follow the device whose zone was named, else the first with fixes.
        let zones: [String: LocalCalendars.Zone] = [
            "a-watch": .init(calendar: CalendarKeys(), source: "none"), "b-phone": zone,
            "c-logger": .init(calendar: paris, source: "manifest")
        ]
        let persons = ["a-watch": "anna", "b-phone": "anna", "c-logger": "anna"]
        #expect(DeviceZone.personDevices(zones: zones, persons: persons) == ["anna": "c-logger"])
        #expect(DeviceZone.personDevices(zones: zones.filter { $0.key != "c-logger" }, persons: persons) == ["anna": "b-phone"])
    }
}

/// The diary's episodes tile every person-day: activities, trips and untracked stretches add up
/// to the day's length, 25 h on the day the clocks go back.
@Suite struct DiaryTests {
    @Test func everySecondOfTheDayIsInExactlyOneEpisode() {
        let paris = CalendarKeys(zone: "Europe/Paris")!
        let midnight = ISO8601.parse("2024-10-26T22:00:00Z")!.secondsSince1970
        var script = PersonDaysTests().day(startingAt: midnight, lengthSeconds: 25 * 3600)
        script.time += 2 * 86_400 // and a day two days later, with the day between untracked
        script.stay(3600)
        let analysis = TripAnalysis()
        var result = analysis.result([analysis.analyse(script.track(), geofences: [], modes: script.timeline)])
        let calendars = LocalCalendars(paris, devices: ["d1": .init(calendar: paris, source: "configuration")])
        PlacePurposes.label(&result, geofenceKinds: [:], calendars: calendars, method: .osna)
        let days = PersonDays(result.devices, persons: ["d1": "anna"], calendars: calendars)
        let episodes = Diary.episodes(result, persons: ["d1": "anna"], days: days)
        // The two days between without a fix are no person-days.
        #expect(days.days.map(\.date) == ["2024-10-27", "2024-10-30"] && days.daysNotRecorded == 2)
        for day in days.days {
            let own = episodes.filter { $0.date == day.date }
            #expect(own.reduce(0) { $0 + $1.seconds } == day.lengthSeconds, "\(day.date)")
            #expect(own.first?.startSeconds == day.startSeconds && own.last?.endSeconds == day.endSeconds)
            #expect(zip(own, own.dropFirst()).allSatisfy { $0.endSeconds == $1.startSeconds }, "no overlap, no hole")
        }
        let sunday = episodes.filter { $0.date == "2024-10-27" }
        #expect(sunday.reduce(0) { $0 + $1.seconds } / 60 == 1500)
        // Home; the trip to work; the gap; work; the trip home. A stay that a gap ends is no
        // staypoint (trackintel's rule, `StaypointDetector`), so the hours at work before the
        // gap, and at home before the two days without fixes, are on the trips that lead to them.
        let long = sunday.filter { $0.seconds >= 60 }
        #expect(long.map(\.kind) == [.activity, .trip, .untracked, .activity, .trip], "\(long.map(\.kind))")
        #expect(long[0].purpose == "home" && long[3].purpose == "other")
        #expect(episodes.filter { $0.date == "2024-10-28" || $0.date == "2024-10-29" }.isEmpty)
        #expect(episodes.filter { $0.date == "2024-10-30" }.map(\.kind).contains(.activity))
    }
}

@Suite struct SeedStatisticsTests {
    @Test func weeklyHoursAreTheMeanValidDayTimesSeven() throws {
        let seeds = try #require(Diary.seedStatistics(validDays: [["walk": 3600, "car": 1800], ["walk": 1800]]))
        #expect(seeds.dailyInMotionHours == 1)
        #expect(seeds.weeklyHours == ["walk": 5.25, "car": 1.75])
        #expect(Diary.seedStatistics(validDays: []) == nil)
    }
}
