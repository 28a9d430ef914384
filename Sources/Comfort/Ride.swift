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

/// Rides grouped by train number or by route (from → to): counts, comfort distribution,
/// ratings and punctuality.
public struct ComfortSummary: Sendable {
    public var key: String
    public var rides = 0
    public var measuredRides = 0
    public var devices = 0
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
    public static func group(_ rides: [Ride], by key: (CheckIn) -> String) -> [ComfortSummary] {
        Dictionary(grouping: rides.filter { $0.checkIn != nil }) { key($0.checkIn!) }.map { ComfortSummary(key: $0.key, rides: $0.value) }
            .sorted { $0.key < $1.key }
    }

    init(key: String, rides: [Ride]) {
        self.key = key
        self.rides = rides.count
        devices = Set(rides.map(\.device)).count
        let measured = rides.compactMap(\.metrics)
        measuredRides = measured.count
        let nmvs = measured.compactMap(\.nmv), totals = measured.map(\.totalValue)
        (nmvMedian, nmvP95) = (Self.quantile(nmvs, 0.5), Self.quantile(nmvs, 0.95))
        (totalValueMedian, totalValueP95) = (Self.quantile(totals, 0.5), Self.quantile(totals, 0.95))
        if !measured.isEmpty {
            for rideClass in NMVClass.allCases {
                nmvClassShares[rideClass] = Double(measured.filter { $0.nmvClass == rideClass }.count) / Double(measured.count)
            }
        }
        let values: [[Int?]] = rides.compactMap(\.checkIn).map { [$0.cleanliness, $0.odoursTemperature, $0.crowding, $0.service] }
        for (index, name) in Self.ratingNames.enumerated() {
            let given = values.compactMap { $0[index] }
            if !given.isEmpty { ratings[name] = (Double(given.reduce(0, +)) / Double(given.count), given.count) }
        }
        let noise = rides.compactMap { $0.checkIn?.noiseDecibels }
        noiseMeanDecibels = noise.isEmpty ? nil : noise.reduce(0, +) / Double(noise.count)
        let departures = rides.compactMap(\.departureDelaySeconds), arrivals = rides.compactMap(\.arrivalDelaySeconds)
        (departureDelayMedianSeconds, departureDelayP90Seconds) = (Self.quantile(departures, 0.5), Self.quantile(departures, 0.9))
        (arrivalDelayMedianSeconds, arrivalDelayP90Seconds) = (Self.quantile(arrivals, 0.5), Self.quantile(arrivals, 0.9))
    }

    /// Linear interpolation between ranks (numpy's default); nil for no values.
    public static func quantile(_ values: [Double], _ q: Double) -> Double? { Quantile.of(values, q) }
}
