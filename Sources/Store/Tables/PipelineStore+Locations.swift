import Foundation
import GRDB

extension PipelineStore {
    /// Every staypoint, in id order (device order, then time: the order a run numbers them).
    public func storedStaypoints() throws -> [TripResultRows.Staypoint] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, device, started_unix_s, finished_unix_s, duration_s, lat_deg, lon_deg, fixes, is_open, is_activity,
                           location_id, geofence_id FROM staypoints ORDER BY id
                    """
            ).map { row in
                TripResultRows.Staypoint(
                    id: row["id"], device: row["device"], startSeconds: row["started_unix_s"],
                    endSeconds: row["finished_unix_s"], durationSeconds: row["duration_s"],
                    latitudeDegrees: row["lat_deg"], longitudeDegrees: row["lon_deg"], fixes: row["fixes"],
                    isOpen: row["is_open"], isActivity: row["is_activity"], locationID: row["location_id"],
                    geofenceID: row["geofence_id"])
            }
        }
    }

    /// Replaces every location with `locations` and sets each staypoint's location (`locationIDs`,
    /// by staypoint id; a staypoint not listed has none), then each trip's origin and destination
    /// location from its staypoints, in one transaction: a killed pass leaves the old locations whole.
    public func replaceLocations(_ locations: [TripResultRows.Location], locationIDs: [Int: Int]) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE trips SET origin_location_id = NULL, destination_location_id = NULL;
                    UPDATE staypoints SET location_id = NULL;
                    DELETE FROM locations;
                    """)
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO locations (id, device, number, lat_deg, lon_deg, staypoints, devices, total_stay_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for l in locations {
                try insert.execute(arguments: [
                    l.id, l.device, l.number, l.latitudeDegrees, l.longitudeDegrees, l.staypoints, l.devices,
                    l.totalStaySeconds
                ])
            }
            let assign = try db.makeStatement(sql: "UPDATE staypoints SET location_id = ? WHERE id = ?")
            for (staypoint, location) in locationIDs.sorted(by: { $0.key < $1.key }) {
                try assign.execute(arguments: [location, staypoint])
            }
            try db.execute(
                sql: """
                    UPDATE trips SET origin_location_id = (SELECT location_id FROM staypoints WHERE id = trips.origin_staypoint_id),
                                     destination_location_id = (SELECT location_id FROM staypoints WHERE id = trips.destination_staypoint_id)
                    """)
        }
    }
}
