import MobilityCore
import Testing

@Suite struct ISO8601Tests {
    @Test func parsesUTCWithAndWithoutFraction() {
        #expect(ISO8601.parse("1970-01-01T00:00:00Z")?.secondsSince1970 == 0)
        #expect(ISO8601.parse("2017-04-12T17:00:36.000Z")?.secondsSince1970 == 1_492_016_436)
        #expect(ISO8601.parse("2017-04-12T17:00:36.250Z")?.secondsSince1970 == 1_492_016_436.25)
    }

    @Test func appliesZoneOffsets() {
        #expect(ISO8601.parse("2017-04-12T19:00:36+02:00")?.secondsSince1970 == 1_492_016_436)
        #expect(ISO8601.parse("2017-04-12T12:00:36-0500")?.secondsSince1970 == 1_492_016_436)
    }

    @Test func readsGeoLifeLabelTimesAsUTC() {
        #expect(ISO8601.parse("2008/04/02 11:24:21")?.secondsSince1970 == 1_207_135_461)
    }

    @Test func rejectsWhatIsNotADateTime() {
        for text in ["", "31151", "2017-13-01T00:00:00Z", "2017-04-12T17:00:36Q", "yesterday", "2017-04-12T25:00:00Z"] {
            #expect(ISO8601.parse(text) == nil, "\(text)")
        }
    }

    @Test func formatsRoundTrip() {
        for seconds in [0.0, 1_492_016_436, 1_492_016_436.125, -86_400, 951_782_400] {
            let time = Timestamp(secondsSince1970: seconds)
            #expect(ISO8601.parse(ISO8601.format(time)) == time)
        }
        #expect(ISO8601.format(Timestamp(secondsSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func civilDaysMatchKnownDates() {
        #expect(ISO8601.days(year: 1970, month: 1, day: 1) == 0)
        #expect(ISO8601.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(ISO8601.days(year: 1899, month: 12, day: 30) == -25_569)
    }
}

@Suite struct ISO8601FormatLimitsTests {
    @Test func timesBeyondYear9999OrNotFiniteAreWrittenAsSecondsNeverATrap() {
        #expect(ISO8601.format(Timestamp(secondsSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
        #expect(ISO8601.format(Timestamp(secondsSince1970: 1e20)) == "1e+20 s since 1970")
        #expect(ISO8601.format(Timestamp(secondsSince1970: .infinity)) == "inf s since 1970")
        #expect(ISO8601.format(Timestamp(secondsSince1970: .nan)) == "nan s since 1970")
    }
}
