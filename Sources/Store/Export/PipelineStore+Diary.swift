import Foundation
import GRDB

/// The travel diary's tables as the store holds them (`export --format diary`), one row per
/// person, person-day, activity, trip and leg, times as Unix seconds; `Reports.DiaryFiles`
/// writes them.
public struct DiaryRows: Sendable {
    public var persons: [[String: String?]] = []
    public var days: [[String: String?]] = []
    /// Each day's seconds per leg mode (`person`, `local_date`, `travel_mode`, `seconds`): legs
    /// cut at the day's bounds.
    public var daySecondsPerMode: [[String: String?]] = []
    public var activities: [[String: String?]] = []
    public var trips: [[String: String?]] = []
    public var legs: [[String: String?]] = []
    /// Each person's expansion weight from the last publish with a population (`personWeights`).
    public var weights: [String: Double] = [:]
}

extension PipelineStore {
    public func diaryRows() throws -> DiaryRows {
        var rows = DiaryRows()
        rows.weights = try personWeights()
        let numbered = """
            episodes AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY person, local_date ORDER BY started_unix_s) AS episode FROM diary_episodes)
            """
        rows.days = try self.rows(
            """
            SELECT d.person, d.local_date, d.time_zone, d.started_unix_s, d.finished_unix_s, d.finished_unix_s - d.started_unix_s AS day_s,
              d.tracked_s, d.untracked_s, d.tracked_share, d.valid, d.fixes, d.imu_s,
              (SELECT COUNT(*) FROM diary_episodes e WHERE e.person = d.person AND e.local_date = d.local_date AND e.kind = 'activity') AS activities,
              (SELECT COUNT(*) FROM diary_episodes e WHERE e.person = d.person AND e.local_date = d.local_date AND e.kind = 'trip') AS trips
            FROM person_days d ORDER BY d.person, d.local_date
            """)
        rows.daySecondsPerMode = try self.rows(
            """
            WITH \(Self.personOf)
            SELECT d.person, d.local_date, COALESCE(l.mode, 'unknown') AS travel_mode,
              SUM(MIN(l.finished_unix_s, d.finished_unix_s) - MAX(l.started_unix_s, d.started_unix_s)) AS seconds
            FROM person_days d JOIN person_of p ON p.person = d.person
              JOIN triplegs l ON l.device = p.device AND l.finished_unix_s > d.started_unix_s AND l.started_unix_s < d.finished_unix_s
            GROUP BY d.person, d.local_date, travel_mode ORDER BY d.person, d.local_date, travel_mode
            """)
        rows.persons = try self.rows(
            """
            WITH \(Self.personOf),
            places AS (
              SELECT p.person, l.purpose, MIN(l.id) AS id FROM locations l JOIN person_of p ON p.device = l.device
              WHERE l.purpose IN ('home', 'work') GROUP BY p.person, l.purpose)
            SELECT d.person, (SELECT COUNT(*) FROM person_of p WHERE p.person = d.person) AS devices,
              (SELECT time_zone FROM person_days z WHERE z.person = d.person GROUP BY time_zone ORDER BY COUNT(*) DESC, time_zone LIMIT 1) AS time_zone,
              COUNT(*) AS days, SUM(d.valid) AS valid_days,
              h.id AS home_location_id, hl.lat_deg AS home_lat, hl.lon_deg AS home_lon,
              w.id AS work_location_id, wl.lat_deg AS work_lat, wl.lon_deg AS work_lon
            FROM person_days d
              LEFT JOIN places h ON h.person = d.person AND h.purpose = 'home' LEFT JOIN locations hl ON hl.id = h.id
              LEFT JOIN places w ON w.person = d.person AND w.purpose = 'work' LEFT JOIN locations wl ON wl.id = w.id
            GROUP BY d.person ORDER BY d.person
            """)
        rows.activities = try self.rows(
            """
            WITH \(numbered)
            SELECT e.person, e.local_date, e.episode, e.kind, e.started_unix_s, e.finished_unix_s, e.duration_s, e.device, e.staypoint_id,
              s.location_id, e.purpose, e.lat_deg AS lat, e.lon_deg AS lon
            FROM episodes e LEFT JOIN staypoints s ON s.id = e.staypoint_id
            WHERE e.kind IN ('activity', 'stay', 'untracked') ORDER BY e.person, e.local_date, e.episode
            """)
        rows.trips = try self.rows(
            """
            WITH \(numbered)
            SELECT e.person, e.local_date, e.episode, e.kind, e.started_unix_s, e.finished_unix_s, e.duration_s, e.device, e.trip_id,
              e.tripleg_id, e.purpose AS trip_purpose, t.origin_purpose, t.destination_purpose, e.travel_mode,
              COALESCE(t.distance_m, l.distance_m) AS distance_m
            FROM episodes e LEFT JOIN trips t ON t.id = e.trip_id LEFT JOIN triplegs l ON l.id = e.tripleg_id
            WHERE e.kind IN ('trip', 'travel') ORDER BY e.person, e.local_date, e.episode
            """)
        rows.legs = try self.rows(
            """
            WITH \(Self.personOf)
            SELECT p.person, (SELECT d.local_date FROM person_days d WHERE d.person = p.person AND d.started_unix_s <= l.started_unix_s
                              AND l.started_unix_s < d.finished_unix_s) AS local_date,
              l.id AS tripleg_id, l.trip_id, l.device, l.started_unix_s, l.finished_unix_s, l.duration_s, l.distance_m,
              COALESCE(l.mode, 'unknown') AS travel_mode, l.mode_source
            FROM triplegs l JOIN person_of p ON p.device = l.device ORDER BY p.person, l.started_unix_s, l.id
            """)
        return rows
    }
}
