import Foundation
import GRDB
import MobilityCore

/// Writes the small per-file parts of an ingested file (counts, streams, labels, geofences,
/// check-ins, drop reasons) inside the file's transaction.
enum IngestRows {
    static func write(_ result: IngestedFileRows, fileID: Int64, db: Database) throws {
        try updateFile(result, fileID: fileID, db: db)
        for stream in result.imuStreams {
            try db.execute(
                sql: """
                    INSERT INTO imu_streams (file_id, sensor, samples, first_unix_s, last_unix_s, rate_hz, duplicate_times, dropped_samples,
                      effective_rate_hz, gaps, longest_gap_s, gap_s, repeated_samples, repeat_factor, real_rate_hz, clock_jumps)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    fileID, stream.sensor.rawValue, stream.samples, stream.first?.secondsSince1970,
                    stream.last?.secondsSince1970, stream.rateHz, stream.duplicateTimes, stream.droppedSamples,
                    stream.effectiveRateHz, stream.gaps, stream.longestGapSeconds, stream.gapSeconds,
                    stream.repeatedSamples, stream.repeatFactor, stream.realRateHz, stream.clockJumps
                ])
        }
        for (sensor, rows) in result.otherSensors {
            try db.execute(sql: "INSERT INTO other_sensors (file_id, sensor, rows) VALUES (?, ?, ?)", arguments: [fileID, sensor, rows])
        }
        let label = try db.makeStatement(
            sql: """
                INSERT INTO labels (file_id, device, start_unix_s, end_unix_s, raw_name, mode, source) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for interval in result.labels {
            try label.execute(arguments: [
                fileID, interval.device, interval.start.secondsSince1970, interval.end.secondsSince1970,
                interval.rawName, interval.mode?.rawValue, interval.source
            ])
        }
        for fence in result.geofences { try writeGeofence(fence, fileID: fileID, db: db) }
        for checkIn in result.checkIns { try writeCheckIn(checkIn, fileID: fileID, db: db) }
        for (reason, count) in result.dropped.counts {
            try db.execute(
                sql: "INSERT INTO dropped_records (file_id, reason, count, first_line) VALUES (?, ?, ?, ?)",
                arguments: [fileID, reason.rawValue, count, result.dropped.firstLine[reason]])
        }
    }

    private static func updateFile(_ result: IngestedFileRows, fileID: Int64, db: Database) throws {
        let gpx = result.gpx
        try db.execute(
            sql: """
                UPDATE input_files SET format = ?, dialect = ?, device = ?, records_read = ?, fixes = ?, waypoints = ?,
                  imu_samples = ?, labels = ?, geofences = ?, checkins = ?, dropped = ?, first_unix_s = ?, last_unix_s = ?,
                  gpx_tracks = ?, gpx_segments = ?, gpx_track_points = ?, gpx_routes = ?, gpx_route_points = ?, gpx_waypoints = ?,
                  column_mapping = ?, person = ?, device_source = ?, person_source = ?, time_zone = ?
                WHERE id = ?
                """,
            arguments: [
                result.format, result.dialect, result.device, result.recordsRead, result.fixes,
                result.waypoints, result.imuSamples, result.labels.count, result.geofences.count,
                result.checkIns.count, result.dropped.total, result.firstSeconds, result.lastSeconds,
                gpx?.tracks, gpx?.segments, gpx?.trackPoints, gpx?.routes, gpx?.routePoints, gpx?.waypoints, result.columnMapping,
                result.person, result.deviceSource, result.personSource, result.timeZone, fileID
            ])
    }

    private static func writeGeofence(_ fence: Geofence, fileID: Int64, db: Database) throws {
        var center: (Double, Double)?, radius: Double?
        if case .circle(let lat, let lon, let meters) = fence.shape { center = (lat, lon); radius = meters }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO geofences (file_id, geofence_id, name, kind, shape, center_lat_deg, center_lon_deg, radius_m, geometry_geojson)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                fileID, fence.id, fence.name, fence.kind, fence.shape.kindName, center?.0, center?.1, radius,
                GeoJSONGeometry.text(fence.shape)
            ])
    }

    private static func writeCheckIn(_ checkIn: CheckIn, fileID: Int64, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO checkins (file_id, line, device, train, from_station, to_station, checkin_unix_s,
                  scheduled_departure_unix_s, scheduled_arrival_unix_s, cleanliness, odours_temperature, crowding, service,
                  noise_db, comment)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                fileID, checkIn.line, checkIn.device, checkIn.train, checkIn.fromStation, checkIn.toStation,
                checkIn.checkinTime.secondsSince1970, checkIn.scheduledDeparture?.secondsSince1970,
                checkIn.scheduledArrival?.secondsSince1970, checkIn.cleanliness, checkIn.odoursTemperature,
                checkIn.crowding, checkIn.service, checkIn.noiseDecibels, checkIn.comment
            ])
    }
}

/// A geofence shape as a GeoJSON geometry object, for the store and GIS tools.
enum GeoJSONGeometry {
    static func text(_ shape: Geofence.Shape) -> String {
        switch shape {
        case .circle(let lat, let lon, _):
            return #"{"type":"Point","coordinates":[\#(lon),\#(lat)]}"#
        case .polygon(let rings):
            return #"{"type":"Polygon","coordinates":\#(polygon(rings))}"#
        case .multiPolygon(let polygons):
            return #"{"type":"MultiPolygon","coordinates":[\#(polygons.map(polygon).joined(separator: ","))]}"#
        }
    }

    private static func polygon(_ rings: [[GeoPoint]]) -> String {
        "["
            + rings.map { ring in
                "[" + ring.map { "[\($0.longitudeDegrees),\($0.latitudeDegrees)]" }.joined(separator: ",") + "]"
            }.joined(separator: ",") + "]"
    }
}
