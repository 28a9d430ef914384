import GRDB

/// The rows `ReleaseRun` publishes per calendar window, and the releases made
/// (`ReleaseWindows`, tables `release_windows` and `released_trips`).
extension PipelineStore {
    /// A trip with what the window tables count: its person, ends, main mode, geofences and the
    /// places of its origin and destination staypoints, and its legs.
    public struct ReleaseTrip: Sendable {
        public var device: String, person: String
        public var startSeconds: Double, endSeconds: Double, durationSeconds: Double, distanceMeters: Double
        public var mainMode: String
        /// HBW, HBO or NHB; nil when unknown.
        public var purpose: String? = nil
        public var originGeofence: String?, destinationGeofence: String?
        public var origin: (latitude: Double, longitude: Double)?, destination: (latitude: Double, longitude: Double)?
        public var legs: [ModalEntry] = []
    }

    /// Every trip, in id order (device, then time), with its legs.
    public func releaseTrips() throws -> [ReleaseTrip] {
        try database.read { db in
            var trips: [Int64: Int] = [:]
            var rows = try Row.fetchAll(
                db,
                sql: """
                    WITH \(Self.personOf) SELECT t.id, t.device, COALESCE(p.person, t.device), t.started_unix_s, t.finished_unix_s, t.duration_s,
                      t.distance_m, COALESCE(t.main_mode, 'unknown'), t.origin_geofence_id, t.destination_geofence_id,
                      t.origin_lat_deg, t.origin_lon_deg, t.destination_lat_deg, t.destination_lon_deg, t.trip_purpose
                    FROM trips t LEFT JOIN person_of p ON p.device = t.device
                    ORDER BY t.id
                    """
            ).enumerated().map { index, row -> ReleaseTrip in
                trips[row[0]] = index
                let origin: (Double, Double)? = (row[10] as Double?).flatMap { lat in (row[11] as Double?).map { (lat, $0) } }
                let destination: (Double, Double)? = (row[12] as Double?).flatMap { lat in (row[13] as Double?).map { (lat, $0) } }
                return ReleaseTrip(
                    device: row[1], person: row[2], startSeconds: row[3], endSeconds: row[4], durationSeconds: row[5],
                    distanceMeters: row[6], mainMode: row[7], purpose: row[14], originGeofence: row[8], destinationGeofence: row[9],
                    origin: origin.map { (latitude: $0.0, longitude: $0.1) },
                    destination: destination.map { (latitude: $0.0, longitude: $0.1) })
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    WITH \(Self.personOf) SELECT l.trip_id, COALESCE(p.person, l.device), l.started_unix_s, COALESCE(l.mode, 'unknown'), l.distance_m, l.duration_s
                    FROM triplegs l LEFT JOIN person_of p ON p.device = l.device WHERE l.trip_id IS NOT NULL ORDER BY l.id
                    """)
            {
                guard let index = trips[row[0]] else { continue }
                rows[index].legs.append(
                    ModalEntry(
                        person: row[1], startSeconds: row[2], mode: row[3], distanceMeters: row[4], durationSeconds: row[5],
                        purpose: rows[index].purpose))
            }
            return rows
        }
    }

    /// The windows released, and the trips they held (device, start).
    public func releases() throws -> (windows: Set<String>, trips: [(device: String, startSeconds: Double)]) {
        try database.read { db in
            (
                Set(try String.fetchAll(db, sql: "SELECT window_id FROM release_windows")),
                try Row.fetchAll(db, sql: "SELECT device, started_unix_s FROM released_trips").map { ($0[0], $0[1]) }
            )
        }
    }

    /// Records a window as released with its trips, in one transaction.
    public func recordRelease(
        window: String, period: String, startSeconds: Double, endSeconds: Double,
        trips: [(device: String, startSeconds: Double)], releasedSeconds: Double
    ) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO release_windows (window_id, period, started_unix_s, finished_unix_s, trips, released_unix_s) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [window, period, startSeconds, endSeconds, trips.count, releasedSeconds])
            for trip in trips {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO released_trips (device, started_unix_s, window_id) VALUES (?, ?, ?)",
                    arguments: [trip.device, trip.startSeconds, window])
            }
        }
    }
}
