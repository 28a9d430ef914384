import Foundation
import MobilityCore
import TestSupport
import Testing
import Transit

/// Several GTFS feeds read together (`TransitNetwork`): which paths are feeds, ids that stay
/// per feed, each feed's agencies and calendars (`GTFSService`), and the real Bay Area feeds of
/// the shared data.
@Suite struct TransitNetworkTests {

    /// A one-line bus feed: `B1` … `B3` every 400 m along the street `SyntheticGTFS` draws,
    /// 500 m south of it, with an agency and the calendar lines given.
    static func writeBusFeed(
        _ folder: String, agency: String = "agency_name,agency_timezone\nSouth Buses,Europe/Berlin\n", calendar: String?,
        dates: String? = nil
    ) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for k in 1...3 {
            let (lat, lon) = SyntheticGTFS.position(east: Double(k) * 400, north: -500)
            stops += "B\(k),South \(k),\(lat),\(lon)\n"
            times += "s1,08:0\(k):00,08:0\(k):00,B\(k),\(k)\n"
        }
        try write("agency.txt", agency)
        try write("stops.txt", stops)
        try write("stop_times.txt", times)
        try write("routes.txt", "route_id,route_short_name,route_type\nS,S,3\n")
        try write("trips.txt", "route_id,service_id,trip_id\nS,WD,s1\n")
        if let calendar { try write("calendar.txt", calendar) }
        if let dates { try write("calendar_dates.txt", dates) }
    }

    static let weekdays2024 =
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20240101,20241231\n"

    @Test func aFolderOfFeedsIsEachOfItsFeedsAndAFeedFolderIsOne() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("region/metro"))
        try Self.writeBusFeed(folder.file("region/buses"), calendar: Self.weekdays2024)
        _ = try folder.write("region/notes.txt", "not a feed\n")
        _ = try folder.write("region/empty/readme.md", "nor this\n")
        _ = try folder.write("region/.hidden/stops.txt", "stop_id\n")
        let region = folder.file("region")
        #expect(
            try TransitNetwork.feedPaths([region]) == [region + "/buses", region + "/metro"], "name order; files and other folders left")
        #expect(try TransitNetwork.feedPaths([region + "/metro"]) == [region + "/metro"], "a folder with stops.txt is one feed")
        #expect(
            try TransitNetwork.feedPaths([region + "/metro", region, region + "/metro/"]) == [region + "/metro", region + "/buses"],
            "each feed once, first where it was first named")

        let empty = #expect(throws: PipelineError.self) { try TransitNetwork.feedPaths([region + "/empty"]) }
        #expect(empty?.code == .invalidTransitFeed && "\(empty!)".contains("empty") && "\(empty!)".contains("no GTFS feed"))
        let missing = #expect(throws: PipelineError.self) { try TransitNetwork.feedPaths([folder.file("nowhere.zip")]) }
        #expect(
            missing?.code == .invalidTransitFeed && missing?.code.exitStatus == 64 && "\(missing!)".contains("nowhere.zip: no such file"))
    }

    @Test func twoFeedsKeepTheirOwnIdsAndEachCountsItsLegs() throws {
        let folder = try TemporaryFolder()
        try SyntheticGTFS.writeFeed(folder.file("a/feed"))
        try SyntheticGTFS.writeFeed(folder.file("b/feed"))
        try Self.writeBusFeed(folder.file("south"), calendar: Self.weekdays2024)
        var log: [String] = []
        let network = try TransitNetwork.load(paths: [folder.file("a/feed"), folder.file("b/feed"), folder.file("south")]) {
            log.append($0)
        }
        #expect(network.feeds.map(\.name) == ["a/feed", "b/feed", "south"], "one file name, two feeds: their folders tell them apart")
        let one = try GTFSFeed.load(path: folder.file("a/feed"))
        let usable = one.stops.filter { !$0.kinds.isEmpty }.count
        #expect(network.index.stops.count == 2 * usable + 3, "equal stop ids of two feeds stay two stops each")
        #expect(network.index.stops.filter { $0.id == "B1" }.map(\.feed).sorted() == [0, 1, 2])
        #expect(
            log.contains {
                $0.hasPrefix(
                    "transit: south (\(folder.file("south"))): South Buses, service 2024-01-01 – 2024-12-31 (Europe/Berlin); 3 stops")
            }, "\(log)")
        #expect(
            log.filter { $0.hasPrefix("warning: transit: ") && $0.contains("no calendar") }.count == 2,
            "the synthetic feeds have none: \(log)")

        // A ride along the metro (both copies' corridors) and one along the southern street.
        func fixes(north: Double, from: Double, to: Double, day: Double) -> [(Double, Double, Double)] {
            stride(from: from, through: to, by: 50).enumerated().map { step, east in
                let (lat, lon) = SyntheticGTFS.position(east: east, north: north)
                return (day + Double(step) * 5, lat, lon)
            }
        }
        let wednesday = 1_718_798_400.0 // 2024-06-19 12:00 UTC
        let metro = TransitMatch(fixes(north: 2000, from: 500, to: 5500, day: wednesday), index: network.index)
        #expect(metro.feedCorridorShare[0] == 1 && metro.feedCorridorShare[1] == 1 && metro.feedCorridorShare[2] == nil)
        let bus = TransitMatch(fixes(north: -500, from: 400, to: 1200, day: wednesday), index: network.index)
        #expect(bus.feedCorridorShare == [2: 1])
        let later = TransitMatch(fixes(north: -500, from: 400, to: 1200, day: 1_740_000_000), index: network.index) // 2025-02-19
        let uses = network.uses(legs: [(wednesday, metro), (wednesday, bus), (1_740_000_000, later)])
        #expect(uses.map(\.legsMatched) == [1, 1, 2] && uses.map(\.legsOutsideDates) == [0, 0, 1], "\(uses)")
        #expect(uses[2].agency == "South Buses" && uses[2].timeZone == "Europe/Berlin" && uses[2].serviceStart == "2024-01-01")
        #expect(uses[2].serviceEnd == "2024-12-31" && uses[2].warning == nil && uses[0].serviceStart == nil && uses[0].warning != nil)
        #expect(uses[2].line == "transit: south: 2 legs along its lines, 1 of them outside its service dates 2024-01-01 – 2024-12-31")
        #expect(uses[0].line == "transit: a/feed: 1 legs along its lines (no timetable)")
    }

    @Test func calendarsAndTheirExceptionsSayWhichDaysAServiceRuns() throws {
        let folder = try TemporaryFolder()
        // Weekdays of 2024 without 2024-12-25, and one Saturday added; a holiday service by date only.
        try Self.writeBusFeed(
            folder.file("feed"), calendar: Self.weekdays2024,
            dates: "service_id,date,exception_type\nWD,20241225,2\nWD,20240615,1\nXMAS,20250101,1\n")
        let service = try GTFSFeed.load(path: folder.file("feed")).service
        func day(_ text: String) -> Int {
            let parts = text.split(separator: "-").map { Int($0)! }
            return ISO8601.days(year: parts[0], month: parts[1], day: parts[2])
        }
        let weekdays = try #require(service.calendars["WD"])
        #expect(weekdays.runs(on: day("2024-06-19")) && !weekdays.runs(on: day("2024-06-22")), "a Wednesday, not a Saturday")
        #expect(weekdays.runs(on: day("2024-06-15")) && !weekdays.runs(on: day("2024-12-25")), "the added Saturday, the removed Christmas")
        #expect(!weekdays.runs(on: day("2023-12-29")) && !weekdays.runs(on: day("2025-01-03")), "a Friday on either side of the range")
        #expect(service.calendars["XMAS"]?.runs(on: day("2025-01-01")) == true && service.calendars["XMAS"]?.days == nil)
        #expect(service.serviceDays == day("2024-01-01")...day("2025-01-01"), "the added date after the range counts")
        #expect(service.agencies.map(\.name) == ["South Buses"] && service.timeZone == "Europe/Berlin")

        try "service_id,date,exception_type\nWD,20240704,1\n".write(
            toFile: folder.file("feed/calendar_dates.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder.file("feed/calendar.txt"))
        let datesOnly = try GTFSFeed.load(path: folder.file("feed")).service
        #expect(datesOnly.serviceDays == day("2024-07-04")...day("2024-07-04"), "calendar_dates.txt alone is a calendar")
    }

    @Test func aBadDateOrExceptionNamesItsFileAndLine() throws {
        let folder = try TemporaryFolder()
        try Self.writeBusFeed(folder.file("feed"), calendar: Self.weekdays2024 + "SA,0,0,0,0,0,1,0,2024-01-06,20241228\n")
        let date = #expect(throws: PipelineError.self) { try GTFSFeed.load(path: folder.file("feed")) }
        #expect(
            date?.code.exitStatus == 64 && "\(date!)".contains("feed/calendar.txt:3")
                && "\(date!)".contains("start_date \"2024-01-06\" is not a date YYYYMMDD"), "\(String(describing: date))")

        try Self.writeBusFeed(folder.file("feed"), calendar: Self.weekdays2024, dates: "service_id,date,exception_type\nWD,20240101,3\n")
        let exception = #expect(throws: PipelineError.self) { try GTFSFeed.load(path: folder.file("feed")) }
        #expect(
            "\(exception!)".contains("feed/calendar_dates.txt:2") && "\(exception!)".contains("exception_type must be 1"),
            "\(String(describing: exception))")

        try Self.writeBusFeed(folder.file("feed"), agency: "agency_timezone\nEurope/Berlin\n", calendar: nil)
        let agency = #expect(throws: PipelineError.self) { try GTFSFeed.load(path: folder.file("feed")) }
        #expect("\(agency!)".contains("feed/agency.txt:1") && "\(agency!)".contains("agency_name"), "\(String(describing: agency))")
    }

    /// BART's and Caltrain's own feeds (`../shared/data/gtfs`): their agencies, service periods
    /// and zone as their README gives them, read together from the folder.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func theRealBayAreaFeedsReadTogether() throws {
        let folder = SharedData.path("gtfs")
        var log: [String] = []
        let network = try TransitNetwork.load(paths: [folder]) { log.append($0) }
        #expect(network.feeds.map(\.name) == ["bart-2018-05-26", "caltrain-2017-10-02"])
        let bart = network.feeds[0].service, caltrain = network.feeds[1].service
        #expect(bart.agencies.map(\.name) == ["Bay Area Rapid Transit"] && bart.timeZone == "America/Los_Angeles")
        #expect(caltrain.agencies.map(\.name) == ["Caltrain"] && caltrain.timeZone == "America/Los_Angeles")
        #expect(bart.serviceDays == ISO8601.days(year: 2018, month: 5, day: 26)...ISO8601.days(year: 2019, month: 7, day: 1), "\(log)")
        #expect(caltrain.serviceDays == ISO8601.days(year: 2017, month: 10, day: 2)...ISO8601.days(year: 2019, month: 10, day: 6), "\(log)")
        #expect(Set(network.index.stops.map(\.feed)) == [0, 1] && !log.contains { $0.hasPrefix("warning") }, "\(log)")
        print(log.joined(separator: "\n"))
    }
}
