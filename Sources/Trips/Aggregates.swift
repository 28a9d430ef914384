import MobilityCore

/// The name a missing mode goes by in tables.
public let unknownModeName = "unknown"

func modeName(_ mode: Mode?) -> String { mode?.rawValue ?? unknownModeName }

/// The modes present in a result, in `Mode` order, with "unknown" last when a leg had none.
public func modeNames(in devices: [DeviceTrips]) -> [String] {
    let legs = devices.flatMap(\.triplegs)
    let known = Set(legs.compactMap(\.mode)).sorted().map(\.rawValue)
    return known + (legs.contains { $0.mode == nil } ? [unknownModeName] : [])
}

/// `Mode` order, "unknown" last.
func modeRank(_ name: String) -> Int {
    Mode(rawValue: name).flatMap { Mode.allCases.firstIndex(of: $0) } ?? Mode.allCases.count
}

/// Origin–destination table over geofence zones: one row per (origin, destination) pair of
/// geofence ids (nil where a trip's end lies in no geofence).
public struct ODMatrix: Sendable {
    public struct Row: Sendable, Equatable {
        public var origin: String?
        public var destination: String?
        public var trips: Int
        public var devices: Int
        public var medianDurationSeconds: Double
        public var medianDistanceMeters: Double
        /// Share of the row's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
    }

    public var rows: [Row]

    public init(_ devices: [DeviceTrips]) {
        var groups: [[String?]: [(device: String, trip: Trip)]] = [:]
        for device in devices {
            for trip in device.trips { groups[[trip.originGeofence, trip.destinationGeofence], default: []].append((device.device, trip)) }
        }
        rows = groups.map { key, members in
            var shares: [String: Double] = [:]
            for member in members { shares[modeName(member.trip.mainMode), default: 0] += 1 / Double(members.count) }
            return Row(origin: key[0], destination: key[1], trips: members.count, devices: Set(members.map(\.device)).count,
                       medianDurationSeconds: Quantile.median(members.map(\.trip.durationSeconds))!,
                       medianDistanceMeters: Quantile.median(members.map(\.trip.distanceMeters))!, modeShares: shares)
        }.sorted { ($0.trips, $1.origin ?? "", $1.destination ?? "") > ($1.trips, $0.origin ?? "", $0.destination ?? "") }
    }
}

/// Modal split by trips (main mode), distance and time (legs), overall and by hour of day,
/// weekday and device. A trip counts in the hour and weekday it starts; a leg likewise.
public struct ModalSplit: Sendable {
    public struct Row: Sendable, Equatable {
        /// "all", "hour", "weekday" or "device".
        public var dimension: String
        public var key: String
        public var mode: String
        public var trips: Int
        public var tripShare: Double
        public var distanceMeters: Double
        public var distanceShare: Double
        public var durationSeconds: Double
        public var durationShare: Double
    }

    public var rows: [Row]

    public init(_ devices: [DeviceTrips], calendar: CalendarKeys = CalendarKeys()) {
        struct Totals { var trips = 0, distance = 0.0, duration = 0.0 }
        var totals: [[String]: Totals] = [:]
        func keys(_ device: String, _ seconds: Double) -> [[String]] {
            [["all", "all"], ["hour", String(format: "%02d", calendar.hour(seconds))],
             ["weekday", CalendarKeys.weekdayNames[calendar.weekday(seconds)]], ["device", device]]
        }
        for device in devices {
            for trip in device.trips {
                for key in keys(device.device, trip.startSeconds) { totals[key + [modeName(trip.mainMode)], default: Totals()].trips += 1 }
            }
            for leg in device.triplegs {
                for key in keys(device.device, leg.startSeconds) {
                    totals[key + [modeName(leg.mode)], default: Totals()].distance += leg.distanceMeters
                    totals[key + [modeName(leg.mode)], default: Totals()].duration += leg.durationSeconds
                }
            }
        }
        var groupTotals: [[String]: Totals] = [:]
        for (key, value) in totals {
            let group = Array(key.prefix(2))
            groupTotals[group, default: Totals()].trips += value.trips
            groupTotals[group, default: Totals()].distance += value.distance
            groupTotals[group, default: Totals()].duration += value.duration
        }
        func share(_ part: Double, _ whole: Double) -> Double { whole > 0 ? part / whole : 0 }
        let dimensionOrder = ["all": 0, "hour": 1, "weekday": 2, "device": 3]
        let weekdayOrder = Dictionary(uniqueKeysWithValues: CalendarKeys.weekdayNames.enumerated().map { ($1, $0) })
        rows = totals.map { key, value in
            let whole = groupTotals[Array(key.prefix(2))]!
            return Row(dimension: key[0], key: key[1], mode: key[2], trips: value.trips, tripShare: share(Double(value.trips), Double(whole.trips)),
                       distanceMeters: value.distance, distanceShare: share(value.distance, whole.distance),
                       durationSeconds: value.duration, durationShare: share(value.duration, whole.duration))
        }.sorted { a, b in
            (dimensionOrder[a.dimension]!, weekdayOrder[a.key] ?? 0, a.key, modeRank(a.mode))
                < (dimensionOrder[b.dimension]!, weekdayOrder[b.key] ?? 0, b.key, modeRank(b.mode))
        }
    }
}

/// What each device did, as the Compiègne app showed its users: time per mode, hours in
/// motion, trips, distance and weekly averages per mode.
///
/// Weekly averages divide by the weeks observed, counted as days with at least one fix / 7,
/// so a device seen on 3 days has its totals scaled by 7/3.
public struct DeviceStatistics: Sendable {
    public struct Row: Sendable, Equatable {
        public var device: String
        public var fixes: Int
        public var firstSeconds: Double?
        public var lastSeconds: Double?
        public var daysObserved: Int
        public var staypoints: Int
        public var dwells: Int
        public var trips: Int
        public var distanceMeters: Double
        /// Time in legs of a mode other than still.
        public var hoursInMotion: Double
        public var secondsPerMode: [String: Double]
        public var distancePerMode: [String: Double]

        public var weeksObserved: Double { Double(daysObserved) / 7 }
    }

    public var rows: [Row]

    public init(_ devices: [DeviceTrips], calendar: CalendarKeys = CalendarKeys()) {
        rows = devices.map { device in
            var seconds: [String: Double] = [:], distance: [String: Double] = [:]
            var motion = 0.0
            for leg in device.triplegs {
                seconds[modeName(leg.mode), default: 0] += leg.durationSeconds
                distance[modeName(leg.mode), default: 0] += leg.distanceMeters
                if leg.mode != .still { motion += leg.durationSeconds }
            }
            let observed = device.observed
            return Row(device: device.device, fixes: observed.fixes, firstSeconds: observed.firstSeconds,
                       lastSeconds: observed.lastSeconds, daysObserved: observed.daysObserved(calendar),
                       staypoints: device.staypoints.count, dwells: device.dwells.count, trips: device.trips.count,
                       distanceMeters: device.triplegs.reduce(0) { $0 + $1.distanceMeters }, hoursInMotion: motion / 3600,
                       secondsPerMode: seconds, distancePerMode: distance)
        }
    }
}
