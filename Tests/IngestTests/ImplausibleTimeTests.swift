import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// Sane times at ingest: a fix or sample dated before `earliest_time` or after the clock plus
/// `max_seconds_after_clock` is dropped as `implausible_time`, by itself.
@Suite struct ImplausibleTimeTests {
    let start = Timestamp(secondsSince1970: 1_700_000_000)
    let year2060 = ISO8601.parse("2060-01-01T00:00:00Z")!

    func fix(_ time: Timestamp, north meters: Double) -> PositionFix {
        PositionFix(time: time, latitudeDegrees: 48 + meters / 111_195, longitudeDegrees: 2)
    }

    func clean(_ fixes: [PositionFix], parameters: CleaningParameters = CleaningParameters()) -> ([PositionFix], FixCleaner) {
        FixCleanerTests().clean(fixes, parameters: parameters)
    }

    @Test func aStrayFutureFixIsDroppedAndItsGoodNeighbourKept() {
        let fixes = [
            fix(start, north: 0), fix(start.adding(seconds: 1), north: 1), fix(year2060, north: 2),
            fix(start.adding(seconds: 2), north: 2), fix(start.adding(seconds: 3), north: 3)
        ]
        let (kept, cleaner) = clean(fixes)
        #expect(kept.map { $0.time! } == [0, 1, 2, 3].map { start.adding(seconds: $0) })
        #expect(cleaner.dropped.counts == [.implausibleTime: 1] && cleaner.dropped.firstLine[.implausibleTime] == 3)
    }

    @Test func receiverDatesBeforeTheFirstFixAreDropped() {
        let epoch = Timestamp(secondsSince1970: 0), rollover = ISO8601.parse("1999-08-21T23:59:47Z")!.adding(seconds: -1024 * 7 * 86_400)
        let fixes = [fix(epoch, north: 0), fix(rollover, north: 0), fix(start, north: 0), fix(start.adding(seconds: 1), north: 1)]
        let (kept, cleaner) = clean(fixes)
        #expect(kept.count == 2 && cleaner.dropped.counts == [.implausibleTime: 2])
    }

    @Test func historicalDataIsKeptWithAnEarlierFloor() throws {
        var parameters = CleaningParameters()
        parameters.earliestTime = "1950-01-01"
        #expect(parameters.problem == nil)
        let old = ISO8601.parse("1985-06-01T12:00:00Z")!
        let (kept, cleaner) = clean([fix(old, north: 0), fix(old.adding(seconds: 1), north: 1)], parameters: parameters)
        #expect(kept.count == 2 && cleaner.dropped.total == 0)
        parameters.earliestTime = "last Tuesday"
        #expect(parameters.problem?.contains("earliest_time") == true)
    }

    @Test func theCeilingFollowsTheClock() throws {
        let parameters = CleaningParameters()
        let now = Date().timeIntervalSince1970
        let range = try #require(parameters.plausibleSeconds(clockSeconds: now))
        #expect(range.contains(now + 86_000) && !range.contains(now + 86_500))
    }

    @Test func imuRowsDatedYear9999Or1900AreDroppedAndTheRestRead() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<100).map { "\(1_700_000_000 + Double($0) * 0.02),0.1,0.2,9.8" }
        let text = "time,ax,ay,az\n-2208988800,0,0,9.8\n" + rows.joined(separator: "\n") + "\n253402300799,0,0,9.8\n"
        let (result, _) = try ingestFile(try folder.write("phone.csv", text))
        #expect(result.imuSamples == 100 && result.dropped.counts == [.implausibleTime: 2])
        #expect(result.first?.secondsSince1970 == 1_700_000_000)
        #expect(abs(result.last!.secondsSince1970 - (1_700_000_000 + 99 * 0.02)) < 1e-6)
    }

    @Test func aLabelRunEndsAtTheLastKeptSample() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<50).map { "\(1_700_000_000 + Double($0) * 0.02),0.1,0.2,9.8,walking" }
        let text = "time,ax,ay,az,label\n" + rows.joined(separator: "\n") + "\n253402300799,0,0,9.8,walking\n"
        let (result, _) = try ingestFile(try folder.write("phone.csv", text))
        let label = try #require(result.labels.first)
        #expect(result.labels.count == 1 && abs(label.end.secondsSince1970 - (1_700_000_000 + 49 * 0.02)) < 1e-6)
    }
}
