import Foundation
import GRDB

extension PipelineStore {
    /// Replaces every staypoint, dwell, location, tripleg and trip with `rows`, in one
    /// transaction: a killed run leaves the previous results whole, and a re-run never
    /// duplicates rows.
    public func replaceTripResults(_ rows: TripResultRows, longLineBytes: Int = PipelineStore.longLineBytes) throws {
        try database.write { db in
            for table in [
                "diary_episodes", "triplegs", "trips", "staypoints", "dwells", "locations", "device_zones", "person_days",
                "untracked_intervals"
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try insert(
                into: "locations",
                [
                    "id", "device", "number", "lat_deg", "lon_deg", "staypoints", "devices", "total_stay_s", "purpose", "purpose_method",
                    "purpose_score"
                ],
                rows.locations, db: db
            ) {
                [
                    $0.id, $0.device, $0.number, $0.latitudeDegrees, $0.longitudeDegrees, $0.staypoints,
                    $0.devices, $0.totalStaySeconds, $0.purpose, $0.purposeMethod, $0.purposeScore
                ]
            }
            try insert(
                into: "staypoints",
                [
                    "id", "device", "started_unix_s", "finished_unix_s", "duration_s", "lat_deg", "lon_deg", "fixes",
                    "is_open", "is_activity", "location_id", "geofence_id", "purpose", "kind"
                ], rows.staypoints, db: db
            ) {
                [
                    $0.id, $0.device, $0.startSeconds, $0.endSeconds, $0.durationSeconds, $0.latitudeDegrees, $0.longitudeDegrees, $0.fixes,
                    $0.isOpen, $0.isActivity, $0.locationID, $0.geofenceID, $0.purpose, $0.kind
                ]
            }
            try insert(
                into: "dwells",
                [
                    "id", "device", "geofence_id", "geofence_name", "geofence_kind", "entry_unix_s", "exit_unix_s",
                    "duration_s", "fixes", "closed_by", "longest_gap_s", "lat_deg", "lon_deg"
                ], rows.dwells, db: db
            ) {
                [
                    $0.id, $0.device, $0.geofenceID, $0.geofenceName, $0.geofenceKind, $0.entrySeconds, $0.exitSeconds, $0.durationSeconds,
                    $0.fixes, $0.closedBy, $0.longestGapSeconds, $0.latitudeDegrees, $0.longitudeDegrees
                ]
            }
            try insert(
                into: "trips",
                [
                    "id", "device", "started_unix_s", "finished_unix_s", "duration_s", "distance_m", "main_mode", "legs",
                    "origin_staypoint_id", "destination_staypoint_id", "origin_location_id", "destination_location_id",
                    "origin_geofence_id", "destination_geofence_id", "origin_purpose", "destination_purpose", "trip_purpose",
                    "origin_kind", "destination_kind", "origin_lat_deg", "origin_lon_deg", "destination_lat_deg", "destination_lon_deg"
                ], rows.trips, db: db
            ) {
                [
                    $0.id, $0.device, $0.startSeconds, $0.endSeconds, $0.durationSeconds, $0.distanceMeters, $0.mainMode, $0.legs,
                    $0.originStaypointID, $0.destinationStaypointID, $0.originLocationID, $0.destinationLocationID,
                    $0.originGeofenceID, $0.destinationGeofenceID, $0.originPurpose, $0.destinationPurpose, $0.tripPurpose,
                    $0.originKind, $0.destinationKind, $0.origin?.latitude, $0.origin?.longitude, $0.destination?.latitude,
                    $0.destination?.longitude
                ]
            }
            try insertTriplegs(rows.triplegs, longLineBytes: longLineBytes, db: db)
            try insert(into: "device_zones", ["device", "started_unix_s", "zone", "source"], rows.deviceZones, db: db) {
                [$0.device, $0.startSeconds, $0.zone, $0.source]
            }
            try insert(
                into: "person_days",
                [
                    "person", "local_date", "time_zone", "started_unix_s", "finished_unix_s", "tracked_s", "untracked_s", "tracked_share",
                    "fixes", "imu_s", "valid"
                ], rows.personDays, db: db
            ) {
                [
                    $0.person, $0.date, $0.zone, $0.startSeconds, $0.endSeconds, $0.trackedSeconds,
                    $0.endSeconds - $0.startSeconds - $0.trackedSeconds, $0.trackedSeconds / ($0.endSeconds - $0.startSeconds), $0.fixes,
                    $0.imuSeconds, $0.valid
                ]
            }
            try insert(
                into: "untracked_intervals", ["person", "local_date", "started_unix_s", "finished_unix_s", "duration_s"], rows.untracked,
                db: db
            ) { [$0.person, $0.date, $0.startSeconds, $0.endSeconds, $0.endSeconds - $0.startSeconds] }
            try insert(
                into: "diary_episodes",
                [
                    "person", "local_date", "kind", "started_unix_s", "finished_unix_s", "duration_s", "device", "staypoint_id", "trip_id",
                    "tripleg_id", "purpose", "travel_mode", "lat_deg", "lon_deg"
                ], rows.episodes, db: db
            ) {
                [
                    $0.person, $0.date, $0.kind, $0.startSeconds, $0.endSeconds, $0.endSeconds - $0.startSeconds, $0.device, $0.staypointID,
                    $0.tripID, $0.triplegID, $0.purpose, $0.mode, $0.latitudeDegrees, $0.longitudeDegrees
                ]
            }
        }
    }

    /// Each stored trip's device and end kinds (nil for an end without a position), and the
    /// device of each stay across a recording gap.
    public func tripEndKinds() throws -> (
        devices: [String], origins: [String?], destinations: [String?], gapStays: Int, gapStayDevices: [String]
    ) {
        try database.read { db in
            let ends = try Row.fetchAll(db, sql: "SELECT device, origin_kind, destination_kind FROM trips ORDER BY id")
            let gaps = try String.fetchAll(db, sql: "SELECT device FROM staypoints WHERE kind = 'gap' ORDER BY id")
            return (ends.map { $0[0] }, ends.map { $0[1] }, ends.map { $0[2] }, gaps.count, gaps)
        }
    }

    /// Every stored person-day's tracked share and validity, in person and date order.
    public func personDayShares() throws -> [(share: Double, valid: Bool)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT tracked_share, valid FROM person_days ORDER BY person, local_date").map { ($0[0], $0[1]) }
        }
    }

    /// Each device's zones as the last trip stage decided them, in device and time order.
    public func deviceZones() throws -> [TripResultRows.DeviceZone] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT device, started_unix_s, zone, source FROM device_zones ORDER BY device, COALESCE(started_unix_s, -1e300)"
            ).map { TripResultRows.DeviceZone(device: $0[0], startSeconds: $0[1], zone: $0[2], source: $0[3]) }
        }
    }

    /// A leg's line longer than this, in bytes of GeoJSON text (about 21 a fix: 200,000 fixes,
    /// two days and more of one leg at 1 Hz), is stored as a BLOB of the same UTF-8 bytes,
    /// written in pieces: SQLite builds a row whole in memory, a TEXT value too, so such a line
    /// was held twice as its row was written (33 MB each for 1.6 M fixes, 650 MB for a year at
    /// 1 Hz), where a BLOB's zeros (`zeroblob`) are left out and filled a block at a time after.
    /// Readers that take either (`CAST(geometry_geojson AS TEXT)`, `json.loads`) see one text;
    /// every export and the GeoPackage read it in pieces (`ColumnBlobs`). 4 MiB.
    public static let longLineBytes = 4 << 20

    /// The legs' rows, each line read from its spool only as its row is written; a line longer
    /// than `longLineBytes` written into its row in pieces, as a BLOB.
    private func insertTriplegs(_ legs: [TripResultRows.Tripleg], longLineBytes: Int, db: Database) throws {
        let columns = [
            "id", "device", "trip_id", "started_unix_s", "finished_unix_s", "duration_s", "distance_m", "mode", "mode_source", "fixes",
            "previous_staypoint_id", "next_staypoint_id", "imu_answer", "gps_leg_model_answer", "geometry_geojson"
        ]
        func statement(line: String) throws -> Statement {
            let values = columns.dropLast().map { _ in "?, " }.joined() + line
            return try db.makeStatement(sql: "INSERT INTO triplegs (\(columns.joined(separator: ", "))) VALUES (\(values))")
        }
        let whole = try statement(line: "?"), inPieces = try statement(line: "zeroblob(?)")
        for leg in legs {
            let values: [DatabaseValueConvertible?] = [
                leg.id, leg.device, leg.tripID, leg.startSeconds, leg.endSeconds, leg.durationSeconds, leg.distanceMeters, leg.mode,
                leg.modeSource, leg.fixes, leg.previousStaypointID, leg.nextStaypointID, leg.imuAnswer, leg.gpsLegModelAnswer
            ]
            let bytes = leg.geometryGeoJSON.byteCount
            if bytes > longLineBytes {
                try inPieces.execute(arguments: StatementArguments(values + [bytes]))
                try ColumnBlobs.write(
                    leg.geometryGeoJSON, into: "triplegs", column: "geometry_geojson", row: db.lastInsertedRowID,
                    connection: db.sqliteConnection, blockBytes: 1 << 20)
            } else {
                try whole.execute(arguments: StatementArguments(values + [try leg.geometryGeoJSON.string()]))
            }
        }
    }

    /// Inserts `rows` with one prepared statement.
    private func insert<Row>(
        into table: String, _ columns: [String], _ rows: [Row], db: Database,
        values: (Row) throws -> [DatabaseValueConvertible?]
    ) throws {
        let statement = try db.makeStatement(
            sql: """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
                """)
        for row in rows { try statement.execute(arguments: StatementArguments(try values(row))) }
    }
}
