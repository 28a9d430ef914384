import Comfort
import Foundation
import MobilityCore
import Publication

/// `rides.csv` (one row per check-in), `train_comfort.csv` (per train number) and
/// `route_comfort.csv` (per from → to), with units in the column names.
public struct ComfortTables {
    public var rides: [Ride]
    /// Each device's person, and the k of distinct persons a train's or route's summary needs.
    public var persons: [String: String]
    public var minimumPersons: Int

    public init(rides: [Ride], persons: [String: String] = [:], minimumPersons: Int) {
        (self.rides, self.persons, self.minimumPersons) = (rides, persons, minimumPersons)
    }

    /// What the summaries published and left out: trains and routes under k persons, and those
    /// left out beside them so that none can be worked out by subtraction.
    public struct Published: Sendable, Codable, Equatable {
        public var trains = 0, routes = 0, underK = 0, complementary = 0, minimumPersons = 0
        public init() {}
        public var line: String {
            "comfort summaries: \(trains) trains and \(routes) routes published; \(underK) ridden by fewer than k = \(minimumPersons) persons "
                + "left out, and \(complementary) more so that those cannot be worked out by subtraction"
        }
        enum CodingKeys: String, CodingKey {
            case trains, routes, underK = "under_k", complementary, minimumPersons = "k"
        }
    }

    public static let fileNames = ["rides.csv", "stops.csv", "events.csv", "train_comfort.csv", "route_comfort.csv"]

    @discardableResult
    public func write(to folder: String, restricted: String) throws -> Published {
        func path(_ name: String) -> String { (restricted as NSString).appendingPathComponent(name) }
        try ridesCSV().write(to: path("rides.csv"))
        try stopsCSV().write(to: path("stops.csv"))
        try eventsCSV().write(to: path("events.csv"))
        return try Self.writeSummaries(
            trains: ComfortSummary.group(rides, persons: persons) { $0.train },
            routes: ComfortSummary.group(rides, persons: persons) { Self.routeKey($0.fromStation, $0.toStation) },
            to: folder, minimumPersons: minimumPersons)
    }

    /// A route's group key: from TAB to (sorted as one string, as Swift's String orders).
    public static func routeKey(_ from: String, _ to: String) -> String { "\(from)\t\(to)" }

    /// `train_comfort.csv` and `route_comfort.csv` of summaries (from one run's rides, or from
    /// a distributed run's groups), in key order.
    /// Only what `ComfortSummary.published` keeps is written.
    @discardableResult
    public static func writeSummaries(trains: [ComfortSummary], routes: [ComfortSummary], to folder: String, minimumPersons: Int) throws
        -> Published
    {
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        let kept = ComfortSummary.published(
            trains: trains.sorted { $0.key < $1.key }, routes: routes.sorted { $0.key < $1.key }, minimumPersons: minimumPersons)
        try summaryCSV(kept.trains, schema: .trainComfort) { [$0.key] }.write(to: path("train_comfort.csv"))
        try summaryCSV(kept.routes, schema: .routeComfort) {
            $0.key.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }.write(to: path("route_comfort.csv"))
        var published = Published()
        (published.trains, published.routes, published.underK, published.complementary, published.minimumPersons) = (
            kept.trains.count, kept.routes.count, kept.underK, kept.complementary, minimumPersons
        )
        return published
    }

    static func number(_ value: Double?, _ digits: Int = 3) -> String? { value.map { FixedPoint.text($0, digits: digits) } }
    static func time(_ seconds: Double?) -> String? { seconds.map { ISO8601.formatMillis(Timestamp(secondsSince1970: $0)) } }
    /// A time and its Unix seconds (`OutputSchema`'s convention).
    static func times(_ seconds: Double?) -> [String?] { [time(seconds), seconds.map { String(format: "%.3f", $0) }] }

    static let metricColumns = OutputSchema.rides.index("jerks_lateral_per_h") + 1 - OutputSchema.rides.index("rms_x_mps2")

    /// The metric columns of one ride, in `metricColumns` order (empty when not measured).
    public static func metricFields(_ metrics: RideMetrics?) -> [String?] {
        guard let m = metrics else { return Array(repeating: nil, count: metricColumns) }
        let axes = [m.longitudinal, m.lateral, m.vertical]
        var fields: [String?] = axes.map { number($0.rms) }
        fields.append(number(m.totalValue))
        fields += axes.map { number($0.mtvv) }
        fields += axes.map { number($0.vdv) }
        fields += axes.map { number($0.crestFactor, 2) }
        fields += [m.comfortBand?.rawValue ?? "not measured", number(m.nmv, 2), m.nmvClass?.rawValue]
        fields += [number(m.longitudinalJerksPerHour, 1), number(m.lateralJerksPerHour, 1)]
        return fields
    }

    func ridesCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.rides.names)
        for (index, ride) in rides.enumerated() {
            let c = ride.checkIn, w = ride.window, m = ride.metrics
            var fields: [String?] = [String(index + 1), ride.device, c?.train, c?.fromStation, c?.toStation, ride.status.rawValue]
            fields += Self.times(c?.checkinTime.secondsSince1970) + Self.times(w.startSeconds) + Self.times(w.endSeconds)
            fields += [Self.number(w.endSeconds - w.startSeconds, 0)]
            fields += Self.times(c?.scheduledDeparture?.secondsSince1970) + Self.times(w.departureSeconds)
            fields += [Self.number(ride.departureDelaySeconds, 0)]
            fields += Self.times(c?.scheduledArrival?.secondsSince1970) + Self.times(w.arrivalSeconds)
            fields += [Self.number(ride.arrivalDelaySeconds, 0), Self.number(ride.rateHz, 0)]
            fields += Self.metricFields(m)
            fields += [c?.cleanliness, c?.odoursTemperature, c?.crowding, c?.service].map { $0.map(String.init) }
            fields += [Self.number(c?.noiseDecibels, 1), c?.comment, c.map { String($0.line) }]
            fields += [
                ride.source.rawValue, ride.trace, Self.number(ride.coveredSeconds, 1), ride.verticalSource?.rawValue,
                m.map { $0.nmvPartial ? "true" : "false" }, Self.number(m?.nmvMinutes, 2), String(ride.stops.count),
                m.map { String($0.events.filter { $0.kind == .acceleration }.count) },
                m.map { String($0.events.filter { $0.kind == .jerk }.count) },
                m.map { Self.series($0.ccX) }, m.map { Self.series($0.ccY) }, m.map { Self.series($0.ccZ) }, ride.note
            ]
            csv.append(fields)
        }
        return csv
    }

    /// A 5 s series as a JSON array (pandas: `json.loads`), 4 decimals.
    public static func series(_ values: [Double]) -> String {
        "[" + values.map { FixedPoint.text($0, digits: 4) }.joined(separator: ",") + "]"
    }

    /// Each stop of each ride: `device,trace,start,end,duration_s` (ISO 8601 UTC), then the ride.
    func stopsCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.stops.names)
        for (index, ride) in rides.enumerated() {
            for stop in ride.stops {
                csv.append(
                    [ride.device, ride.trace] + Self.times(stop.startSeconds) + Self.times(stop.endSeconds)
                        + [Self.number(stop.durationSeconds, 0), String(index + 1)])
            }
        }
        return csv
    }

    /// Each braking, pull-away, curve and jerk of each ride.
    func eventsCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.events.names)
        for (index, ride) in rides.enumerated() {
            for event in ride.metrics?.events ?? [] {
                csv.append(
                    [ride.device, ride.trace] + Self.times(event.startSeconds) + Self.times(event.endSeconds) + [
                        event.kind.rawValue, event.axis.rawValue, event.direction, Self.number(event.peakAccelerationMetersPerSecond2, 2),
                        Self.number(event.peakJerkMetersPerSecond3, 2), String(index + 1)
                    ])
            }
        }
        return csv
    }

    static func summaryCSV(_ groups: [ComfortSummary], schema: OutputSchema, key: (ComfortSummary) -> [String]) -> CSVWriter {
        let classes = NMVClass.allCases
        var csv = CSVWriter(columns: schema.names)
        for group in groups {
            var fields: [String?] =
                key(group) + [
                    String(group.rides), String(group.measuredRides), String(group.devices), String(group.persons),
                    Self.number(group.nmvMedian, 2), Self.number(group.nmvP95, 2),
                    Self.number(group.totalValueMedian), Self.number(group.totalValueP95)
                ]
            fields += classes.map { Self.number(group.nmvClassShares[$0], 3) }
            fields += ComfortSummary.ratingNames.flatMap { name in
                [Self.number(group.ratings[name]?.mean, 2), group.ratings[name].map { String($0.count) } ?? "0"]
            }
            fields += [
                Self.number(group.noiseMeanDecibels, 1), Self.number(group.departureDelayMedianSeconds, 0),
                Self.number(group.departureDelayP90Seconds, 0), Self.number(group.arrivalDelayMedianSeconds, 0),
                Self.number(group.arrivalDelayP90Seconds, 0)
            ]
            csv.append(fields)
        }
        return csv
    }
}
