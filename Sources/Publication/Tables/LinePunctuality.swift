import MobilityCore
import Trips

/// Punctuality per line, direction and time band (`punctuality.csv`, the report's
/// "Punctuality per line"): of the rides matched to a scheduled trip of a feed
/// (`TimetableMatch`) whose arrival at the stop they alighted at was seen, how many persons and
/// rides, their median departure and arrival delay, and the share that arrived on time
/// (`OnTime`). A ride counts when its leg's mode is the one its line names (a car beside a bus
/// route is no bus ride); its band is that of the trip's scheduled departure from the boarding
/// stop (`stop_times.txt` `departure_time`, the feed's local time of day), `all_day` beside.
///
/// Every count is a cell of the audit (`DisclosureAudit`): a row's rides, and of them the rides
/// on time and those late, each made by its own persons. A row fewer than k persons made is left
/// out, and the on-time share of a row whose on-time or late rides fewer than k persons made
/// (printed empty), with whatever would give either away by subtraction (a line's band rows
/// add up to its `all_day` row, a row's on-time and late rides to its rides); a line's bands
/// that cannot be protected without its `all_day` row are left out together. Medians are
/// printed for the rows published: each is one ride's delay (or the mean of two) among k
/// persons' or more.
public struct LinePunctuality: Sendable, Equatable {
    /// When a ride is on time: its arrival delay at the alighting stop within
    /// [−`earlySeconds`, `lateSeconds`].
    ///
    /// The default is the European railways' punctuality (European Union Agency for Railways,
    /// Railway terminology collection, "Punctuality": "trains arriving with a delay less than or
    /// equal to a given threshold", whose first class for passenger trains starts at 5 minutes):
    /// arriving 5 min late or less, however early. Bus analysts in North America often count a
    /// departure from 1 min early to 5 min late (`earlySeconds` 60): `transit.on_time_early_seconds`.
    public struct OnTime: Sendable, Hashable, Codable {
        /// How early a ride may arrive and still be on time, seconds; nil: any earliness.
        public var earlySeconds: Double?
        /// How late, seconds.
        public var lateSeconds: Double

        public init(earlySeconds: Double? = nil, lateSeconds: Double = 300) {
            (self.earlySeconds, self.lateSeconds) = (earlySeconds, lateSeconds)
        }

        public func contains(delaySeconds delay: Double) -> Bool {
            delay <= lateSeconds && earlySeconds.map { delay >= -$0 } ?? true
        }

        /// "arriving at most 5 min late" or "arriving from 1 min early to 5 min late".
        public var text: String {
            earlySeconds.map { "arriving from \(Self.minutes($0)) early to \(Self.minutes(lateSeconds)) late" }
                ?? "arriving at most \(Self.minutes(lateSeconds)) late"
        }

        static func minutes(_ seconds: Double) -> String {
            seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60)) min" : "\(Int(seconds)) s"
        }
    }

    /// One ride as the table counts it.
    public struct Ride: Sendable, Equatable {
        public var person: String
        public var line: Line
        /// The scheduled departure from the boarding stop, seconds from noon minus 12 h of the
        /// service day (`stop_times.txt`).
        public var scheduledDepartureSeconds: Double
        public var departureDelaySeconds: Double?
        public var arrivalDelaySeconds: Double

        public init(
            person: String, line: Line, scheduledDepartureSeconds: Double, departureDelaySeconds: Double?, arrivalDelaySeconds: Double
        ) {
            (self.person, self.line, self.scheduledDepartureSeconds) = (person, line, scheduledDepartureSeconds)
            (self.departureDelaySeconds, self.arrivalDelaySeconds) = (departureDelaySeconds, arrivalDelaySeconds)
        }
    }

    /// A line in one direction: the feed's name among the run's, its agency, `route_id`, the
    /// route's name and `route_type` in words, `direction_id` (nil where the feed gives none).
    public struct Line: Sendable, Hashable, Codable {
        public var feed: String, agency: String, routeID: String, routeName: String, routeType: String
        public var direction: Int?

        public init(feed: String, agency: String, routeID: String, routeName: String, routeType: String, direction: Int?) {
            (self.feed, self.agency, self.routeID, self.routeName, self.routeType) = (feed, agency, routeID, routeName, routeType)
            self.direction = direction
        }

        static func < (a: Line, b: Line) -> Bool {
            (a.feed, a.routeName, a.routeID, a.direction ?? -1) < (b.feed, b.routeName, b.routeID, b.direction ?? -1)
        }
    }

    public struct Row: Sendable, Equatable, Codable {
        public var line: Line
        /// `all_day` or a band's name.
        public var band: String
        public var rides: Int, persons: Int
        /// Medians over the row's rides; the departure's over those whose departure was seen.
        public var medianDepartureDelaySeconds: Double?
        public var medianArrivalDelaySeconds: Double
        /// The rides on time (`OnTime`) over the row's; nil where it is left out.
        public var onTimeShare: Double?
    }

    public var rows: [Row]
    public var minimumPersons: Int
    public var onTime: OnTime
    /// Rides matched to a scheduled trip on their line's mode, and of them those whose arrival
    /// was seen (the table's); the lines they rode.
    public var ridesMatched = 0, ridesTimed = 0, lines = 0
    /// Rows under k, and rows of k or more left out beside them; on-time shares of published rows
    /// left out (under k, or beside one).
    public var suppressedRows = 0, complementaryRows = 0, suppressedShares = 0

    /// The table of `rides` (`rides(_:persons:)`); `matched`: the rides on a scheduled trip,
    /// whether or not their arrival was seen.
    public init(_ rides: [Ride], matched: Int, bands: TimeBands, privacy: PrivacyParameters, onTime: OnTime = OnTime()) {
        (minimumPersons, self.onTime, ridesMatched, ridesTimed) = (privacy.k, onTime, matched, rides.count)
        let k = privacy.k
        var groups: [Line: [String: [Ride]]] = [:] // line → band → rides
        for ride in rides {
            let band = bands.name(secondsOfDay: ride.scheduledDepartureSeconds.truncatingRemainder(dividingBy: 86_400))
            for group in [TimeBands.allDay, band] { groups[ride.line, default: [:]][group, default: []].append(ride) }
        }
        lines = groups.count
        let order = [TimeBands.allDay] + bands.names
        var all: [Row] = []
        var audit = DisclosureAudit()
        var cells: [(rides: Int, onTime: Int, late: Int)] = []
        for line in groups.keys.sorted(by: <) {
            var bandCells: [String: (rides: Int, onTime: Int, late: Int)] = [:]
            for band in order {
                guard let members = groups[line]![band] else { continue }
                let onTimeRides = members.filter { onTime.contains(delaySeconds: $0.arrivalDelaySeconds) }
                let lateRides = members.filter { !onTime.contains(delaySeconds: $0.arrivalDelaySeconds) }
                func cell(_ part: [Ride]) -> CellSuppression.Cell {
                    let persons = Set(part.map(\.person)).count
                    return CellSuppression.Cell(
                        publishable: true, sensitive: !part.isEmpty && persons < k, size: Double(part.count), protection: Double(k))
                }
                // Each line's bands are a sub-table of their own: one line's sparse bands, left
                // out whole, must not take another line's with them.
                let layer = band == TimeBands.allDay ? nil : "time_band \(line.feed) \(line.routeID) \(line.direction ?? -1)"
                let ids = (
                    rides: audit.add(cell(members), layer: layer), onTime: audit.add(cell(onTimeRides), layer: layer),
                    late: audit.add(cell(lateRides), layer: layer)
                )
                audit.relate([(ids.rides, 1), (ids.onTime, -1), (ids.late, -1)])
                bandCells[band] = ids
                cells.append(ids)
                all.append(
                    Row(
                        line: line, band: band, rides: members.count, persons: Set(members.map(\.person)).count,
                        medianDepartureDelaySeconds: Quantile.median(members.compactMap(\.departureDelaySeconds)),
                        medianArrivalDelaySeconds: Quantile.median(members.map(\.arrivalDelaySeconds))!,
                        onTimeShare: Double(onTimeRides.count) / Double(members.count)))
            }
            // A line's bands add up to its whole day, in each of the three counts.
            if let whole = bandCells[TimeBands.allDay] {
                let parts = bands.names.compactMap { bandCells[$0] }
                audit.relate([(whole.rides, 1)] + parts.map { ($0.rides, -1) })
                audit.relate([(whole.onTime, 1)] + parts.map { ($0.onTime, -1) })
                audit.relate([(whole.late, 1)] + parts.map { ($0.late, -1) })
            }
        }
        let (hidden, _) = audit.suppressed()
        var kept: [Row] = []
        for (index, row) in all.enumerated() {
            if hidden.contains(cells[index].rides) {
                if row.persons < k { suppressedRows += 1 } else { complementaryRows += 1 }
                continue
            }
            var row = row
            if hidden.contains(cells[index].onTime) || hidden.contains(cells[index].late) {
                row.onTimeShare = nil
                suppressedShares += 1
            }
            kept.append(row)
        }
        rows = kept
    }

    /// The rides of `devices`' legs matched to a scheduled trip on the mode their line names
    /// whose arrival was seen, and how many were matched; `persons`: each device's person (a
    /// device without one is its own).
    public static func rides(_ devices: [DeviceTrips], persons: [String: String]) -> (rides: [Ride], matched: Int) {
        var rides: [Ride] = [], matched = 0
        for device in devices {
            let person = persons[device.device] ?? device.device
            for leg in device.triplegs {
                guard let line = leg.evidence?.transit?.line, let trip = line.timetable, leg.mode == line.kind.mode else { continue }
                matched += 1
                guard let arrival = trip.arrivalDelaySeconds else { continue }
                rides.append(
                    Ride(
                        person: person,
                        line: Line(
                            feed: line.feed, agency: line.agency, routeID: line.routeID, routeName: line.routeName,
                            routeType: line.routeTypeName ?? String(line.routeType), direction: line.direction),
                        scheduledDepartureSeconds: Double(trip.scheduledDeparture), departureDelaySeconds: trip.departureDelaySeconds,
                        arrivalDelaySeconds: arrival))
            }
        }
        return (rides, matched)
    }

    /// What the table published and left out, for the log, `--json` and the report.
    public var line: String {
        guard ridesMatched > 0 else {
            return "punctuality: no ride matched a scheduled trip of the feeds, so punctuality.csv has no rows (triplegs.csv's "
                + "transit_line_note and timetable_note say why per leg)"
        }
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
        return "punctuality: \(count(ridesMatched, "ride", "rides")) on a scheduled trip, \(ridesTimed) with their arrival seen at the "
            + "stop they alighted at, on \(count(lines, "line and direction", "lines and directions")); "
            + "\(count(rows.count, "row", "rows")) published, \(suppressedRows) made by fewer than k = "
            + "\(minimumPersons) persons left out and \(complementaryRows) beside them, \(suppressedShares) on-time shares left out; "
            + "on time: \(onTime.text)"
    }

    /// The counts of `line`, for `--json`.
    public struct Counts: Sendable, Codable, Equatable {
        public var ridesMatched: Int, ridesTimed: Int, lines: Int, rows: Int, suppressedRows: Int, complementaryRows: Int
        public var suppressedShares: Int, minimumPersons: Int
        public var onTimeEarlySeconds: Double?, onTimeLateSeconds: Double

        enum CodingKeys: String, CodingKey {
            case ridesMatched = "rides_matched", ridesTimed = "rides_timed", lines, rows, suppressedRows = "suppressed_rows"
            case complementaryRows = "complementary_rows", suppressedShares = "suppressed_shares", minimumPersons = "k"
            case onTimeEarlySeconds = "on_time_early_s", onTimeLateSeconds = "on_time_late_s"
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(ridesMatched, forKey: .ridesMatched)
            try c.encode(ridesTimed, forKey: .ridesTimed)
            try c.encode(lines, forKey: .lines)
            try c.encode(rows, forKey: .rows)
            try c.encode(suppressedRows, forKey: .suppressedRows)
            try c.encode(complementaryRows, forKey: .complementaryRows)
            try c.encode(suppressedShares, forKey: .suppressedShares)
            try c.encode(minimumPersons, forKey: .minimumPersons)
            try c.encode(onTimeEarlySeconds, forKey: .onTimeEarlySeconds) // null: any earliness is on time
            try c.encode(onTimeLateSeconds, forKey: .onTimeLateSeconds)
        }
    }

    public var counts: Counts {
        Counts(
            ridesMatched: ridesMatched, ridesTimed: ridesTimed, lines: lines, rows: rows.count, suppressedRows: suppressedRows,
            complementaryRows: complementaryRows, suppressedShares: suppressedShares, minimumPersons: minimumPersons,
            onTimeEarlySeconds: onTime.earlySeconds, onTimeLateSeconds: onTime.lateSeconds)
    }
}
