import Foundation

extension GTFSFeed {
    /// A route of `routes.txt` of a rail, bus or ferry kind (GTFS Schedule Reference,
    /// `routes.txt`: `route_id`, `agency_id`, `route_short_name`, `route_long_name`, `route_type`).
    public struct Route: Sendable, Hashable {
        public var id: String
        /// `agency_id`; empty in a feed of one agency, which may leave it out.
        public var agencyID: String
        public var shortName: String
        public var longName: String
        /// `route_type` as the feed gives it, basic (0–12) or extended (100–1700).
        public var routeType: Int
        public var kind: TransitKind

        /// What riders call it: `route_short_name` ("S1", "38R"), else `route_long_name` (GTFS:
        /// one of the two is required).
        public var name: String { shortName.isEmpty ? longName : shortName }
    }

    /// One way a route's trips run: its `direction_id`, its stops in `stop_sequence` order (the
    /// feed's stop indices) and the line they run along (the trips' shape from `shapes.txt`, else
    /// the straight lines between the stops). Trips that call at the same stops in the same order
    /// along the same shape share a pattern; `trips` counts them.
    public struct Pattern: Sendable {
        /// Index into the feed's `lines`.
        public var route: Int
        /// `trips.txt` `direction_id` (0 or 1); nil where the feed leaves it out.
        public var direction: Int?
        public var stops: [Int]
        /// The trips that run it, by `trip_id`.
        public var timetable: [ScheduledTrip]
        /// Latitude, longitude pairs in travel order.
        public var path: [(Double, Double)]

        public var trips: Int { timetable.count }
    }

    /// One trip of `trips.txt` with its times at each stop of its pattern (`stop_times.txt`
    /// `arrival_time`, `departure_time`), in seconds from noon minus 12 h of its service day
    /// (GTFS "Time": past 24:00:00 for a trip that runs on after midnight).
    public struct ScheduledTrip: Sendable {
        public var id: String
        /// `service_id`: the calendar that says which days it runs (`GTFSService.calendars`).
        public var service: String
        public var arrivals: [Int32]
        public var departures: [Int32]

        /// Times with the missing ones (-1: a stop that is not a timepoint) filled in linearly by
        /// stop between the known ones (GTFS leaves that to the consumer), the ends held; all -1
        /// when none is known.
        static func interpolated(_ times: [Int32]) -> [Int32] {
            let known = times.indices.filter { times[$0] >= 0 }
            guard let first = known.first, let last = known.last else { return times }
            var filled = times
            for index in 0..<first { filled[index] = times[first] }
            for index in (last + 1)..<times.count { filled[index] = times[last] }
            for (a, b) in zip(known, known.dropFirst()) where b > a + 1 {
                for index in (a + 1)..<b {
                    filled[index] = times[a] + Int32(Double(times[b] - times[a]) * Double(index - a) / Double(b - a))
                }
            }
            return filled
        }
    }

    struct PatternKey: Hashable, Comparable {
        var route: Int
        var direction: Int?
        var stops: [Int]
        var shape: String?

        static func < (a: PatternKey, b: PatternKey) -> Bool {
            if a.route != b.route { return a.route < b.route }
            if a.direction != b.direction { return (a.direction ?? -1) < (b.direction ?? -1) }
            if a.stops != b.stops { return a.stops.lexicographicallyPrecedes(b.stops) }
            return (a.shape ?? "") < (b.shape ?? "")
        }
    }
}

extension TransitKind {
    /// The finer type of a `route_type` (GTFS Schedule Reference, `routes.txt`, `route_type`
    /// 0–12; Google Transit's "Extended GTFS Route Types" 100–1700), in the words of the basic
    /// types: `tram`, `subway`, `rail`, `bus`, `ferry`, `cable_tram`, `aerial_lift`,
    /// `funicular`, `trolleybus`, `monorail`, with `coach` (200–299) and `water` (1000–1099)
    /// for the extended types that have no basic one. Nil for a type neither list defines.
    public static func routeTypeName(_ routeType: Int) -> String? {
        switch routeType {
        case 12, 405: "monorail"
        case 0, 900..<1000: "tram"
        case 1, 400..<500: "subway"
        case 2, 100..<200: "rail"
        case 3, 700..<800: "bus"
        case 4, 1200: "ferry"
        case 5: "cable_tram"
        case 6, 1300..<1400: "aerial_lift"
        case 7, 1400..<1500: "funicular"
        case 11, 800: "trolleybus"
        case 200..<300: "coach"
        case 1000..<1100: "water"
        default: nil
        }
    }
}
