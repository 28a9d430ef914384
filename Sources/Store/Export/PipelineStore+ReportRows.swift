import Foundation
import GRDB

/// The store's contents as the HTML report summarises them: each query returns typed rows,
/// so the report never reads SQL results as text.
extension PipelineStore {
    /// The counts on the report's first cards, and the time the data spans.
    public struct Overview: Sendable {
        public var inputs = 0, devices = 0, fixes = 0, imuSamples = 0
        public var staypoints = 0, dwells = 0, trips = 0, checkIns = 0
        public var firstSeconds: Double?, lastSeconds: Double?
    }

    public func overview() throws -> Overview {
        try database.read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var overview = Overview()
            overview.inputs = try count("SELECT COUNT(*) FROM input_files")
            overview.devices = try count(
                """
                SELECT COUNT(DISTINCT COALESCE(device, path)) FROM input_files
                WHERE status = 'ingested' AND (fixes > 0 OR imu_samples > 0)
                """)
            // From input_files, not COUNT(*) FROM fixes: the same number, and a store merged from a
            // distributed run's parts (which keeps no fixes) reports it too.
            overview.fixes = try count("SELECT COALESCE(SUM(fixes), 0) FROM input_files WHERE status = 'ingested'")
            overview.imuSamples = try count(Self.imuSampleTotalSQL)
            overview.staypoints = try count("SELECT COUNT(*) FROM staypoints")
            overview.dwells = try count("SELECT COUNT(*) FROM dwells")
            overview.trips = try count("SELECT COUNT(*) FROM trips")
            overview.checkIns = try count("SELECT COUNT(*) FROM checkins")
            overview.firstSeconds = try Double.fetchOne(db, sql: "SELECT MIN(first_unix_s) FROM input_files WHERE status = 'ingested'")
            overview.lastSeconds = try Double.fetchOne(db, sql: "SELECT MAX(last_unix_s) FROM input_files WHERE status = 'ingested'")
            return overview
        }
    }

    static let imuSampleTotalSQL = "SELECT COALESCE(SUM(imu_samples), 0) FROM input_files"

    /// IMU samples over every input file.
    public func imuSampleTotal() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: Self.imuSampleTotalSQL) ?? 0 }
    }

    /// Rides whose comfort was measured, from check-ins and from recordings.
    public func measuredRideCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rides WHERE status = 'measured'") ?? 0 }
    }

    /// Input files by format and status, with what they held.
    public struct InputGroup: Sendable {
        public var format: String, status: String
        public var files: Int, fixes: Int, imuSamples: Int, labels: Int, geofences: Int, checkIns: Int, dropped: Int
    }

    public func inputGroups() throws -> [InputGroup] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(format, '?'), status, COUNT(*), SUM(fixes), SUM(imu_samples), SUM(labels), SUM(geofences),
                      SUM(checkins), SUM(dropped)
                    FROM input_files GROUP BY 1, 2 ORDER BY 1, 2
                    """
            ).map { row in
                InputGroup(
                    format: row[0], status: row[1], files: row[2], fixes: row[3], imuSamples: row[4], labels: row[5],
                    geofences: row[6], checkIns: row[7], dropped: row[8])
            }
        }
    }

    /// Records dropped while cleaning, by reason, most first.
    public func droppedRecordTotals() throws -> [(reason: String, records: Int)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT reason, SUM(count) AS n FROM dropped_records GROUP BY reason ORDER BY n DESC")
                .map { (reason: $0[0], records: $0[1]) }
        }
    }

    /// A device's ingested files and the time they cover.
    public struct DeviceSpan: Sendable {
        public var device: String, files: Int, fixes: Int, imuSamples: Int
        public var firstSeconds: Double?, lastSeconds: Double?
    }

    public func deviceSpans() throws -> [DeviceSpan] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(device, path), COUNT(*), SUM(fixes), SUM(imu_samples), MIN(first_unix_s), MAX(last_unix_s)
                    FROM input_files WHERE status = 'ingested' AND (fixes > 0 OR imu_samples > 0) GROUP BY 1 ORDER BY 1
                    """
            ).map { row in
                DeviceSpan(device: row[0], files: row[1], fixes: row[2], imuSamples: row[3], firstSeconds: row[4], lastSeconds: row[5])
            }
        }
    }

    /// A trip or leg as the modal split counts it: its person (as `deviceIdentities` decides),
    /// start, mode ("unknown" when none), distance and duration (0 for a trip), and its trip's
    /// purpose (HBW, HBO, NHB; nil when unknown or the leg is in no trip).
    public struct ModalEntry: Sendable {
        public var person: String, startSeconds: Double, mode: String, distanceMeters: Double, durationSeconds: Double
        public var purpose: String? = nil
        /// A trip's device and the geofences of its ends (the OD table's pair); nil for a leg.
        public var device: String? = nil, originGeofence: String? = nil, destinationGeofence: String? = nil
    }

    /// Each person's trips per main mode ("unknown" when none; the person as `deviceIdentities`
    /// decides): their distance and duration added, for the dominance rule over the trips table's
    /// magnitudes (`TripFigures`).
    public func tripParts() throws -> [(mode: String, person: String, distanceMeters: Double, durationSeconds: Double)] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    WITH \(Self.personOf) SELECT COALESCE(t.main_mode, 'unknown'), COALESCE(p.person, t.device), SUM(t.distance_m),
                      SUM(t.duration_s)
                    FROM trips t LEFT JOIN person_of p ON p.device = t.device GROUP BY 1, 2 ORDER BY 1, 2
                    """
            ).map { (mode: $0[0], person: $0[1], distanceMeters: $0[2], durationSeconds: $0[3]) }
        }
    }

    /// Trips by main mode ("unknown" when none), most trips first.
    public struct TripsByMode: Sendable {
        public var mode: String, trips: Int, distanceMeters: Double, meanDurationSeconds: Double, devices: Int, betweenGeofences: Int
    }

    public func tripsByMode() throws -> [TripsByMode] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(main_mode, 'unknown') AS mode, COUNT(*) AS n, SUM(distance_m), AVG(duration_s), COUNT(DISTINCT device),
                      SUM(origin_geofence_id IS NOT NULL AND destination_geofence_id IS NOT NULL)
                    FROM trips GROUP BY 1 ORDER BY n DESC
                    """
            ).map { row in
                TripsByMode(
                    mode: row[0], trips: row[1], distanceMeters: row[2], meanDurationSeconds: row[3], devices: row[4],
                    betweenGeofences: row[5])
            }
        }
    }

    /// Each device's person as `deviceIdentities` decides it (the device itself where none is
    /// named), as a table to join: `person_of(device, person)`.
    static let personOf = """
        person_of AS (SELECT device, MIN(COALESCE(person, device)) AS person FROM input_files
                      WHERE device IS NOT NULL AND status = 'ingested' GROUP BY device)
        """

    /// A pair of geofences trips ran between, with means (the medians are in `od_matrix.csv`).
    public struct GeofencePair: Sendable {
        public var origin: String, destination: String, trips: Int, devices: Int, persons: Int
        public var meanDurationSeconds: Double, meanDistanceMeters: Double
    }

    /// The busiest pairs made by at least `minimumPersons` distinct persons, most trips first;
    /// and how many pairs fewer persons made (never shown).
    public func busiestGeofencePairs(limit: Int, minimumPersons: Int) throws -> (pairs: [GeofencePair], suppressed: Int) {
        try database.read { db in
            let grouped = """
                WITH \(Self.personOf), pairs AS (
                  SELECT origin_geofence_id AS o, destination_geofence_id AS d, COUNT(*) AS n, COUNT(DISTINCT t.device) AS devices,
                    COUNT(DISTINCT COALESCE(p.person, t.device)) AS persons, AVG(duration_s) AS duration, AVG(distance_m) AS distance
                  FROM trips t LEFT JOIN person_of p ON p.device = t.device
                  WHERE origin_geofence_id IS NOT NULL AND destination_geofence_id IS NOT NULL GROUP BY 1, 2)
                """
            let pairs = try Row.fetchAll(
                db, sql: grouped + " SELECT * FROM pairs WHERE persons >= ? ORDER BY n DESC, o, d LIMIT ?",
                arguments: [minimumPersons, limit]
            ).map { row in
                GeofencePair(
                    origin: row["o"], destination: row["d"], trips: row["n"], devices: row["devices"], persons: row["persons"],
                    meanDurationSeconds: row["duration"], meanDistanceMeters: row["distance"])
            }
            let suppressed =
                try Int.fetchOne(db, sql: grouped + " SELECT COUNT(*) FROM pairs WHERE persons < ?", arguments: [minimumPersons]) ?? 0
            return (pairs, suppressed)
        }
    }

    /// A geofence's dwells.
    public struct DwellPlace: Sendable {
        public var geofence: String, name: String, kind: String, dwells: Int, devices: Int, persons: Int
        public var totalSeconds: Double, meanSeconds: Double
    }

    /// The places with the most time dwelt in them among those at least `minimumPersons`
    /// distinct persons dwelt in; and how many places fewer persons dwelt in (never shown).
    public func topDwellPlaces(limit: Int, minimumPersons: Int) throws -> (places: [DwellPlace], suppressed: Int) {
        try database.read { db in
            let grouped = """
                WITH \(Self.personOf), places AS (
                  SELECT geofence_id AS id, MIN(geofence_name) AS name, MIN(geofence_kind) AS kind, COUNT(*) AS n,
                    COUNT(DISTINCT w.device) AS devices, COUNT(DISTINCT COALESCE(p.person, w.device)) AS persons,
                    SUM(duration_s) AS total, AVG(duration_s) AS mean
                  FROM dwells w LEFT JOIN person_of p ON p.device = w.device GROUP BY 1)
                """
            let places = try Row.fetchAll(
                db, sql: grouped + " SELECT * FROM places WHERE persons >= ? ORDER BY total DESC, id LIMIT ?",
                arguments: [minimumPersons, limit]
            ).map { row in
                DwellPlace(
                    geofence: row["id"], name: row["name"], kind: row["kind"], dwells: row["n"], devices: row["devices"],
                    persons: row["persons"], totalSeconds: row["total"], meanSeconds: row["mean"])
            }
            let suppressed =
                try Int.fetchOne(db, sql: grouped + " SELECT COUNT(*) FROM places WHERE persons < ?", arguments: [minimumPersons]) ?? 0
            return (places, suppressed)
        }
    }

    /// One stored heat map's settings and cell counts.
    public struct HeatMapSummary: Sendable {
        public var map: String, cellMeters: Double, minimumPersons: Int, filter: String, cells: Int, suppressedCells: Int
    }

    /// Every stored heat map, "all" first.
    public func heatMapSummaries() throws -> [HeatMapSummary] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT map, cell_m, min_devices, filter, cells, suppressed_cells FROM heatmaps ORDER BY map = 'all' DESC, map
                    """
            ).map { row in
                HeatMapSummary(
                    map: row[0], cellMeters: row[1], minimumPersons: row[2], filter: row[3], cells: row[4], suppressedCells: row[5])
            }
        }
    }

    /// A check-in's ride with its comfort and punctuality, and the check-in's ratings.
    public struct CheckInRide: Sendable {
        public var train: String, status: String, device: String
        public var nmv: Double?, aV: Double?, departureDelaySeconds: Double?, arrivalDelaySeconds: Double?
        /// EN 12299 continuous comfort, one value per 5 s, as a JSON array.
        public var continuousComfortJSON: String?
        public var seconds: Double, startedSeconds: Double
        public var fromStation: String, toStation: String
        public var cleanliness: Int?, odoursTemperature: Int?, crowding: Int?, service: Int?
    }

    /// Every check-in's ride, by train.
    public func checkInRides() throws -> [CheckInRide] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.train, r.status, r.device, r.nmv, r.a_v, r.departure_delay_s, r.arrival_delay_s, r.continuous_comfort_5s,
                      r.finished_unix_s - r.started_unix_s, r.started_unix_s, r.from_station, r.to_station,
                      c.cleanliness, c.odours_temperature, c.crowding, c.service
                    FROM rides r JOIN checkins c ON c.id = r.checkin_id WHERE r.source = 'checkin' ORDER BY r.train, r.id
                    """
            ).map { row in
                CheckInRide(
                    train: (row[0] as String?) ?? "", status: row[1], device: row[2], nmv: row[3], aV: row[4],
                    departureDelaySeconds: row[5],
                    arrivalDelaySeconds: row[6], continuousComfortJSON: row[7], seconds: row[8], startedSeconds: row[9],
                    fromStation: (row[10] as String?) ?? "", toStation: (row[11] as String?) ?? "", cleanliness: row[12],
                    odoursTemperature: row[13],
                    crowding: row[14], service: row[15])
            }
        }
    }

    /// A ride measured from a recording alone, with its stops, brakings and jerks counted.
    public struct RecordingRide: Sendable {
        public var device: String, status: String, note: String?
        public var startedSeconds: Double, coveredSeconds: Double?
        public var nmv: Double?, nmvPartial: Bool, nmvMinutes: Double?, aV: Double?, vertical: String?
        public var stops: Int, brakings: Int, jerks: Int
    }

    public func recordingRides() throws -> [RecordingRide] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.device, r.status, r.note, r.started_unix_s, r.covered_s, r.nmv, r.nmv_partial, r.nmv_minutes, r.a_v,
                      r.vertical, (SELECT COUNT(*) FROM ride_stops s WHERE s.ride_id = r.id),
                      (SELECT COUNT(*) FROM ride_events e WHERE e.ride_id = r.id AND e.kind = 'acceleration' AND e.direction = 'braking'),
                      (SELECT COUNT(*) FROM ride_events e WHERE e.ride_id = r.id AND e.kind = 'jerk')
                    FROM rides r WHERE r.source = 'recording' ORDER BY r.device, r.started_unix_s
                    """
            ).map { row in
                RecordingRide(
                    device: row[0], status: row[1], note: row[2], startedSeconds: row[3], coveredSeconds: row[4], nmv: row[5],
                    nmvPartial: (row[6] as Int?) == 1, nmvMinutes: row[7], aV: row[8], vertical: row[9],
                    stops: row[10], brakings: row[11], jerks: row[12])
            }
        }
    }

    /// How many classified windows (or triplegs) got each mode, by what decided it.
    public struct DecisionCount: Sendable {
        public var decidedBy: String, mode: String, count: Int
    }

    /// Counted in one pass over the windows, in byte order of (decided_by, mode) as `GROUP BY
    /// 1, 2 ORDER BY 1, 2` gives them: SQLite sorts every window to group them, 0.56 s for
    /// the 1 M windows of 1,600 device-days, and there are a handful of pairs.
    public func windowDecisions() throws -> [DecisionCount] {
        try database.read { db in
            var pairs = ByteKeyCounts()
            try db.makeStatement(sql: "SELECT decided_by, mode FROM mode_windows").forEachCRow { row in
                pairs.add(Statement.text(row, 0), Statement.text(row, 1))
            }
            return pairs.entries.sorted { a, b in
                a.first != b.first ? a.first.lexicographicallyPrecedes(b.first) : a.second.lexicographicallyPrecedes(b.second)
            }
            .map {
                DecisionCount(
                    decidedBy: String(decoding: $0.first, as: UTF8.self), mode: String(decoding: $0.second, as: UTF8.self), count: $0.count)
            }
        }
    }

    /// Seconds and count of triplegs by mode ("unknown" when none) and by what decided it ("none").
    public func legSecondsByDecision() throws -> [(mode: String, decidedBy: String, seconds: Double, legs: Int)] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(mode, 'unknown'), COALESCE(mode_source, 'none'), SUM(duration_s), COUNT(*) FROM triplegs
                    WHERE COALESCE(mode, '') <> 'still' GROUP BY 1, 2 ORDER BY 1, 2
                    """
            ).map { (mode: $0[0], decidedBy: $0[1], seconds: $0[2], legs: $0[3]) }
        }
    }

    /// Per final mode (still left out): the legs where a source spoke on its own (`imu_answer`,
    /// `gps_leg_model_answer`), how many of them ended with another mode, and those legs' seconds.
    public func legSourceChanges() throws -> [LegSourceChanges] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT mode,
                      COUNT(imu_answer), COALESCE(SUM(imu_answer <> mode), 0), COALESCE(SUM(CASE WHEN imu_answer <> mode THEN duration_s END), 0),
                      COUNT(gps_leg_model_answer), COALESCE(SUM(gps_leg_model_answer <> mode), 0),
                      COALESCE(SUM(CASE WHEN gps_leg_model_answer <> mode THEN duration_s END), 0)
                    FROM triplegs WHERE mode IS NOT NULL AND mode <> 'still' GROUP BY mode ORDER BY mode
                    """
            ).map { row in
                LegSourceChanges(
                    mode: row[0], imu: .init(legs: row[1], changed: row[2], changedSeconds: row[3]),
                    gpsLegModel: .init(legs: row[4], changed: row[5], changedSeconds: row[6]))
            }
        }
    }

    /// Triplegs by what decided their mode ("none") and mode ("unknown").
    public func legDecisions() throws -> [DecisionCount] {
        try decisionCounts(
            "SELECT COALESCE(mode_source, 'none'), COALESCE(mode, 'unknown'), COUNT(*) FROM triplegs GROUP BY 1, 2 ORDER BY 1, 2")
    }

    private func decisionCounts(_ sql: String) throws -> [DecisionCount] {
        try database.read { db in
            try Row.fetchAll(db, sql: sql).map { DecisionCount(decidedBy: $0[0], mode: $0[1], count: $0[2]) }
        }
    }

    /// Seconds of tripleg time by the leg's mode ("unknown" when none) and the labelled mode
    /// that overlaps it.
    public func labelledLegSeconds() throws -> [(legMode: String, labelledMode: String, seconds: Double)] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(t.mode, 'unknown'), l.mode,
                      SUM(MIN(t.finished_unix_s, l.end_unix_s) - MAX(t.started_unix_s, l.start_unix_s))
                    FROM triplegs t JOIN labels l ON l.device = t.device AND l.mode IS NOT NULL
                      AND l.start_unix_s < t.finished_unix_s AND l.end_unix_s > t.started_unix_s
                    GROUP BY 1, 2
                    """
            ).map { (legMode: $0[0], labelledMode: $0[1], seconds: $0[2]) }
        }
    }
}

/// For one final mode, how often the leg decision changed what each source said on its own.
public struct LegSourceChanges: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        /// Legs of the mode where the source gave an answer.
        public var legs: Int
        /// Of those, the legs whose final mode is not the source's answer, and their seconds.
        public var changed: Int, changedSeconds: Double
    }
    public var mode: String
    public var imu: Source, gpsLegModel: Source
}
