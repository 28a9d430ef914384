import MobilityCore

/// One ride and what was measured of it: a passenger's check-in placed in time by the device's
/// fixes, or a recording (or its part between gaps) taken as a ride of its own.
public struct Ride: Sendable {
    /// What could be measured.
    public enum Status: String, Sendable, Codable {
        /// IMU data covered the ride: comfort metrics computed.
        case measured
        /// GPS fixes placed the ride, but no accelerometer data covered it.
        case noIMU = "no_imu"
        /// Neither fixes nor IMU data of the device near the check-in.
        case noData = "no_data"
        /// IMU data too short (under 60 s covered) or too slow (under 20 Hz) to weight.
        case unusableIMU = "unusable_imu"
    }

    /// Where the ride came from.
    public enum Source: String, Sendable, Codable {
        case checkIn = "checkin"
        /// A recording measured as it is, with no check-in.
        case recording
    }

    /// The check-in; nil for a ride taken from a recording.
    public var checkIn: CheckIn?
    public var device: String
    /// The IMU file(s) measured, `;` between several.
    public var trace: String
    public var window: RideWindow
    public var status: Status
    public var metrics: RideMetrics?
    /// The stream's native rate (from its median interval, repeats seen through), Hz.
    public var rateHz: Double?
    /// Seconds of the ride the IMU data covers.
    public var coveredSeconds: Double?
    public var stops: [RideStop] = []
    public var verticalSource: VehicleFrame.VerticalSource?
    /// Why the ride was not measured, in words a user can act on.
    public var note: String?

    public var source: Source { checkIn == nil ? .recording : .checkIn }

    public init(checkIn: CheckIn, window: RideWindow, status: Status, metrics: RideMetrics? = nil, rateHz: Double? = nil) {
        (self.checkIn, self.window, self.status, self.metrics, self.rateHz) = (checkIn, window, status, metrics, rateHz)
        (device, trace) = (checkIn.device, "")
    }

    public init(device: String, trace: String, window: RideWindow, status: Status) {
        (self.checkIn, self.device, self.trace, self.window, self.status) = (nil, device, trace, window, status)
    }

    /// Measured departure minus scheduled, seconds.
    public var departureDelaySeconds: Double? {
        guard let measured = window.departureSeconds, let scheduled = checkIn?.scheduledDeparture else { return nil }
        return measured - scheduled.secondsSince1970
    }

    public var arrivalDelaySeconds: Double? {
        guard let measured = window.arrivalSeconds, let scheduled = checkIn?.scheduledArrival else { return nil }
        return measured - scheduled.secondsSince1970
    }
}

/// What the comfort summaries need of one group of check-in rides (a train, or a route from
/// TAB to): counts, the measured rides' N_MV and a_v values and classes, the ratings' and the
/// noise's sums and counts (noise added in ride order), and the delays. A single run reduces
/// its rides to these (`groups`); a distributed run's parts write the same groups
/// (`partialTable`), its Spark job merges them as their columns declare, and `ComfortSummary(group:)` applies the
/// one set of formulas to either.
public struct ComfortGroup: Sendable, Equatable {
    public var key: String
    public var rides = 0, measuredRides = 0, devices = 0
    /// Distinct persons who made the group's rides (a device without a named person is one).
    public var persons = 0
    public var nmvs: [Double] = [], totalValues: [Double] = []
    public var classCounts: [NMVClass: Int] = [:]
    public var ratingSums: [String: Int] = [:], ratingCounts: [String: Int] = [:]
    public var noiseSumDecibels = 0.0, noiseCount = 0
    public var departureDelays: [Double] = [], arrivalDelays: [Double] = []

    public init(key: String) { self.key = key }

    /// `persons` names each device's person (the device itself where it names none).
    public static func groups(_ rides: [Ride], persons: [String: String] = [:], by key: (CheckIn) -> String) -> [ComfortGroup] {
        Dictionary(grouping: rides.filter { $0.checkIn != nil }) { key($0.checkIn!) }.map {
            ComfortGroup(key: $0.key, rides: $0.value, persons: persons)
        }
    }

    /// A distributed run's part's groups (`train_comfort_groups` keyed by `train`,
    /// `route_comfort_groups` by `from_station` and `to_station`), before the merge: the groups
    /// of `groups`, with each one's persons by name and its noise values in ride order (which
    /// the reducer adds over the parts in order, as `init` adds them).
    public static func partialTable(_ rides: [Ride], persons: [String: String] = [:], byRoute: Bool) -> PartialTable {
        var table = partialSchema(byRoute: byRoute)
        let checkedIn = rides.filter { $0.checkIn != nil }
        for (key, rides) in Dictionary(
            grouping: checkedIn, by: { byRoute ? [$0.checkIn!.fromStation, $0.checkIn!.toStation] : [$0.checkIn!.train] })
        {
            let group = ComfortGroup(key: key.joined(separator: "\t"), rides: rides, persons: persons)
            let noise = rides.compactMap { $0.checkIn?.noiseDecibels }
            var row: [PartialTable.Value] = key.map { .text($0) }
            row += [.integer(group.rides), .integer(group.measuredRides), .integer(group.devices)]
            row += [.names(Set(rides.map { persons[$0.device] ?? $0.device })), .numbers(group.nmvs), .numbers(group.totalValues)]
            row += NMVClass.allCases.map { .integer(group.classCounts[$0] ?? 0) }
            row += ComfortSummary.ratingNames.flatMap { [.integer(group.ratingSums[$0] ?? 0), .integer(group.ratingCounts[$0] ?? 0)] }
            row += [.numbers(noise), .integer(noise.count), .numbers(group.departureDelays), .numbers(group.arrivalDelays)]
            table.append(row)
        }
        return table
    }

    /// `train_comfort_groups` or `route_comfort_groups` without rows: the columns and how each merges.
    public static func partialSchema(byRoute: Bool) -> PartialTable {
        let keys = byRoute ? ["from_station", "to_station"] : ["train"]
        return PartialTable(
            name: byRoute ? "route_comfort_groups" : "train_comfort_groups", columns: keys.map { .init($0, .key) } + partialColumns)
    }

    /// The columns after the key's.
    static let partialColumns: [PartialTable.Column] =
        [.init("rides", .sum), .init("measured_rides", .sum), .init("devices", .sum), .init("persons", .distinctCount)]
        + [.init("nmvs", .sortedNumbers), .init("a_vs_mps2", .sortedNumbers)]
        + NMVClass.allCases.map { .init("class_" + $0.rawValue.replacingOccurrences(of: " ", with: "_"), .sum) }
        + ComfortSummary.ratingNames.flatMap { [PartialTable.Column($0 + "_sum", .sum), .init($0 + "_n", .sum)] }
        + [.init("noise_db_sum", .orderedSum), .init("noise_n", .sum)]
        + [.init("departure_delays_s", .sortedNumbers), .init("arrival_delays_s", .sortedNumbers)]

    init(key: String, rides: [Ride], persons: [String: String]) {
        self.key = key
        self.rides = rides.count
        devices = Set(rides.map(\.device)).count
        self.persons = Set(rides.map { persons[$0.device] ?? $0.device }).count
        let measured = rides.compactMap(\.metrics)
        measuredRides = measured.count
        nmvs = measured.compactMap(\.nmv)
        totalValues = measured.map(\.totalValue)
        for metrics in measured { if let rideClass = metrics.nmvClass { classCounts[rideClass, default: 0] += 1 } }
        for checkIn in rides.compactMap(\.checkIn) {
            for (name, value) in zip(
                ComfortSummary.ratingNames, [checkIn.cleanliness, checkIn.odoursTemperature, checkIn.crowding, checkIn.service])
            {
                guard let value else { continue }
                ratingSums[name, default: 0] += value
                ratingCounts[name, default: 0] += 1
            }
            if let noise = checkIn.noiseDecibels { noiseSumDecibels += noise; noiseCount += 1 }
        }
        departureDelays = rides.compactMap(\.departureDelaySeconds)
        arrivalDelays = rides.compactMap(\.arrivalDelaySeconds)
    }
}

/// Rides grouped by train number or by route (from → to): counts, comfort distribution,
/// ratings and punctuality.
public struct ComfortSummary: Sendable {
    public var key: String
    public var rides = 0
    public var measuredRides = 0
    public var devices = 0
    /// Distinct persons who rode (k counts them).
    public var persons = 0
    public var nmvMedian: Double?, nmvP95: Double?
    public var totalValueMedian: Double?, totalValueP95: Double?
    /// Share of measured rides with an N_MV in each EN 12299 class (a ride shorter than 5 min
    /// counts with its partial N_MV).
    public var nmvClassShares: [NMVClass: Double] = [:]
    /// Mean and count of each rating (cleanliness, odours_temperature, crowding, service).
    public var ratings: [String: (mean: Double, count: Int)] = [:]
    public var noiseMeanDecibels: Double?
    public var departureDelayMedianSeconds: Double?, departureDelayP90Seconds: Double?
    public var arrivalDelayMedianSeconds: Double?, arrivalDelayP90Seconds: Double?

    public static let ratingNames = ["cleanliness", "odours_temperature", "crowding", "service"]

    /// Check-in rides grouped by `key` (a ride from a recording alone has no train or route).
    public static func group(_ rides: [Ride], persons: [String: String] = [:], by key: (CheckIn) -> String) -> [ComfortSummary] {
        ComfortGroup.groups(rides, persons: persons, by: key).map(ComfortSummary.init(group:)).sorted { $0.key < $1.key }
    }

    /// The formulas over one group's reduction: type 7 quantiles (MobilityCore/Quantile), class
    /// shares of the measured rides, means of the ratings and of the noise.
    public init(group: ComfortGroup) {
        key = group.key
        rides = group.rides
        devices = group.devices
        persons = group.persons
        measuredRides = group.measuredRides
        (nmvMedian, nmvP95) = (Self.quantile(group.nmvs, 0.5), Self.quantile(group.nmvs, 0.95))
        (totalValueMedian, totalValueP95) = (Self.quantile(group.totalValues, 0.5), Self.quantile(group.totalValues, 0.95))
        if group.measuredRides > 0 {
            for rideClass in NMVClass.allCases {
                nmvClassShares[rideClass] = Double(group.classCounts[rideClass] ?? 0) / Double(group.measuredRides)
            }
        }
        for name in Self.ratingNames {
            if let count = group.ratingCounts[name], count > 0 {
                ratings[name] = (Double(group.ratingSums[name] ?? 0) / Double(count), count)
            }
        }
        noiseMeanDecibels = group.noiseCount == 0 ? nil : group.noiseSumDecibels / Double(group.noiseCount)
        (departureDelayMedianSeconds, departureDelayP90Seconds) = (
            Self.quantile(group.departureDelays, 0.5), Self.quantile(group.departureDelays, 0.9)
        )
        (arrivalDelayMedianSeconds, arrivalDelayP90Seconds) = (
            Self.quantile(group.arrivalDelays, 0.5), Self.quantile(group.arrivalDelays, 0.9)
        )
    }

    /// Linear interpolation between ranks (numpy's default); nil for no values.
    public static func quantile(_ values: [Double], _ q: Double) -> Double? { Quantile.of(values, q) }
}
