import Comfort
import Foundation
import MobilityCore
import Testing
import Trips

@Suite struct RideWindowTests {
    /// A device waits in station A (48.80, 2.30), rides 10 km north to station B, walks out.
    func track() -> [TrackPoint] {
        var points: [TrackPoint] = []
        let start = 1_700_000_000.0
        for s in stride(from: 0.0, to: 180, by: 10) {
            points.append(.init(timeSeconds: start + s, latitudeDegrees: 48.80, longitudeDegrees: 2.30))
        }
        for s in stride(from: 0.0, through: 600, by: 5) {
            points.append(.init(timeSeconds: start + 180 + s, latitudeDegrees: 48.80 + 10_000 / 111_195 * s / 600, longitudeDegrees: 2.30))
        }
        for s in stride(from: 10.0, to: 600, by: 10) {
            points.append(
                .init(timeSeconds: start + 780 + s, latitudeDegrees: 48.80 + 10_000 / 111_195 + s * 1.3 / 111_195, longitudeDegrees: 2.30))
        }
        return points
    }

    let a = Geofence(
        id: "A", name: "Alpha", kind: "station", shape: .circle(latitudeDegrees: 48.80, longitudeDegrees: 2.30, radiusMeters: 100))
    let b = Geofence(
        id: "B", name: "Beta", kind: "station",
        shape: .circle(latitudeDegrees: 48.80 + 10_000 / 111_195, longitudeDegrees: 2.30, radiusMeters: 100))

    @Test func theRideRunsFromLeavingOneStationToEnteringTheOther() {
        let start = 1_700_000_000.0
        let window = RideWindow(checkinSeconds: start + 120, points: track(), origin: a, destination: b)
        // 100 m at 16.7 m/s: the last fix inside A is 5 s after departure, the first inside B 5 s before arrival.
        #expect(window.departureSeconds == start + 185 && window.arrivalSeconds == start + 775)
        #expect(window.startSeconds == start + 185 && window.endSeconds == start + 775)
    }

    @Test func withoutStationsTheRideRunsFromTheCheckInToTheEndOfTheData() {
        let start = 1_700_000_000.0
        let window = RideWindow(checkinSeconds: start + 120, points: track(), origin: nil, destination: nil)
        #expect(window.departureSeconds == nil && window.arrivalSeconds == nil)
        #expect(window.startSeconds == start + 120 && window.endSeconds == start + 1370)
        let capped = RideWindow(checkinSeconds: start + 120, points: track(), origin: nil, destination: nil, maxRideSeconds: 300)
        #expect(capped.endSeconds == start + 420)
        let nothing = RideWindow(checkinSeconds: start + 99_999, points: track(), origin: a, destination: b)
        #expect(nothing.departureSeconds == nil && nothing.arrivalSeconds == nil)
    }
}

@Suite struct ComfortSummaryTests {
    /// A ride of 6 min whose vertical vibration is a 4 Hz sine of `amplitude` (a_v = amplitude × Wk(4 Hz) / √2).
    func metrics(amplitude: Double) throws -> RideMetrics {
        let rate = 50.0, n = Int(360 * rate)
        let z = (0..<n).map { 9.81 + amplitude * sin(2 * .pi * 4 * Double($0) / rate) }
        let frame = try #require(VehicleFrame(x: Array(repeating: 0, count: n), y: Array(repeating: 0, count: n), z: z, rateHz: rate))
        return RideMetrics(frame: frame, rateHz: rate)
    }

    func ride(_ device: String, _ train: String, scheduled: Double, arrived: Double?, amplitude: Double?, ratings: [Int?]) throws -> Ride {
        var checkIn = CheckIn(
            device: device, train: train, fromStation: "A", toStation: train == "IC 1" ? "B" : "C",
            checkinTime: Timestamp(secondsSince1970: 1000), line: 2)
        checkIn.scheduledArrival = Timestamp(secondsSince1970: scheduled)
        (checkIn.cleanliness, checkIn.odoursTemperature, checkIn.crowding, checkIn.service) = (
            ratings[0], ratings[1], ratings[2], ratings[3]
        )
        checkIn.noiseDecibels = 70
        var window = RideWindow(checkinSeconds: 1000, points: [], origin: nil, destination: nil)
        window.arrivalSeconds = arrived
        return Ride(
            checkIn: checkIn, window: window, status: amplitude == nil ? .noIMU : .measured,
            metrics: try amplitude.map { try metrics(amplitude: $0) }, rateHz: 50)
    }

    @Test func perTrainAndPerRouteTablesOnAHandBuiltCase() throws {
        let rides = [
            try ride("ana", "IC 1", scheduled: 5000, arrived: 5060, amplitude: 0.2, ratings: [4, 3, 2, nil]),
            try ride("ben", "IC 1", scheduled: 5000, arrived: 5180, amplitude: 0.4, ratings: [5, 3, 1, 4]),
            try ride("ana", "IC 1", scheduled: 9000, arrived: 9000, amplitude: 0.6, ratings: [3, nil, 3, 4]),
            try ride("cem", "RE 7", scheduled: 7000, arrived: nil, amplitude: nil, ratings: [2, 2, 5, 1]),
            try ride("cem", "RE 7", scheduled: 8000, arrived: 8300, amplitude: 1.0, ratings: [nil, nil, nil, nil])
        ]
        let trains = ComfortSummary.group(rides) { $0.train }
        #expect(trains.map(\.key) == ["IC 1", "RE 7"])
        let ic = trains[0], re = trains[1]
        #expect(ic.rides == 3 && ic.measuredRides == 3 && ic.devices == 2 && re.rides == 2 && re.measuredRides == 1 && re.devices == 1)
        let wk4 = FrequencyWeighting.wk.magnitude(atHz: 4) / 2.squareRoot()
        #expect(abs(ic.totalValueMedian! / (0.4 * wk4) - 1) < 0.02, "median of 0.2, 0.4, 0.6 is 0.4")
        // 95th percentile of three: rank 2 × 0.95 = 1.9 → 0.4 + 0.9 × 0.2 = 0.58.
        #expect(abs(ic.totalValueP95! / (0.58 * wk4) - 1) < 0.02)
        #expect(ic.ratings["cleanliness"]!.mean == 4 && ic.ratings["cleanliness"]!.count == 3)
        #expect(ic.ratings["odours_temperature"]!.count == 2 && ic.ratings["service"]!.mean == 4)
        #expect(re.ratings["crowding"]!.mean == 5 && re.ratings["crowding"]!.count == 1)
        // Arrival delays 60, 180, 0 s: median 60, 90th percentile 0.9 × 2 = 1.8 → 60 + 0.8 × 120 = 156.
        #expect(ic.arrivalDelayMedianSeconds == 60 && abs(ic.arrivalDelayP90Seconds! - 156) < 1e-9)
        #expect(re.arrivalDelayMedianSeconds == 300 && re.departureDelayMedianSeconds == nil)
        #expect(ic.noiseMeanDecibels == 70)
        // 6 min rides have one 5 min block each; shares over measured rides add up to 1.
        #expect(abs(ic.nmvClassShares.values.reduce(0, +) - 1) < 1e-9)
        let routes = ComfortSummary.group(rides) { "\($0.fromStation)→\($0.toStation)" }
        #expect(routes.map(\.key) == ["A→B", "A→C"] && routes.map(\.rides) == [3, 2])
    }
}
