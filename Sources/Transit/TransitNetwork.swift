import Foundation
import MobilityCore

/// The GTFS feeds of a run, read and indexed together: a region's agencies (BART and Caltrain;
/// a city's buses and its railway) serve every leg at once. Each feed keeps its own ids, name,
/// agencies and calendars; the index holds them all (`TransitIndex(feeds:)`).
public struct TransitNetwork: Sendable {
    public struct Feed: Sendable {
        /// Unique among the run's feeds: the file or folder name, `.zip` left off, with its
        /// folder in front when two feeds have one name.
        public var name: String
        /// Where it was read, as given.
        public var path: String
        public var service: GTFSService
        /// What it holds, for the log and the report (`GTFSFeed.summary`).
        public var summary: String
    }

    public var feeds: [Feed]
    public var index: TransitIndex

    /// The feeds `paths` name, in order, each once: a `.zip` or a folder holding `stops.txt` is
    /// one feed; any other folder holds feeds, each `.zip` and each folder with `stops.txt` in it
    /// (in name order, hidden ones left). A path that is none of these is an error naming it.
    public static func feedPaths(_ paths: [String]) throws -> [String] {
        var found: [String] = [], seen: Set<String> = []
        func add(_ path: String) {
            let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            if seen.insert(key).inserted { found.append(path) }
        }
        let files = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw PipelineError(
                    .invalidTransitFeed, path: path,
                    reason:
                        "no such file or folder (expected a GTFS feed: a .zip, a folder with stops.txt, routes.txt, trips.txt, stop_times.txt, or a folder of such feeds)"
                )
            }
            guard isFolder.boolValue, !files.fileExists(atPath: (path as NSString).appendingPathComponent("stops.txt")) else {
                add(path)
                continue
            }
            let inside = try files.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted().compactMap { name -> String? in
                let child = (path as NSString).appendingPathComponent(name)
                if name.lowercased().hasSuffix(".zip") { return child }
                return files.fileExists(atPath: (child as NSString).appendingPathComponent("stops.txt")) ? child : nil
            }
            guard !inside.isEmpty else {
                throw PipelineError(
                    .invalidTransitFeed, path: path,
                    reason: "the folder holds no stops.txt and no GTFS feed (a .zip, or a folder with stops.txt)")
            }
            inside.forEach(add)
        }
        return found
    }

    /// Reads and indexes the feeds of `paths` (`feedPaths`), saying in `log` what each gave. An
    /// unreadable feed is an error naming its file and, where one is to blame, the line.
    public static func load(paths: [String], log: (String) -> Void) throws -> TransitNetwork {
        let started = Date()
        var loaded: [GTFSFeed] = [], feeds: [Feed] = []
        let located = try feedPaths(paths)
        for path in located {
            var feed = try GTFSFeed.load(path: path)
            let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
            let sameName = located.filter { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension == feed.name }.count
            if sameName > 1 { feed.name = (folder.isEmpty ? "." : folder) + "/" + feed.name }
            while feeds.contains(where: { $0.name == feed.name }) { feed.name += "+" }
            loaded.append(feed)
            feeds.append(Feed(name: feed.name, path: path, service: feed.service, summary: feed.summary))
        }
        let network = TransitNetwork(feeds: feeds, index: TransitIndex(feeds: loaded))
        for feed in network.feeds {
            log("transit: \(feed.name) (\(feed.path)): \(Self.describe(feed.service)); \(feed.summary)")
            if let warning = network.warning(feed) { log("warning: transit: " + warning) }
        }
        log(
            "transit: \(feeds.count) feed\(feeds.count == 1 ? "" : "s") indexed in "
                + String(format: "%.2f s", Date().timeIntervalSince(started)))
        return network
    }

    /// Who runs the feed and when: agencies, service dates and zone.
    static func describe(_ service: GTFSService) -> String {
        let agencies = service.agencies.map(\.name).filter { !$0.isEmpty }
        var text = agencies.isEmpty ? "no agency named" : agencies.joined(separator: ", ")
        if let days = service.serviceDays {
            text += ", service " + CalendarKeys.dateText(days.lowerBound) + " – " + CalendarKeys.dateText(days.upperBound)
        } else {
            text += ", no calendar"
        }
        if let zone = service.timeZone, !zone.isEmpty { text += " (\(zone))" }
        return text
    }

    /// What the run must be told of a feed, or nil: no calendar (geometry only), or a zone the
    /// dates cannot be read in.
    func warning(_ feed: Feed) -> String? {
        if feed.service.serviceDays == nil {
            return "\(feed.path) has no calendar.txt or calendar_dates.txt with a service day: its lines and stops serve every leg, "
                + "its timetable none (GTFS Schedule Reference, \"Dataset Files\": one of the two is required)"
        }
        if calendar(feed) == nil {
            return "\(feed.path): agency_timezone \"\(feed.service.timeZone ?? "")\" is no IANA zone: its legs' dates are read in UTC"
        }
        return nil
    }

    /// The calendar the feed's dates are in (`agency_timezone`), or nil when it names none known.
    func calendar(_ feed: Feed) -> CalendarKeys? { feed.service.timeZone.flatMap { CalendarKeys(zone: $0) } }

    /// What each feed gave the legs, from their start times and transit matches: a leg is the
    /// feed's when half its fixes or more run along the feed's corridors
    /// (`TransitMatch.feedShare`), and outside its dates when its local date (in the feed's
    /// `agency_timezone`) lies before its first service day or after its last.
    public func uses(legs: [(startSeconds: Double, match: TransitMatch)]) -> [TransitFeedUse] {
        feeds.enumerated().map { number, feed in
            let calendar = self.calendar(feed) ?? CalendarKeys()
            let days = feed.service.serviceDays
            var use = TransitFeedUse(
                feed: feed.name, agency: feed.service.agencies.map(\.name).filter { !$0.isEmpty }.joined(separator: ", "),
                timeZone: feed.service.timeZone, serviceStart: days.map { CalendarKeys.dateText($0.lowerBound) },
                serviceEnd: days.map { CalendarKeys.dateText($0.upperBound) }, warning: warning(feed))
            for leg in legs where (leg.match.feedCorridorShare[number] ?? 0) >= TransitMatch.feedShare {
                use.legsMatched += 1
                if let days, !days.contains(calendar.dayNumber(leg.startSeconds)) { use.legsOutsideDates += 1 }
            }
            return use
        }
    }
}

/// What one feed of a run gave its legs (`TransitNetwork.uses`): the log's line per feed and
/// `--json`'s `transit`.
public struct TransitFeedUse: Codable, Hashable, Sendable {
    public var feed: String
    /// `agency_name` of every agency of the feed, comma-separated.
    public var agency: String
    /// `agency_timezone`.
    @NullEncodable public var timeZone: String?
    /// The first and last service day, `YYYY-MM-DD`; null without a calendar.
    @NullEncodable public var serviceStart: String?
    @NullEncodable public var serviceEnd: String?
    /// Legs that ran along its lines: half their fixes or more within 30 m of its corridors.
    public var legsMatched = 0
    /// Of those, the legs on a date its calendars do not reach.
    public var legsOutsideDates = 0
    /// Why part of the feed could not serve the legs (no calendar, an unknown zone); null when all could.
    @NullEncodable public var warning: String?

    public init(
        feed: String, agency: String, timeZone: String?, serviceStart: String?, serviceEnd: String?, legsMatched: Int = 0,
        legsOutsideDates: Int = 0, warning: String? = nil
    ) {
        (self.feed, self.agency, self.timeZone, self.serviceStart, self.serviceEnd) = (feed, agency, timeZone, serviceStart, serviceEnd)
        (self.legsMatched, self.legsOutsideDates, self.warning) = (legsMatched, legsOutsideDates, warning)
    }

    enum CodingKeys: String, CodingKey {
        case feed, agency, timeZone = "time_zone", serviceStart = "service_start", serviceEnd = "service_end"
        case legsMatched = "legs_matched", legsOutsideDates = "legs_outside_dates", warning
    }

    /// One line for the log.
    public var line: String {
        "transit: \(feed): \(legsMatched) legs along its lines"
            + (serviceStart == nil
                ? " (no timetable)" : ", \(legsOutsideDates) of them outside its service dates \(serviceStart!) – \(serviceEnd!)")
    }
}
