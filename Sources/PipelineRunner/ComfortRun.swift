import Comfort
import Foundation
import Ingest
import MobilityCore
import Reports
import Store
import Trips

/// The comfort stage over a store: each check-in becomes a ride, placed in time by the
/// device's fixes and the station geofences (`RideWindow`) and measured from the device's IMU
/// files that cover it (`RideMeasurement`); rides are replaced in the store (one
/// transaction) and written with the per-train and per-route tables. Check-ins that match no
/// data are kept with their status (`no_data`, `no_imu`, `unusable_imu`), never dropped.
public struct ComfortRun {
    public var storePath: String
    public var reportsFolder: String
    public var maxRideSeconds = RideWindow.Parameters.maxRideSeconds
    public var metrics = RideMetrics.Parameters()

    public init(storePath: String, reportsFolder: String) {
        self.storePath = storePath
        self.reportsFolder = reportsFolder
    }

    public struct Summary: Sendable, Encodable {
        public var checkins = 0
        public var rides = 0
        public var byStatus: [String: Int] = [:]
        public var trains = 0
        public var routes = 0
        public var unknownStations: [String] = []
        public var seconds = 0.0
        public var files: [String] = []
        /// Each check-in whose ride was not measured, with why.
        public var notMeasured: [String] = []

        enum CodingKeys: String, CodingKey {
            case checkins, rides, byStatus = "by_status", trains, routes, unknownStations = "unknown_stations", seconds, files
            case notMeasured = "not_measured"
        }
    }

    public func run(progress: Progress) throws -> (Summary, [Ride]) {
        let lock = try RunLock(storePath: storePath)  // one writer per store at a time
        defer { withExtendedLifetime(lock) {} }
        let started = Date()
        let store = try PipelineStore(path: storePath)
        let checkIns = try store.checkIns()
        try store.clearStageFailures(stage: "comfort")  // rebuilt whole: what fails now is recorded again below
        let fences = try store.geofences()
        func station(_ name: String) -> Geofence? {
            fences.first { $0.id == name } ?? fences.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
        var summary = Summary(checkins: checkIns.count)
        summary.unknownStations = Array(Set(checkIns.flatMap { [$0.checkIn.fromStation, $0.checkIn.toStation] }.filter { station($0) == nil })).sorted()
        let measurement = RideMeasurement(loader: RecordingLoader(), parameters: metrics)
        var rides: [Ride] = []
        var rows: [PipelineStore.RideRow] = []
        for (device, group) in Dictionary(grouping: checkIns, by: { $0.checkIn.device }).sorted(by: { $0.key < $1.key }) {
            let track = try store.track(named: device)
            for (id, checkIn) in group.sorted(by: { $0.checkIn.checkinTime < $1.checkIn.checkinTime }) {
                progress.update(done: rides.count, total: checkIns.count, item: "\(device) \(checkIn.train)")
                let window = RideWindow(checkinSeconds: checkIn.checkinTime.secondsSince1970, points: track.points,
                                        origin: station(checkIn.fromStation), destination: station(checkIn.toStation), maxRideSeconds: maxRideSeconds)
                let files = try store.imuFiles(device: device, from: window.startSeconds, to: window.endSeconds)
                let hasFixes = track.points.contains { $0.timeSeconds >= window.startSeconds && $0.timeSeconds <= window.endSeconds }
                var ride = Ride(checkIn: checkIn, window: window, status: hasFixes ? .noIMU : .noData)
                var gravityFreeOnly = false
                if !files.isEmpty {
                    let measured = try measurement.measure(files: files, window: window)
                    for error in measured.unreadable {
                        try store.recordStageFailure(path: error.path, stage: "comfort", code: error.code.rawValue, reason: error.message)
                        progress.log("comfort: set aside \(error.path) for check-in \(device) \(checkIn.train) (line \(checkIn.line)): \(error.message)")
                    }
                    (ride.status, ride.metrics, ride.rateHz) = (measured.status == .noIMU && !hasFixes ? .noData : measured.status, measured.metrics, measured.rateHz)
                    gravityFreeOnly = measured.gravityFreeOnly
                }
                if ride.status != .measured {
                    let why = RideMeasurement.reason(ride.status, rateHz: ride.rateHz, gravityFree: gravityFreeOnly) ?? ""
                    progress.log("comfort: check-in \(device) \(checkIn.train) \(checkIn.fromStation)→\(checkIn.toStation) (line \(checkIn.line)): "
                                 + "\(ride.status.rawValue): \(why)")
                    summary.notMeasured.append("\(device) \(checkIn.train) \(checkIn.fromStation)→\(checkIn.toStation) (line \(checkIn.line)): \(why)")
                }
                rides.append(ride)
                rows.append(Self.row(ride, checkinID: id))
                summary.byStatus[ride.status.rawValue, default: 0] += 1
            }
        }
        progress.update(done: checkIns.count, total: checkIns.count, item: "")
        try store.replaceRides(rows)
        try ComfortTables(rides: rides).write(to: reportsFolder)
        summary.rides = rides.count
        summary.trains = Set(rides.map(\.checkIn.train)).count
        summary.routes = Set(rides.map { [$0.checkIn.fromStation, $0.checkIn.toStation] }).count
        summary.files = ComfortTables.fileNames.map { (reportsFolder as NSString).appendingPathComponent($0) }
        summary.seconds = Date().timeIntervalSince(started)
        return (summary, rides)
    }

    /// Two lines for logs and terminals.
    public static func text(_ s: Summary) -> String {
        var text = "\(s.checkins) check-ins: " + s.byStatus.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            + "; \(s.trains) trains, \(s.routes) routes"
        if !s.unknownStations.isEmpty { text += "\nstations with no geofence: " + s.unknownStations.joined(separator: ", ") }
        return text
    }

    static func row(_ ride: Ride, checkinID: Int64) -> PipelineStore.RideRow {
        let c = ride.checkIn, w = ride.window, m = ride.metrics
        return PipelineStore.RideRow(checkinID: checkinID, values: [
            "device": c.device, "train": c.train, "from_station": c.fromStation, "to_station": c.toStation, "status": ride.status.rawValue,
            "started_unix_s": w.startSeconds, "finished_unix_s": w.endSeconds, "departure_unix_s": w.departureSeconds,
            "arrival_unix_s": w.arrivalSeconds, "departure_delay_s": ride.departureDelaySeconds, "arrival_delay_s": ride.arrivalDelaySeconds,
            "imu_rate_hz": ride.rateHz, "rms_x": m?.longitudinal.rms, "rms_y": m?.lateral.rms, "rms_z": m?.vertical.rms, "a_v": m?.totalValue,
            "mtvv_x": m?.longitudinal.mtvv, "mtvv_y": m?.lateral.mtvv, "mtvv_z": m?.vertical.mtvv,
            "vdv_x": m?.longitudinal.vdv, "vdv_y": m?.lateral.vdv, "vdv_z": m?.vertical.vdv,
            "crest_x": m?.longitudinal.crestFactor, "crest_y": m?.lateral.crestFactor, "crest_z": m?.vertical.crestFactor,
            "comfort_band": m?.comfortBand.rawValue, "nmv": m?.nmv, "nmv_class": m?.nmvClass?.rawValue,
            "jerks_longitudinal_per_h": m?.longitudinalJerksPerHour, "jerks_lateral_per_h": m?.lateralJerksPerHour,
            "continuous_comfort_5s": m.map { "[" + $0.continuousComfort.map { FixedPoint.text($0, digits: 4) }.joined(separator: ",") + "]" },
        ])
    }
}
