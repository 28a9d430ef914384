import Foundation
import GRDB
import Ingest
import MobilityCore
import Trips

/// How fixes are grouped into tracks for the trip stages.
public enum TrackGrouping: String, Sendable, CaseIterable {
    /// All files of a device form one track (the product's default).
    case device
    /// Each file is its own track, named by its path (to compare with per-file tools).
    case file
}

extension PipelineStore {
    /// Every timed fix of the ingested files, as one sorted track per device (or per file).
    /// Fixes without a time cannot be placed in a stay or a trip and are left out.
    public func tracks(groupedBy grouping: TrackGrouping = .device) throws -> [DeviceTrack] {
        let key = grouping == .device ? "COALESCE(i.device, i.path)" : "i.path"
        return try database.read { db in
            var points: [String: [TrackPoint]] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(key), f.time_unix_s, f.lat_deg, f.lon_deg, f.accuracy_m
                FROM fixes f JOIN input_files i ON i.id = f.file_id
                WHERE i.status = 'ingested' AND f.time_unix_s IS NOT NULL
                ORDER BY f.file_id, f.seq
                """)
            while let row = try rows.next() {
                let accuracy: Double? = row[4]
                points[row[0] as String, default: []].append(
                    TrackPoint(timeSeconds: row[1], latitudeDegrees: row[2], longitudeDegrees: row[3], accuracyMeters: accuracy ?? .nan))
            }
            return points.keys.sorted().map { DeviceTrack(device: $0, points: points[$0]!) }
        }
    }

    /// The geofences of every ingested file; when two files define one id, the later file's wins.
    public func geofences() throws -> [Geofence] {
        try database.read { db in
            var byID: [String: Geofence] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT geofence_id, name, kind, shape, center_lat_deg, center_lon_deg, radius_m, geometry_geojson
                FROM geofences ORDER BY file_id
                """)
            for row in rows {
                let id: String = row[0], name: String = row[1], kind: String = row[2]
                if let lat: Double = row[4], let lon: Double = row[5], let radius: Double = row[6] {
                    byID[id] = Geofence(id: id, name: name, kind: kind,
                                        shape: .circle(latitudeDegrees: lat, longitudeDegrees: lon, radiusMeters: radius))
                } else if let text: String = row[7],
                          let geometry = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                          let fence = GeofenceReader.geofence(["id": id, "geometry": geometry, "properties": ["name": name, "kind": kind]], index: 0) {
                    byID[id] = fence
                }
            }
            return byID.keys.sorted().map { byID[$0]! }
        }
    }

    /// The classified windows of each device, as spans for a `ModeTimeline`.
    public func modeSpans() throws -> [String: [ModeSpan]] {
        try database.read { db in
            var spans: [String: [ModeSpan]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT device, start_unix_s, end_unix_s, mode, decided_by FROM mode_windows") {
                guard let mode = Mode(rawValue: row[3]) else { continue }
                spans[row[0] as String, default: []].append(ModeSpan(startSeconds: row[1], endSeconds: row[2], mode: mode, source: row[4]))
            }
            return spans
        }
    }

    /// One classified window, as `pipeline classify --store` keeps it.
    public struct ModeWindowRow: Sendable {
        public var device: String, trace: String
        public var startSeconds: Double, endSeconds: Double
        public var mode: Mode, rawMode: Mode
        public var probability: Double?
        public var decidedBy: String

        public init(device: String, trace: String, startSeconds: Double, endSeconds: Double, mode: Mode, rawMode: Mode,
                    probability: Double?, decidedBy: String) {
            self.device = device
            self.trace = trace
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.mode = mode
            self.rawMode = rawMode
            self.probability = probability
            self.decidedBy = decidedBy
        }
    }

    /// Replaces the classified windows of every trace in `rows` (one transaction), so
    /// classifying a trace again never duplicates its windows.
    public func replaceModeWindows(_ rows: [ModeWindowRow]) throws {
        try database.write { db in
            for trace in Set(rows.map { [$0.device, $0.trace] }) {
                try db.execute(sql: "DELETE FROM mode_windows WHERE device = ? AND trace = ?", arguments: [trace[0], trace[1]])
            }
            try insertModeWindows(rows, db: db)
        }
    }

    func insertModeWindows(_ rows: [ModeWindowRow], db: Database) throws {
        let insert = try db.makeStatement(sql: """
            INSERT OR REPLACE INTO mode_windows (device, trace, start_unix_s, end_unix_s, mode, raw_mode, probability, decided_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows {
            try insert.execute(arguments: [row.device, row.trace, row.startSeconds, row.endSeconds, row.mode.rawValue,
                                           row.rawMode.rawValue, row.probability, row.decidedBy])
        }
    }
}
