import GRDB

/// The store's schema, as named migrations in SQL. A shipped migration is never edited: a
/// change is a new migration appended here.
///
/// Times are `REAL` seconds since 1970 UTC (`*_unix_s`; SQLite's `datetime(x, 'unixepoch')`
/// shows them); units are in column names.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_ingest") { db in try v1Ingest(db) }
        return migrator
    }

    static func v1Ingest(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE runs (
              id INTEGER PRIMARY KEY,
              command TEXT NOT NULL,
              started_unix_s REAL NOT NULL,
              finished_unix_s REAL,
              status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
              files_seen INTEGER NOT NULL DEFAULT 0,
              files_ingested INTEGER NOT NULL DEFAULT 0,
              files_unchanged INTEGER NOT NULL DEFAULT 0,
              files_quarantined INTEGER NOT NULL DEFAULT 0,
              files_skipped INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE input_files (
              id INTEGER PRIMARY KEY,
              path TEXT NOT NULL UNIQUE,
              content_sha256 TEXT NOT NULL,
              size_bytes INTEGER NOT NULL,
              status TEXT NOT NULL CHECK (status IN ('ingested', 'quarantined')),
              format TEXT,
              dialect TEXT,
              device TEXT,
              records_read INTEGER NOT NULL DEFAULT 0,
              fixes INTEGER NOT NULL DEFAULT 0,
              waypoints INTEGER NOT NULL DEFAULT 0,
              imu_samples INTEGER NOT NULL DEFAULT 0,
              labels INTEGER NOT NULL DEFAULT 0,
              geofences INTEGER NOT NULL DEFAULT 0,
              checkins INTEGER NOT NULL DEFAULT 0,
              dropped INTEGER NOT NULL DEFAULT 0,
              first_unix_s REAL,
              last_unix_s REAL,
              gpx_tracks INTEGER,
              gpx_segments INTEGER,
              gpx_track_points INTEGER,
              gpx_routes INTEGER,
              gpx_route_points INTEGER,
              gpx_waypoints INTEGER,
              run_id INTEGER NOT NULL REFERENCES runs(id),
              ingested_unix_s REAL NOT NULL
            );
            CREATE INDEX input_files_device ON input_files(device);
            CREATE TABLE fixes (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              seq INTEGER NOT NULL,
              track INTEGER NOT NULL,
              segment INTEGER NOT NULL,
              line INTEGER NOT NULL,
              time_unix_s REAL,
              lat_deg REAL NOT NULL,
              lon_deg REAL NOT NULL,
              elevation_m REAL,
              accuracy_m REAL,
              hdop REAL,
              pdop REAL,
              speed_mps REAL,
              course_deg REAL,
              heart_rate_bpm REAL,
              cadence_rpm REAL,
              PRIMARY KEY (file_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE waypoints (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              seq INTEGER NOT NULL,
              kind TEXT NOT NULL CHECK (kind IN ('waypoint', 'route_point')),
              route INTEGER,
              name TEXT,
              line INTEGER NOT NULL,
              time_unix_s REAL,
              lat_deg REAL NOT NULL,
              lon_deg REAL NOT NULL,
              elevation_m REAL,
              PRIMARY KEY (file_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE imu_streams (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              sensor TEXT NOT NULL,
              samples INTEGER NOT NULL,
              first_unix_s REAL,
              last_unix_s REAL,
              rate_hz REAL,
              duplicate_times INTEGER NOT NULL,
              dropped_samples INTEGER NOT NULL,
              PRIMARY KEY (file_id, sensor)
            ) WITHOUT ROWID;
            CREATE TABLE other_sensors (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              sensor TEXT NOT NULL,
              rows INTEGER NOT NULL,
              PRIMARY KEY (file_id, sensor)
            ) WITHOUT ROWID;
            CREATE TABLE labels (
              id INTEGER PRIMARY KEY,
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              device TEXT,
              start_unix_s REAL NOT NULL,
              end_unix_s REAL NOT NULL,
              raw_name TEXT NOT NULL,
              mode TEXT,
              source TEXT NOT NULL
            );
            CREATE INDEX labels_file ON labels(file_id);
            CREATE TABLE geofences (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              geofence_id TEXT NOT NULL,
              name TEXT NOT NULL,
              kind TEXT NOT NULL,
              shape TEXT NOT NULL CHECK (shape IN ('circle', 'polygon', 'multipolygon')),
              center_lat_deg REAL,
              center_lon_deg REAL,
              radius_m REAL,
              geometry_geojson TEXT,
              PRIMARY KEY (file_id, geofence_id)
            ) WITHOUT ROWID;
            CREATE TABLE checkins (
              id INTEGER PRIMARY KEY,
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              line INTEGER NOT NULL,
              device TEXT NOT NULL,
              train TEXT NOT NULL,
              from_station TEXT NOT NULL,
              to_station TEXT NOT NULL,
              checkin_unix_s REAL NOT NULL,
              scheduled_departure_unix_s REAL,
              scheduled_arrival_unix_s REAL,
              cleanliness INTEGER CHECK (cleanliness BETWEEN 1 AND 5),
              odours_temperature INTEGER CHECK (odours_temperature BETWEEN 1 AND 5),
              crowding INTEGER CHECK (crowding BETWEEN 1 AND 5),
              service INTEGER CHECK (service BETWEEN 1 AND 5),
              noise_db REAL,
              comment TEXT
            );
            CREATE INDEX checkins_file ON checkins(file_id);
            CREATE TABLE dropped_records (
              file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
              reason TEXT NOT NULL,
              count INTEGER NOT NULL,
              first_line INTEGER,
              PRIMARY KEY (file_id, reason)
            ) WITHOUT ROWID;
            CREATE TABLE quarantine (
              file_id INTEGER PRIMARY KEY REFERENCES input_files(id) ON DELETE CASCADE,
              code TEXT NOT NULL,
              reason TEXT NOT NULL,
              line INTEGER,
              column INTEGER,
              run_id INTEGER NOT NULL REFERENCES runs(id)
            );
            """)
    }
}
