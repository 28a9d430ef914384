import Foundation
import GRDB
import MobilityCore
import Trips

extension PipelineStore {
    /// Replaces every staypoint, dwell, location, tripleg and trip with `result`, in one
    /// transaction: a killed run leaves the previous results whole, and a re-run never
    /// duplicates rows.
    public func replaceTripResults(_ result: TripAnalysis.Result, geofences: [Geofence]) throws {
        let fences = Dictionary(geofences.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let ids = TripIdentifiers(result.devices)
        try database.write { db in
            for table in ["triplegs", "trips", "staypoints", "dwells", "locations"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try insertLocations(result.locations, db: db)
            for (deviceIndex, device) in result.devices.enumerated() {
                try insertStaypoints(device, deviceIndex: deviceIndex, ids: ids, db: db)
                try insertDwells(device, deviceIndex: deviceIndex, ids: ids, fences: fences, db: db)
                try insertTrips(device, deviceIndex: deviceIndex, ids: ids, db: db)
                try insertTriplegs(device, deviceIndex: deviceIndex, ids: ids, db: db)
            }
        }
    }

    private func insertLocations(_ locations: [Location], db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO locations (id, device, number, lat_deg, lon_deg, staypoints, devices, total_stay_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, location) in locations.enumerated() {
            try statement.execute(arguments: [TripIdentifiers.location(index), location.device, location.number, location.latitudeDegrees,
                                              location.longitudeDegrees, location.staypoints, location.devices, location.totalStaySeconds])
        }
    }

    private func insertStaypoints(_ device: DeviceTrips, deviceIndex: Int, ids: TripIdentifiers, db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO staypoints (id, device, started_unix_s, finished_unix_s, duration_s, lat_deg, lon_deg, fixes, is_open,
              is_activity, location_id, geofence_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, stay) in device.staypoints.enumerated() {
            try statement.execute(arguments: [
                ids.staypoint(deviceIndex, index), stay.device, stay.startSeconds, stay.endSeconds, stay.durationSeconds,
                stay.latitudeDegrees, stay.longitudeDegrees, stay.fixCount, stay.isOpen, stay.isActivity,
                stay.location.map(TripIdentifiers.location), stay.geofence,
            ])
        }
    }

    private func insertDwells(_ device: DeviceTrips, deviceIndex: Int, ids: TripIdentifiers, fences: [String: Geofence],
                              db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO dwells (id, device, geofence_id, geofence_name, geofence_kind, entry_unix_s, exit_unix_s, duration_s,
              fixes, closed_by, longest_gap_s, lat_deg, lon_deg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, dwell) in device.dwells.enumerated() {
            let fence = fences[dwell.geofenceID]
            let centre = dwell.center
            try statement.execute(arguments: [
                ids.dwell(deviceIndex, index), dwell.device, dwell.geofenceID, fence?.name ?? dwell.geofenceID,
                fence?.kind ?? "zone", dwell.entrySeconds, dwell.exitSeconds, dwell.durationSeconds, dwell.fixesUsed,
                dwell.closure.rawValue, dwell.longestGapSeconds, centre.latitudeDegrees, centre.longitudeDegrees,
            ])
        }
    }

    private func insertTrips(_ device: DeviceTrips, deviceIndex: Int, ids: TripIdentifiers, db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO trips (id, device, started_unix_s, finished_unix_s, duration_s, distance_m, main_mode, legs,
              origin_staypoint_id, destination_staypoint_id, origin_location_id, destination_location_id,
              origin_geofence_id, destination_geofence_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, trip) in device.trips.enumerated() {
            try statement.execute(arguments: [
                ids.trip(deviceIndex, index), trip.device, trip.startSeconds, trip.endSeconds, trip.durationSeconds,
                trip.distanceMeters, trip.mainMode?.rawValue, trip.legs.count,
                trip.originStaypoint.map { ids.staypoint(deviceIndex, $0) },
                trip.destinationStaypoint.map { ids.staypoint(deviceIndex, $0) },
                trip.originStaypoint.flatMap { device.staypoints[$0].location }.map(TripIdentifiers.location),
                trip.destinationStaypoint.flatMap { device.staypoints[$0].location }.map(TripIdentifiers.location),
                trip.originGeofence, trip.destinationGeofence,
            ])
        }
    }

    private func insertTriplegs(_ device: DeviceTrips, deviceIndex: Int, ids: TripIdentifiers, db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO triplegs (id, device, trip_id, started_unix_s, finished_unix_s, duration_s, distance_m, mode, mode_source,
              fixes, previous_staypoint_id, next_staypoint_id, geometry_geojson) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, leg) in device.triplegs.enumerated() {
            try statement.execute(arguments: [
                ids.tripleg(deviceIndex, index), leg.device, leg.trip.map { ids.trip(deviceIndex, $0) }, leg.startSeconds,
                leg.endSeconds, leg.durationSeconds, leg.distanceMeters, leg.mode?.rawValue, leg.modeSource, leg.fixCount,
                leg.previousStaypoint.map { ids.staypoint(deviceIndex, $0) }, leg.nextStaypoint.map { ids.staypoint(deviceIndex, $0) },
                device.track.lineStringGeoJSON(leg.firstFix...leg.lastFix),
            ])
        }
    }
}
