import Comfort
import Features
import Foundation
import HeatMaps
import Ingest
import MobilityCore
import Reports
import Store
import Trips

/// The comfort stage over a store. Each check-in becomes a ride, placed in time by the device's
/// fixes and the station geofences (`RideWindow`) and measured from the device's IMU files that
/// cover it (`RideMeasurement`). With `recordings` set, each IMU recording (or each part of it
/// between gaps of `rideGapSeconds`) that no check-in's ride covers is a ride of its own, from
/// its first to its last sample. Rides, their stops and events are replaced in the store (one
/// transaction) and written with the per-train and per-route tables. Check-ins that match no
/// data are kept with their status (`no_data`, `no_imu`, `unusable_imu`) and why, never dropped.
public struct ComfortRun {
    public var storePath: String
    public var reportsFolder: String
    /// Where `rides.csv`, `stops.csv` and `events.csv` go (default `reportsFolder/restricted`,
    /// `OutputLayout`; a distributed run's part keeps them flat in its work folder).
    public var restrictedFolder: String?
    /// Write the comfort tables into `reportsFolder` (false: the store only).
    public var writesFiles = true
    /// Check-ins of devices outside this range belong to another part of a distributed run
    /// (`pipeline run --partial --devices-from … --devices-before …`) and are left to it.
    public var ownedDevices = DeviceRange()
    /// A distributed run's part: also write its partial groups (`train_comfort_groups`,
    /// `route_comfort_groups`; `ComfortGroup.partialTable`) into this folder for the merge.
    public var partialsFolder: String?
    public var maxRideSeconds = RideWindow.Parameters.maxRideSeconds
    public var metrics = RideMetrics.Parameters()
    /// Which recordings become rides without a check-in.
    public var recordings = RecordingRides.none
    /// A pause longer than this splits a recording into separate rides, seconds.
    public var rideGapSeconds = 60.0
    /// Distinct persons a train's or route's comfort summary needs (k; the heat maps' k). Default 3.
    public var minimumPersons = HeatMapParameters().minimumPersons

    public enum RecordingRides: Sendable, Equatable {
        case none
        /// Every ingested IMU recording no check-in covers.
        case all
        /// Only the recordings at or under these paths (those `pipeline comfort PATH…` was given).
        case under([String])
    }

    /// What ingest kept of this run's IMU recordings (`pipeline run`): rides inside it are
    /// measured without parsing their files again.
    var keptSamples: KeptRideSamples?

    public init(storePath: String, reportsFolder: String) {
        self.storePath = storePath
        self.reportsFolder = reportsFolder
    }

    public struct Summary: Sendable, Encodable {
        public var checkins = 0
        public var rides = 0
        /// Rides taken from recordings without a check-in.
        public var recordingRides = 0
        public var byStatus: [String: Int] = [:]
        public var stops = 0
        public var events = 0
        public var trains = 0
        public var routes = 0
        public var unknownStations: [String] = []
        public var seconds = 0.0
        public var files: [String] = []
        /// Each ride that was not measured, with why.
        public var notMeasured: [String] = []
        /// What the stage was asked for and could not do (no recording to measure as a ride).
        public var warnings: [String] = []
        /// What `train_comfort.csv` and `route_comfort.csv` published and left out under k persons.
        public var published = ComfortTables.Published()

        enum CodingKeys: String, CodingKey {
            case checkins, rides, recordingRides = "recording_rides", byStatus = "by_status", stops, events, trains, routes
            case unknownStations = "unknown_stations", seconds, files, notMeasured = "not_measured", warnings, published
        }
    }

    public func run(progress: ProgressReporter) throws -> (Summary, [Ride]) {
        try StoreSession.run(storePath: storePath, progress: progress) { try run(store: $0, progress: progress) }
    }

    /// The stage on a command's open store (`pipeline run` hands every stage its one session's store).
    public func run(store: PipelineStore, progress: ProgressReporter) throws -> (Summary, [Ride]) {
        let started = Date()
        let checkIns = try store.checkIns().filter { ownedDevices.contains($0.checkIn.device) }
        try store.clearStageFailures(stage: "comfort") // rebuilt whole: what fails now is recorded again below
        let fences = try store.geofences()
        func station(_ name: String) -> Geofence? {
            fences.first { $0.id == name } ?? fences.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
        var summary = Summary(checkins: checkIns.count)
        summary.unknownStations = Array(
            Set(checkIns.flatMap { [$0.checkIn.fromStation, $0.checkIn.toStation] }.filter { station($0) == nil })
        ).sorted()
        let measurement = RideMeasurement(loader: RecordingLoader(), kept: keptSamples), analyser = RideAnalyser(parameters: metrics)
        var rides: [Ride] = []
        var rows: [PipelineStore.RideRow] = []
        func setAside(_ errors: [InputError], for what: String) throws {
            for error in errors {
                try store.recordStageFailure(path: error.path, stage: "comfort", code: error.code.rawValue, reason: error.message)
                progress.log("comfort: set aside \(error.path) for \(what): \(error.message)")
            }
        }
        // A ride reads the device's fixes of its own window, sorted as its track (`DeviceTrack`),
        // never the device's history: every device's whole track had been read and kept to the
        // stage's end. A ride looks at no fix outside that window (`RideWindow`, `RideAnalyser.speeds`).
        func points(_ device: String, in seconds: ClosedRange<Double>) throws -> [TrackPoint] {
            DeviceTrack(device: device, points: try store.trackPoints(named: device, in: seconds)).points.array
        }
        for (device, group) in Dictionary(grouping: checkIns, by: { $0.checkIn.device }).sorted(by: { $0.key < $1.key }) {
            for (id, checkIn) in group.sorted(by: { $0.checkIn.checkinTime < $1.checkIn.checkinTime }) {
                progress.update(done: rides.count, total: checkIns.count, item: "\(device) \(checkIn.train)")
                let points = try points(
                    device, in: RideWindow.searched(checkinSeconds: checkIn.checkinTime.secondsSince1970, maxRideSeconds: maxRideSeconds))
                let ride = try Ride.checkIn(
                    checkIn, points: points, origin: station(checkIn.fromStation), destination: station(checkIn.toStation),
                    maxRideSeconds: maxRideSeconds, analyser: analyser
                ) { window in
                    let files = try store.imuFiles(device: device, from: window.startSeconds, to: window.endSeconds)
                    guard !files.isEmpty else { return nil }
                    let (acceleration, unreadable) = measurement.acceleration(
                        files: files, from: window.startSeconds, to: window.endSeconds)
                    try setAside(unreadable, for: "check-in \(device) \(checkIn.train) (line \(checkIn.line))")
                    return (files.map { $0.shownPath ?? $0.path }.joined(separator: ";"), acceleration)
                }
                record(
                    ride, checkinID: id,
                    name: "check-in \(device) \(checkIn.train) \(checkIn.fromStation)→\(checkIn.toStation) (line \(checkIn.line))")
            }
        }
        if recordings != .none {
            let checkedIn = Dictionary(grouping: rides.filter { $0.checkIn != nil }, by: \.device)
            var found = try store.imuRecordings()
            if case .under(let given) = recordings { found = found.filter { Self.isUnder($0.file.path, given) } }
            for (index, recording) in found.enumerated() {
                progress.update(done: index, total: found.count, item: recording.file.path)
                let (acceleration, unreadable) = measurement.acceleration(
                    files: [recording.file], from: recording.firstSeconds, to: recording.lastSeconds)
                try setAside(unreadable, for: "its ride")
                let parts = Ride.recording(
                    device: recording.device, trace: recording.file.shownPath ?? recording.file.path, acceleration: acceleration,
                    points: try points(recording.device, in: recording.firstSeconds...max(recording.firstSeconds, recording.lastSeconds)),
                    checkInRides: checkedIn[recording.device] ?? [], gapSeconds: rideGapSeconds,
                    analyser: analyser)
                for (first, last, ride) in parts {
                    let when = "\(recording.file.path) \(Self.clock(first))–\(Self.clock(last))"
                    guard let ride else {
                        progress.log("comfort: \(when): covered by a check-in's ride")
                        continue
                    }
                    summary.recordingRides += 1
                    record(ride, checkinID: nil, name: "recording " + when)
                }
            }
            if found.isEmpty {
                let where_ = if case .under(let given) = recordings { "under " + given.joined(separator: ", ") } else { "in the store" }
                summary.warnings.append(
                    "no IMU recording \(where_) to measure as a ride: no acceleration stream was ingested there "
                        + "(see quarantine.csv and skipped files; a table no dialect matches needs --columns)")
                progress.log("comfort: " + summary.warnings.last!)
            }
        }
        func record(_ ride: Ride, checkinID: Int64?, name: String) {
            if ride.status != .measured {
                let why = ride.note ?? ride.status.rawValue
                progress.log("comfort: \(name): \(ride.status.rawValue): \(why)")
                summary.notMeasured.append("\(name): \(why)")
            }
            rides.append(ride)
            rows.append(Self.row(ride, checkinID: checkinID))
            summary.byStatus[ride.status.rawValue, default: 0] += 1
            summary.stops += ride.stops.count
            summary.events += ride.metrics?.events.count ?? 0
        }
        progress.update(done: checkIns.count, total: checkIns.count, item: "")
        if let keptSamples, !rides.isEmpty { progress.log(keptSamples.line) }
        try store.replaceRides(rows)
        let restricted = restrictedFolder ?? OutputLayout.restricted(in: reportsFolder)
        if writesFiles {
            if restrictedFolder == nil { try OutputLayout.prepareRestricted(in: reportsFolder) }
            summary.published = try ComfortTables(rides: rides, persons: try store.devicePersons(), minimumPersons: minimumPersons)
                .write(to: reportsFolder, restricted: restricted)
            if summary.published.trains + summary.published.routes + summary.published.underK > 0 { progress.log(summary.published.line) }
        }
        if let partialsFolder {
            let persons = try store.devicePersons()
            for byRoute in [false, true] {
                try ComfortGroup.partialTable(rides, persons: persons, byRoute: byRoute).write(to: partialsFolder)
            }
        }
        summary.rides = rides.count
        summary.trains = Set(rides.compactMap(\.checkIn?.train)).count
        summary.routes = Set(rides.compactMap { $0.checkIn.map { [$0.fromStation, $0.toStation] } }).count
        summary.files =
            writesFiles
            ? ComfortTables.fileNames.map { file in
                ((OutputLayout.restrictedFiles.contains(file) ? restricted : reportsFolder) as NSString).appendingPathComponent(file)
            } : []
        summary.seconds = Date().timeIntervalSince(started)
        return (summary, rides)
    }

    /// Whether `path` is one of `roots` or inside one of them (compared as absolute, standardised paths).
    static func isUnder(_ path: String, _ roots: [String]) -> Bool {
        func absolute(_ p: String) -> String {
            let full = p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p
            return (full as NSString).standardizingPath
        }
        let target = absolute(path)
        return roots.map(absolute).contains { target == $0 || target.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    static func clock(_ seconds: Double) -> String { ISO8601.format(Timestamp(secondsSince1970: seconds.rounded())) }

    /// Two lines for logs and terminals.
    public static func text(_ s: Summary) -> String {
        var text =
            "\(s.rides) rides (\(s.checkins) check-ins, \(s.recordingRides) from recordings): "
            + s.byStatus.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            + "; \(s.stops) stops, \(s.events) events; \(s.trains) trains, \(s.routes) routes"
        if !s.unknownStations.isEmpty { text += "\nstations with no geofence: " + s.unknownStations.joined(separator: ", ") }
        return text
    }

    static func row(_ ride: Ride, checkinID: Int64?) -> PipelineStore.RideRow {
        let c = ride.checkIn, w = ride.window, m = ride.metrics
        var row = PipelineStore.RideRow(
            checkinID: checkinID,
            values: [
                "source": ride.source.rawValue, "device": ride.device, "trace": ride.trace, "train": c?.train,
                "from_station": c?.fromStation,
                "to_station": c?.toStation, "status": ride.status.rawValue, "note": ride.note,
                "started_unix_s": w.startSeconds, "finished_unix_s": w.endSeconds, "covered_s": ride.coveredSeconds,
                "departure_unix_s": w.departureSeconds, "arrival_unix_s": w.arrivalSeconds, "departure_delay_s": ride.departureDelaySeconds,
                "arrival_delay_s": ride.arrivalDelaySeconds, "imu_rate_hz": ride.rateHz, "vertical": ride.verticalSource?.rawValue,
                "rms_x": m?.longitudinal.rms, "rms_y": m?.lateral.rms, "rms_z": m?.vertical.rms, "a_v": m?.totalValue,
                "mtvv_x": m?.longitudinal.mtvv, "mtvv_y": m?.lateral.mtvv, "mtvv_z": m?.vertical.mtvv,
                "vdv_x": m?.longitudinal.vdv, "vdv_y": m?.lateral.vdv, "vdv_z": m?.vertical.vdv,
                "crest_x": m?.longitudinal.crestFactor, "crest_y": m?.lateral.crestFactor, "crest_z": m?.vertical.crestFactor,
                "comfort_band": m.map { $0.comfortBand?.rawValue ?? "not measured" }, "nmv": m?.nmv, "nmv_class": m?.nmvClass?.rawValue,
                "nmv_partial": m?.nmvPartial, "nmv_minutes": m?.nmvMinutes,
                "jerks_longitudinal_per_h": m?.longitudinalJerksPerHour, "jerks_lateral_per_h": m?.lateralJerksPerHour,
                "continuous_comfort_5s": m.map { ComfortTables.series($0.continuousComfort) },
                "cc_x_5s": m.map { ComfortTables.series($0.ccX) }, "cc_y_5s": m.map { ComfortTables.series($0.ccY) },
                "cc_z_5s": m.map { ComfortTables.series($0.ccZ) }
            ])
        row.stops = ride.stops.map { ($0.startSeconds, $0.endSeconds) }
        row.events = (m?.events ?? []).map { event in
            [
                "kind": event.kind.rawValue, "axis": event.axis.rawValue, "direction": event.direction, "start_unix_s": event.startSeconds,
                "end_unix_s": event.endSeconds, "peak_acceleration_mps2": event.peakAccelerationMetersPerSecond2,
                "peak_jerk_mps3": event.peakJerkMetersPerSecond3
            ]
        }
        return row
    }
}
