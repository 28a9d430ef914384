import Foundation
import MobilityCore

/// Writes a simulation as the files phones and apps produce, plus its truth:
///
/// - `DIR/<device>/<day>.gpx`: the day's fixes (GPX 1.1, `hdop` = accuracy / 5);
/// - IMU for each recorded trip, from a minute before to a minute after: even-numbered
///   devices as a generic CSV (`time,ax,ay,az,gx,gy,gz`, Unix seconds, m/s², rad/s, gzipped),
///   odd-numbered ones as a Sensor Logger export folder (ns times, z,y,x columns);
/// - `DIR/geofences.geojson` (homes and workplaces as circles, shops as squares),
///   `DIR/stations.csv` (station circles), `DIR/checkins.csv` (one per train ride, with
///   schedule, ratings and noise), `DIR/labels.csv` (every leg's mode and every stay as still);
/// - `TRUTH/stays.csv, dwells.csv, legs.csv, trips.csv, rides.csv`: what really happened.
public struct SimulationWriter: Sendable {
    public var simulation: Simulation
    public var outputFolder: String
    public var truthFolder: String

    public init(simulation: Simulation, outputFolder: String, truthFolder: String) {
        self.simulation = simulation
        self.outputFolder = outputFolder
        self.truthFolder = truthFolder
    }

    public struct Summary: Sendable, Encodable {
        public var devices = 0, days = 0, fixes = 0, imuSamples = 0, files = 0
        public var stays = 0, legs = 0, trips = 0, rides = 0
        enum CodingKeys: String, CodingKey {
            case devices, days, fixes, imuSamples = "imu_samples", files, stays, legs, trips, rides
        }
    }

    /// Devices are written in parallel, each into its own folder; the shared tables last.
    public func write(progress: (String) -> Void = { _ in }) throws -> Summary {
        let residents = simulation.residents
        let results = ConcurrentSlots<Result<DeviceOutput, Error>>(count: residents.count)
        Jobs.perform(residents.count) { index in
            results.store(Result { try writeDevice(residents[index], index: index) }, at: index)
        }
        var truth = Truth()
        var summary = Summary(devices: residents.count, days: simulation.parameters.days)
        var untracked = "device,started_at,finished_at\n"
        for (index, result) in results.values.enumerated() {
            let output = try result.get()
            for gap in output.phoneOff { untracked += "\(residents[index].device),\(iso(gap.start)),\(iso(gap.end))\n" }
            truth = Simulation.merge(truth, output.truth)
            summary.fixes += output.fixes
            summary.imuSamples += output.imuSamples
            summary.files += output.files
            progress("simulated \(residents[index].device)")
        }
        try writeShared(truth)
        try TruthTables(truth: truth, city: simulation.city).write(to: truthFolder)
        try TextFile.write(untracked, to: (truthFolder as NSString).appendingPathComponent("untracked.csv"))
        summary.files += 5
        summary.stays = truth.stays.count
        summary.legs = truth.legs.count
        summary.trips = truth.trips.count
        summary.rides = truth.rides.count
        return summary
    }

    struct DeviceOutput {
        var truth: Truth
        var fixes = 0, imuSamples = 0, files = 0
        /// When the phone recorded nothing (`phoneOffShare`).
        var phoneOff: [(start: Double, end: Double)] = []
    }

    private func writeDevice(_ resident: Resident, index: Int) throws -> DeviceOutput {
        let parameters = simulation.parameters
        var truth = simulation.plan(resident, index: index)
        var generator = SeededGenerator(seed: parameters.seed &* 7_919 &+ UInt64(index))
        let sampler = GPSSampler(
            city: simulation.city, movingIntervalSeconds: parameters.gpsMovingIntervalSeconds,
            stillIntervalSeconds: parameters.gpsStillIntervalSeconds)
        var fixes = sampler.fixes(stays: truth.stays, legs: truth.legs, generator: &generator)
        let calendar = simulation.calendar, first = calendar.dayNumber(simulation.startSeconds)
        var phoneOff: [(start: Double, end: Double)] = []
        if parameters.phoneOffShare > 0 { // a generator of its own: without gaps, the fixes are as before
            var gaps = SeededGenerator(seed: parameters.seed &* 6_113 &+ UInt64(index))
            for day in 0..<parameters.days where gaps.nextUnit() < parameters.phoneOffShare {
                let start = (calendar.dayStart(first + day) + 3600 * 20 * gaps.nextUnit()).rounded()
                phoneOff.append((start, (start + 3600 * (1 + 5 * gaps.nextUnit())).rounded()))
            }
            fixes.removeAll { fix in phoneOff.contains { fix.timeSeconds >= $0.start && fix.timeSeconds < $0.end } }
        }
        var output = DeviceOutput(truth: truth, fixes: fixes.count, phoneOff: phoneOff)
        let folder = (outputFolder as NSString).appendingPathComponent(resident.device)
        for day in 0..<parameters.days { // a file per local day
            let start = calendar.dayStart(first + day), end = calendar.dayStart(first + day + 1)
            let dayFixes = fixes.filter { $0.timeSeconds >= start && $0.timeSeconds < end }
            let name = CalendarKeys.dateText(first + day)
            let path = (folder as NSString).appendingPathComponent("\(name).gpx")
            try GPXText.write(dayFixes, device: resident.device, city: simulation.city, to: path)
            output.files += 1
            if parameters.faults && index == 0 && day == 0 {
                try GPXText.writeCutOff(
                    dayFixes, device: resident.device, to: (folder as NSString).appendingPathComponent("\(name)-upload-cut-off.gpx"))
                output.files += 1
            }
        }
        if parameters.imuRateHz > 0, index < parameters.imuDevices ?? Int.max {
            var perDay: [Int: Int] = [:]
            for (tripIndex, trip) in truth.trips.enumerated() {
                let day = calendar.dayNumber(trip.startSeconds) - first
                perDay[day, default: 0] += 1
                if let limit = parameters.imuTripsPerDay, perDay[day]! > limit { continue }
                let recording = IMURecording(
                    start: trip.startSeconds - 60, end: trip.endSeconds + 60, legs: truth.legs,
                    rateHz: parameters.imuRateHz, seed: parameters.seed &* 104_729 &+ UInt64(index * 10_000 + tripIndex))
                output.imuSamples += try recording.write(device: resident.device, sensorLogger: index % 2 == 1, folder: folder)
                output.files += 1
            }
        }
        for index in truth.legs.indices { truth.legs[index].path = [] } // positions are in the files now
        output.truth = truth
        return output
    }

    private func writeShared(_ truth: Truth) throws {
        let city = simulation.city
        try TextFile.write(
            GeofenceText.geojson(city: city, homes: simulation.residents.map(\.home)),
            to: (outputFolder as NSString).appendingPathComponent("geofences.geojson"))
        try TextFile.write(GeofenceText.stationsCSV(city: city), to: (outputFolder as NSString).appendingPathComponent("stations.csv"))
        var labels = "device,start,end,mode\n"
        let periods =
            truth.legs.map { ($0.device, $0.startSeconds, $0.endSeconds, $0.mode) }
            + truth.stays.map { ($0.device, $0.startSeconds, $0.endSeconds, Mode.still) }
        for (device, start, end, mode) in periods.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            labels += "\(device),\(iso(start)),\(iso(end)),\(mode.rawValue)\n"
        }
        try TextFile.write(labels, to: (outputFolder as NSString).appendingPathComponent("labels.csv"))
        var checkins =
            "device,train,from_station,to_station,checkin_time,scheduled_departure,scheduled_arrival,"
            + "cleanliness,odours_temperature,crowding,service,noise_db,comment\n"
        var generator = SeededGenerator(seed: simulation.parameters.seed &+ 17)
        for (index, ride) in truth.rides.enumerated() {
            let ratings = (0..<4).map { _ in String(1 + Int(generator.nextUnit() * 5)) }
            let crowding = simulation.parameters.faults && index == 0 ? "7" : ratings[2]
            let noise = FixedPoint.text(generator.uniform(62...76), digits: 1)
            let comment = ride.arrivalSeconds - ride.scheduledArrivalSeconds > 180 ? "late again" : ""
            checkins +=
                "\(ride.device),\(ride.train),\(ride.from.id),\(ride.to.id),\(iso(ride.checkinSeconds)),"
                + "\(iso(ride.scheduledDepartureSeconds)),\(iso(ride.scheduledArrivalSeconds)),"
                + "\(ratings[0]),\(ratings[1]),\(crowding),\(ratings[3]),\(noise),\(comment)\n"
        }
        try TextFile.write(checkins, to: (outputFolder as NSString).appendingPathComponent("checkins.csv"))
    }
}

func iso(_ seconds: Double) -> String { ISO8601.format(Timestamp(secondsSince1970: seconds)) }
