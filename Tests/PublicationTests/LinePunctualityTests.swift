import MobilityCore
import Publication
import Testing
import Trips

/// Punctuality per line (`LinePunctuality`) on rides with known answers.
@Suite struct LinePunctualityTests {
    let red = LinePunctuality.Line(
        feed: "bart", agency: "BART", routeID: "RED-S", routeName: "Red", routeType: "subway", direction: 0)
    let local = LinePunctuality.Line(
        feed: "caltrain", agency: "Caltrain", routeID: "L1", routeName: "Local", routeType: "rail", direction: 1)

    func ride(_ person: String, _ line: LinePunctuality.Line, _ hour: Double, departure: Double?, arrival: Double)
        -> LinePunctuality.Ride
    {
        LinePunctuality.Ride(
            person: person, line: line, scheduledDepartureSeconds: hour * 3600, departureDelaySeconds: departure,
            arrivalDelaySeconds: arrival)
    }

    /// Red: four persons, five rides (three in the morning peak, one at noon, one at 17:00), one
    /// arriving 400 s late. Local: three persons in the evening peak, all on time. Past
    /// midnight (25:10 on the service day) is 01:10 off-peak.
    var rides: [LinePunctuality.Ride] {
        [
            ride("ann", red, 8, departure: 30, arrival: 60), ride("bo", red, 8.5, departure: 200, arrival: 400),
            ride("cy", red, 9, departure: nil, arrival: -120), ride("di", red, 12, departure: 0, arrival: 100),
            ride("ann", red, 17, departure: 10, arrival: 0), ride("ann", local, 17.2, departure: 0, arrival: 30),
            ride("bo", local, 17.5, departure: 60, arrival: 90), ride("cy", local, 17.7, departure: 120, arrival: 200)
        ]
    }

    /// k = 1: every line, direction and band stands, with its medians and on-time share (5 min
    /// late or less, however early: cy's 2 min early is on time, bo's 400 s late is not).
    @Test func everyRowWithMediansAndOnTimeShareAtKOne() {
        let table = LinePunctuality(rides, matched: 9, bands: TimeBands(), privacy: PrivacyParameters(k: 1))
        #expect(table.ridesMatched == 9 && table.ridesTimed == 8 && table.lines == 2)
        #expect(
            table.rows.map { "\($0.line.routeName) \($0.band) \($0.rides) \($0.persons)" } == [
                "Red all_day 5 4", "Red am_peak 3 3", "Red pm_peak 1 1", "Red off_peak 1 1", "Local all_day 3 3",
                "Local pm_peak 3 3"
            ])
        let day = table.rows[0]
        // Arrivals −120, 0, 60, 100, 400: 60; departures seen 0, 10, 30, 200: (10 + 30) / 2.
        #expect(day.medianArrivalDelaySeconds == 60 && day.medianDepartureDelaySeconds == 20)
        #expect(day.onTimeShare == 0.8)
        #expect(table.rows[1].medianArrivalDelaySeconds == 60 && table.rows[1].onTimeShare.map { abs($0 - 2.0 / 3) < 1e-12 } == true)
        #expect(table.rows[4].medianArrivalDelaySeconds == 90 && table.rows[4].onTimeShare == 1)
        #expect(table.suppressedRows == 0 && table.complementaryRows == 0 && table.suppressedShares == 0)
    }

    /// k = 3: Red's noon and 17:00 rows are one person's each; left out, their sum would be
    /// all_day minus am_peak, so the morning peak (the cheaper) goes too. Red's late rides are
    /// one person's (bo): its on-time share would give bo's ride away and is printed empty.
    /// Local's three persons were all on time: both its rows and shares stand.
    @Test func rowsAndSharesUnderKPersonsAreLeftOutWithWhatWouldGiveThemAway() {
        let table = LinePunctuality(rides, matched: 9, bands: TimeBands(), privacy: PrivacyParameters(k: 3))
        #expect(
            table.rows.map { "\($0.line.routeName) \($0.band) \($0.onTimeShare.map { "\($0)" } ?? "-")" } == [
                "Red all_day -", "Local all_day 1.0", "Local pm_peak 1.0"
            ])
        #expect(table.suppressedRows == 2 && table.complementaryRows == 1 && table.suppressedShares == 1)
        #expect(table.counts.rows == 3 && table.counts.minimumPersons == 3)
        #expect(table.line.contains("3 rows published, 2 made by fewer than k = 3 persons left out and 1 beside them"))
    }

    /// A window with an early limit: from 1 min early to 5 min late, cy's 2 min early is not on time.
    @Test func anEarlyLimitMakesAnEarlyArrivalLate() {
        let window = LinePunctuality.OnTime(earlySeconds: 60, lateSeconds: 300)
        #expect(window.contains(delaySeconds: -60) && window.contains(delaySeconds: 300))
        #expect(!window.contains(delaySeconds: -61) && !window.contains(delaySeconds: 301))
        #expect(LinePunctuality.OnTime().contains(delaySeconds: -3600))
        #expect(window.text == "arriving from 1 min early to 5 min late")
        #expect(LinePunctuality.OnTime(lateSeconds: 90).text == "arriving at most 90 s late")
        let table = LinePunctuality(rides, matched: 9, bands: TimeBands(), privacy: PrivacyParameters(k: 1), onTime: window)
        #expect(table.rows[0].onTimeShare == 0.6 && table.counts.onTimeEarlySeconds == 60)
    }

    /// A trip past midnight (stop_times.txt's 25:10:00) is counted in the band of 01:10.
    @Test func aTripPastMidnightFallsInTheBandOfItsClockTime() {
        let night = [ride("ann", local, 25 + 10.0 / 60, departure: 0, arrival: 0)]
        let table = LinePunctuality(night, matched: 1, bands: TimeBands(), privacy: PrivacyParameters(k: 1))
        #expect(table.rows.map(\.band) == ["all_day", "off_peak"])
        let none = LinePunctuality([], matched: 0, bands: TimeBands(), privacy: PrivacyParameters(k: 3))
        #expect(none.rows.isEmpty && none.line.contains("no ride matched a scheduled trip"))
    }
}
