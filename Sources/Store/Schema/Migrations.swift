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
        migrator.registerMigration("v2_trips") { db in try v2Trips(db) }
        migrator.registerMigration("v3_run") { db in try v3Run(db) }
        migrator.registerMigration("v4_comfort") { db in try v4Comfort(db) }
        migrator.registerMigration("v5_stage_failures") { db in try v5StageFailures(db) }
        migrator.registerMigration("v6_column_mapping") { db in try v6ColumnMapping(db) }
        migrator.registerMigration("v7_stream_timing_and_notes") { db in try v7StreamTiming(db) }
        migrator.registerMigration("v8_recording_rides") { db in try v8RecordingRides(db) }
        migrator.registerMigration("v9_file_signature") { db in try v9FileSignature(db) }
        migrator.registerMigration("v10_heatmap_device_cells") { db in try v10HeatMapDeviceCells(db) }
        migrator.registerMigration("v11_identity") { db in try v11Identity(db) }
        // Each input's outcome counts its device's triplegs within its span (one lookup per file).
        migrator.registerMigration("v12_triplegs_device") { db in
            try db.execute(sql: "CREATE INDEX triplegs_device ON triplegs(device, started_unix_s)")
        }
        // Each leg keeps what the IMU windows and the GPS leg model said on their own, so the
        // report can say how often the leg decision changed a source's answer, per mode.
        migrator.registerMigration("v13_tripleg_source_answers") { db in
            try db.execute(
                sql: "ALTER TABLE triplegs ADD COLUMN imu_answer TEXT; ALTER TABLE triplegs ADD COLUMN gps_leg_model_answer TEXT")
        }
        // Releases on calendar windows (`ReleaseWindows`): each window published once, and the
        // trips each release held, so none is released twice.
        migrator.registerMigration("v14_releases") { db in
            try db.execute(
                sql: """
                    CREATE TABLE release_windows (
                      window_id TEXT PRIMARY KEY,
                      period TEXT NOT NULL,
                      started_unix_s REAL NOT NULL,
                      finished_unix_s REAL NOT NULL,
                      trips INTEGER NOT NULL,
                      released_unix_s REAL NOT NULL
                    );
                    CREATE TABLE released_trips (
                      device TEXT NOT NULL,
                      started_unix_s REAL NOT NULL,
                      window_id TEXT NOT NULL REFERENCES release_windows(window_id),
                      PRIMARY KEY (device, started_unix_s)
                    );
                    """)
        }
        // The IANA zone a manifest gives a device's local time (`timezone`), per input file.
        // Person-days (issue 53): each device's zones as the trip stage decided them, each
        // person's local days with their tracking coverage, and the days' untracked intervals.
        migrator.registerMigration("v15_person_days") { db in
            try db.execute(
                sql: """
                    ALTER TABLE input_files ADD COLUMN time_zone TEXT;
                    CREATE TABLE device_zones (
                      device TEXT NOT NULL,
                      started_unix_s REAL,
                      zone TEXT NOT NULL,
                      source TEXT NOT NULL,
                      guess_m REAL
                    );
                    CREATE TABLE person_days (
                      person TEXT NOT NULL,
                      local_date TEXT NOT NULL,
                      time_zone TEXT NOT NULL,
                      started_unix_s REAL NOT NULL,
                      finished_unix_s REAL NOT NULL,
                      tracked_s REAL NOT NULL,
                      untracked_s REAL NOT NULL,
                      tracked_share REAL NOT NULL,
                      fixes INTEGER NOT NULL,
                      imu_s REAL NOT NULL,
                      valid INTEGER NOT NULL,
                      PRIMARY KEY (person, local_date)
                    );
                    CREATE TABLE untracked_intervals (
                      person TEXT NOT NULL,
                      local_date TEXT NOT NULL,
                      started_unix_s REAL NOT NULL,
                      finished_unix_s REAL NOT NULL,
                      duration_s REAL NOT NULL
                    );
                    """)
        }
        // Home, work and trip purposes (issue 53, item 3): each staypoint's place, each location's
        // label for its device with how it was found, each trip's ends and purpose.
        migrator.registerMigration("v16_purposes") { db in
            try db.execute(
                sql: """
                    ALTER TABLE staypoints ADD COLUMN purpose TEXT;
                    ALTER TABLE locations ADD COLUMN purpose TEXT;
                    ALTER TABLE locations ADD COLUMN purpose_method TEXT;
                    ALTER TABLE locations ADD COLUMN purpose_score REAL;
                    ALTER TABLE trips ADD COLUMN origin_purpose TEXT;
                    ALTER TABLE trips ADD COLUMN destination_purpose TEXT;
                    ALTER TABLE trips ADD COLUMN trip_purpose TEXT;
                    """)
        }
        // The travel diary's episodes (issue 53, item 5): each person-day cut into activities,
        // trips and untracked stretches, written by the trip stage, read by `export --format diary`.
        migrator.registerMigration("v17_diary") { db in
            try db.execute(
                sql: """
                    CREATE TABLE diary_episodes (
                      person TEXT NOT NULL,
                      local_date TEXT NOT NULL,
                      kind TEXT NOT NULL CHECK (kind IN ('activity', 'stay', 'trip', 'travel', 'untracked')),
                      started_unix_s REAL NOT NULL,
                      finished_unix_s REAL NOT NULL,
                      duration_s REAL NOT NULL,
                      device TEXT,
                      staypoint_id INTEGER REFERENCES staypoints(id),
                      trip_id INTEGER REFERENCES trips(id),
                      tripleg_id INTEGER REFERENCES triplegs(id),
                      purpose TEXT,
                      travel_mode TEXT,
                      lat_deg REAL,
                      lon_deg REAL
                    );
                    """)
        }
        // A leg's line moves to the end of its row. SQLite builds a row whole in memory, but
        // leaves out the zeros of a blob (`zeroblob`) that only empty values follow, so the
        // line must come last to be written in pieces (`PipelineStore.longLineBytes`); and a
        // value after a long one is read only by walking the long one's overflow pages. The
        // table is made again (SQLite moves no column), as its documentation's steps say.
        migrator.registerMigration("v18_triplegs_line_last") { db in
            let columns = """
                id, device, trip_id, started_unix_s, finished_unix_s, duration_s, distance_m, mode, mode_source, fixes,
                previous_staypoint_id, next_staypoint_id, imu_answer, gps_leg_model_answer, geometry_geojson
                """
            try db.execute(
                sql: """
                    CREATE TABLE triplegs_moved (
                      id INTEGER PRIMARY KEY,
                      device TEXT NOT NULL,
                      trip_id INTEGER REFERENCES trips(id),
                      started_unix_s REAL NOT NULL,
                      finished_unix_s REAL NOT NULL,
                      duration_s REAL NOT NULL,
                      distance_m REAL NOT NULL,
                      mode TEXT,
                      mode_source TEXT,
                      fixes INTEGER NOT NULL,
                      previous_staypoint_id INTEGER REFERENCES staypoints(id),
                      next_staypoint_id INTEGER REFERENCES staypoints(id),
                      imu_answer TEXT,
                      gps_leg_model_answer TEXT,
                      geometry_geojson TEXT NOT NULL
                    );
                    INSERT INTO triplegs_moved (\(columns)) SELECT \(columns) FROM triplegs;
                    DROP TABLE triplegs;
                    ALTER TABLE triplegs_moved RENAME TO triplegs;
                    CREATE INDEX triplegs_trip ON triplegs(trip_id);
                    CREATE INDEX triplegs_device ON triplegs(device, started_unix_s);
                    """)
        }
        // Trips placed by their ends (issue 82): how each end was placed and where it is, and
        // stays across recording gaps beside trackintel's staypoints.
        migrator.registerMigration("v19_trip_ends") { db in
            try db.execute(
                sql: """
                    ALTER TABLE staypoints ADD COLUMN kind TEXT NOT NULL DEFAULT 'sliding';
                    ALTER TABLE trips ADD COLUMN origin_kind TEXT;
                    ALTER TABLE trips ADD COLUMN destination_kind TEXT;
                    ALTER TABLE trips ADD COLUMN origin_lat_deg REAL;
                    ALTER TABLE trips ADD COLUMN origin_lon_deg REAL;
                    ALTER TABLE trips ADD COLUMN destination_lat_deg REAL;
                    ALTER TABLE trips ADD COLUMN destination_lon_deg REAL;
                    """)
        }
        // Zones come from the zones' borders (`ZoneBoundaries`), not the nearest zone city:
        // there is no guess distance to keep.
        migrator.registerMigration("v20_zone_boundaries") { db in
            try db.execute(sql: "ALTER TABLE device_zones DROP COLUMN guess_m")
        }
        return migrator
    }

    static func v1Ingest(_ db: Database) throws {
        try db.execute(
            sql: """
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

    /// Classified windows and everything the trip stage derives from fixes. The derived
    /// tables are rebuilt as a whole by each trip run (in one transaction), so ids are only
    /// stable within one run's output.
    static func v2Trips(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE mode_windows (
                  device TEXT NOT NULL,
                  trace TEXT NOT NULL,
                  start_unix_s REAL NOT NULL,
                  end_unix_s REAL NOT NULL,
                  mode TEXT NOT NULL,
                  raw_mode TEXT NOT NULL,
                  probability REAL,
                  decided_by TEXT NOT NULL,
                  PRIMARY KEY (device, trace, start_unix_s)
                ) WITHOUT ROWID;
                CREATE TABLE locations (
                  id INTEGER PRIMARY KEY,
                  device TEXT,
                  number INTEGER NOT NULL,
                  lat_deg REAL NOT NULL,
                  lon_deg REAL NOT NULL,
                  staypoints INTEGER NOT NULL,
                  devices INTEGER NOT NULL,
                  total_stay_s REAL NOT NULL
                );
                CREATE TABLE staypoints (
                  id INTEGER PRIMARY KEY,
                  device TEXT NOT NULL,
                  started_unix_s REAL NOT NULL,
                  finished_unix_s REAL NOT NULL,
                  duration_s REAL NOT NULL,
                  lat_deg REAL NOT NULL,
                  lon_deg REAL NOT NULL,
                  fixes INTEGER NOT NULL,
                  is_open INTEGER NOT NULL,
                  is_activity INTEGER NOT NULL,
                  location_id INTEGER REFERENCES locations(id),
                  geofence_id TEXT
                );
                CREATE INDEX staypoints_device ON staypoints(device, started_unix_s);
                CREATE TABLE dwells (
                  id INTEGER PRIMARY KEY,
                  device TEXT NOT NULL,
                  geofence_id TEXT NOT NULL,
                  geofence_name TEXT NOT NULL,
                  geofence_kind TEXT NOT NULL,
                  entry_unix_s REAL NOT NULL,
                  exit_unix_s REAL NOT NULL,
                  duration_s REAL NOT NULL,
                  fixes INTEGER NOT NULL,
                  closed_by TEXT NOT NULL CHECK (closed_by IN ('exit', 'gap', 'track_end')),
                  longest_gap_s REAL NOT NULL,
                  lat_deg REAL NOT NULL,
                  lon_deg REAL NOT NULL
                );
                CREATE INDEX dwells_device ON dwells(device, entry_unix_s);
                CREATE TABLE trips (
                  id INTEGER PRIMARY KEY,
                  device TEXT NOT NULL,
                  started_unix_s REAL NOT NULL,
                  finished_unix_s REAL NOT NULL,
                  duration_s REAL NOT NULL,
                  distance_m REAL NOT NULL,
                  main_mode TEXT,
                  legs INTEGER NOT NULL,
                  origin_staypoint_id INTEGER REFERENCES staypoints(id),
                  destination_staypoint_id INTEGER REFERENCES staypoints(id),
                  origin_location_id INTEGER REFERENCES locations(id),
                  destination_location_id INTEGER REFERENCES locations(id),
                  origin_geofence_id TEXT,
                  destination_geofence_id TEXT
                );
                CREATE INDEX trips_device ON trips(device, started_unix_s);
                CREATE TABLE triplegs (
                  id INTEGER PRIMARY KEY,
                  device TEXT NOT NULL,
                  trip_id INTEGER REFERENCES trips(id),
                  started_unix_s REAL NOT NULL,
                  finished_unix_s REAL NOT NULL,
                  duration_s REAL NOT NULL,
                  distance_m REAL NOT NULL,
                  mode TEXT,
                  mode_source TEXT,
                  fixes INTEGER NOT NULL,
                  previous_staypoint_id INTEGER REFERENCES staypoints(id),
                  next_staypoint_id INTEGER REFERENCES staypoints(id),
                  geometry_geojson TEXT NOT NULL
                );
                CREATE INDEX triplegs_trip ON triplegs(trip_id);
                """)
    }

    /// Heat maps (published cells only, with the map's parameters), the per-file
    /// classification marks that make `pipeline run` incremental, and the state of the last
    /// complete run.
    static func v3Run(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE heatmaps (
                  map TEXT PRIMARY KEY,
                  cell_m REAL NOT NULL,
                  min_devices INTEGER NOT NULL,
                  filter TEXT NOT NULL,
                  cells INTEGER NOT NULL,
                  suppressed_cells INTEGER NOT NULL
                );
                CREATE TABLE heatmap_cells (
                  map TEXT NOT NULL REFERENCES heatmaps(map) ON DELETE CASCADE,
                  cell_id TEXT NOT NULL,
                  center_lat_deg REAL NOT NULL,
                  center_lon_deg REAL NOT NULL,
                  south_deg REAL NOT NULL,
                  west_deg REAL NOT NULL,
                  north_deg REAL NOT NULL,
                  east_deg REAL NOT NULL,
                  fixes INTEGER NOT NULL,
                  devices INTEGER NOT NULL,
                  dwell_s REAL NOT NULL,
                  PRIMARY KEY (map, cell_id)
                ) WITHOUT ROWID;
                CREATE TABLE classified_files (
                  file_id INTEGER PRIMARY KEY REFERENCES input_files(id) ON DELETE CASCADE,
                  sha256 TEXT NOT NULL,
                  model TEXT NOT NULL,
                  windows INTEGER NOT NULL
                );
                CREATE TABLE derived_state (
                  key TEXT PRIMARY KEY,
                  value TEXT NOT NULL
                );
                """)
    }

    /// Train rides: one row per check-in, with what could be measured of it.
    static func v4Comfort(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE rides (
                  id INTEGER PRIMARY KEY,
                  checkin_id INTEGER NOT NULL REFERENCES checkins(id) ON DELETE CASCADE,
                  device TEXT NOT NULL,
                  train TEXT NOT NULL,
                  from_station TEXT NOT NULL,
                  to_station TEXT NOT NULL,
                  status TEXT NOT NULL CHECK (status IN ('measured', 'no_imu', 'no_data', 'unusable_imu')),
                  started_unix_s REAL NOT NULL,
                  finished_unix_s REAL NOT NULL,
                  departure_unix_s REAL,
                  arrival_unix_s REAL,
                  departure_delay_s REAL,
                  arrival_delay_s REAL,
                  imu_rate_hz REAL,
                  rms_x REAL, rms_y REAL, rms_z REAL, a_v REAL,
                  mtvv_x REAL, mtvv_y REAL, mtvv_z REAL,
                  vdv_x REAL, vdv_y REAL, vdv_z REAL,
                  crest_x REAL, crest_y REAL, crest_z REAL,
                  comfort_band TEXT,
                  nmv REAL,
                  nmv_class TEXT,
                  jerks_longitudinal_per_h REAL,
                  jerks_lateral_per_h REAL,
                  continuous_comfort_5s TEXT
                );
                """)
    }

    /// A stage that failed on one ingested file (its content hash and the stage's key, such as
    /// the model, when it failed): the file is set aside for that stage, listed in
    /// `quarantine.csv`, and not tried again until its content or the key changes.
    static func v5StageFailures(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE stage_failures (
                  file_id INTEGER NOT NULL REFERENCES input_files(id) ON DELETE CASCADE,
                  stage TEXT NOT NULL,
                  sha256 TEXT NOT NULL,
                  code TEXT NOT NULL,
                  reason TEXT NOT NULL,
                  run_id INTEGER REFERENCES runs(id),
                  failed_unix_s REAL NOT NULL,
                  PRIMARY KEY (file_id, stage)
                );
                """)
    }

    /// The user's `--columns` mapping a file was read with (`ColumnMappingSpec.text`), so that
    /// every later stage and re-run reads it the same way; NULL for recognised formats.
    /// `file_signature`: size, modification time and inode (`FileSignature`), so a re-run can
    /// call an input unchanged without hashing it; NULL for rows written before it existed.
    static func v9FileSignature(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE input_files ADD COLUMN file_signature TEXT")
    }

    /// Each device's unfiltered counts per heat-map cell, kept only when asked for
    /// (`pipeline heatmap --keep-device-cells`) so that runs over disjoint parts of a data set
    /// can be merged: a cell's distinct persons are counted over every part before k is
    /// applied. Never written to a file: one device's cells are its trace.
    static func v10HeatMapDeviceCells(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE heatmap_device_cells (
                  map TEXT NOT NULL,
                  cell_id TEXT NOT NULL,
                  device TEXT NOT NULL,
                  fixes INTEGER NOT NULL,
                  dwell_s REAL NOT NULL,
                  PRIMARY KEY (map, cell_id, device)
                ) WITHOUT ROWID
                """)
    }

    /// Who recorded each input and where its names came from: `person` (the participant; the
    /// device itself when nothing names one), `device_source` (`manifest`, `name_pattern`,
    /// `folder`, `file_name`), `person_source` (`manifest`, `name_pattern`, `device`), and
    /// `relative_path`, the path below the folder given to the run, which outputs show (so a
    /// moved input folder gives the same files). Heat maps count distinct persons, the count k
    /// applies to (`persons`, and `person` in each device's merge cells).
    static func v11Identity(_ db: Database) throws {
        for column in ["person TEXT", "device_source TEXT", "person_source TEXT", "relative_path TEXT"] {
            try db.execute(sql: "ALTER TABLE input_files ADD COLUMN " + column)
        }
        try db.execute(sql: "CREATE INDEX input_files_sha256 ON input_files(content_sha256)")
        try db.execute(sql: "ALTER TABLE heatmap_cells ADD COLUMN persons INTEGER NOT NULL DEFAULT 0")
        try db.execute(sql: "ALTER TABLE heatmap_device_cells ADD COLUMN person TEXT")
        // Devices and persons removed by `pipeline forget`: their inputs are never read again
        // while they are listed, and rows naming them (check-ins, labels) are dropped.
        try db.execute(
            sql: """
                CREATE TABLE forgotten (
                  kind TEXT NOT NULL CHECK (kind IN ('device', 'person')),
                  name TEXT NOT NULL,
                  forgotten_unix_s REAL NOT NULL,
                  PRIMARY KEY (kind, name)
                ) WITHOUT ROWID
                """)
    }

    static func v6ColumnMapping(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE input_files ADD COLUMN column_mapping TEXT")
    }

    /// How regularly each IMU stream was sampled (`StreamTiming`): the rate from the median
    /// interval, gaps, repeated values and the rate the sensor really measured at, clock jumps.
    static func v7StreamTiming(_ db: Database) throws {
        for column in [
            "effective_rate_hz REAL", "gaps INTEGER NOT NULL DEFAULT 0", "longest_gap_s REAL NOT NULL DEFAULT 0",
            "gap_s REAL NOT NULL DEFAULT 0", "repeated_samples INTEGER NOT NULL DEFAULT 0", "repeat_factor INTEGER",
            "real_rate_hz REAL", "clock_jumps INTEGER NOT NULL DEFAULT 0"
        ] {
            try db.execute(sql: "ALTER TABLE imu_streams ADD COLUMN " + column)
        }
        // Why classifying a file gave no window (or what it could not compute), so every file's
        // outcome is said, never silently nothing.
        try db.execute(sql: "ALTER TABLE classified_files ADD COLUMN note TEXT")
    }

    /// Rides from recordings without a check-in (no train, no stations), what the data covered,
    /// N_MV's coverage and the EN 12299 continuous comfort per axis; each ride's stops and events.
    /// The comfort stage rebuilds rides whole on every run, so the old table is replaced, not copied.
    static func v8RecordingRides(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TABLE rides;
                CREATE TABLE rides (
                  id INTEGER PRIMARY KEY,
                  checkin_id INTEGER REFERENCES checkins(id) ON DELETE CASCADE,
                  source TEXT NOT NULL CHECK (source IN ('checkin', 'recording')),
                  device TEXT NOT NULL,
                  trace TEXT NOT NULL,
                  train TEXT,
                  from_station TEXT,
                  to_station TEXT,
                  status TEXT NOT NULL CHECK (status IN ('measured', 'no_imu', 'no_data', 'unusable_imu')),
                  note TEXT,
                  started_unix_s REAL NOT NULL,
                  finished_unix_s REAL NOT NULL,
                  covered_s REAL,
                  departure_unix_s REAL,
                  arrival_unix_s REAL,
                  departure_delay_s REAL,
                  arrival_delay_s REAL,
                  imu_rate_hz REAL,
                  vertical TEXT,
                  rms_x REAL, rms_y REAL, rms_z REAL, a_v REAL,
                  mtvv_x REAL, mtvv_y REAL, mtvv_z REAL,
                  vdv_x REAL, vdv_y REAL, vdv_z REAL,
                  crest_x REAL, crest_y REAL, crest_z REAL,
                  comfort_band TEXT,
                  nmv REAL,
                  nmv_class TEXT,
                  nmv_partial INTEGER,
                  nmv_minutes REAL,
                  jerks_longitudinal_per_h REAL,
                  jerks_lateral_per_h REAL,
                  continuous_comfort_5s TEXT,
                  cc_x_5s TEXT, cc_y_5s TEXT, cc_z_5s TEXT
                );
                CREATE TABLE ride_stops (
                  ride_id INTEGER NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
                  start_unix_s REAL NOT NULL,
                  end_unix_s REAL NOT NULL
                );
                CREATE TABLE ride_events (
                  ride_id INTEGER NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
                  kind TEXT NOT NULL CHECK (kind IN ('acceleration', 'jerk')),
                  axis TEXT NOT NULL CHECK (axis IN ('longitudinal', 'lateral')),
                  direction TEXT NOT NULL,
                  start_unix_s REAL NOT NULL,
                  end_unix_s REAL NOT NULL,
                  peak_acceleration_mps2 REAL NOT NULL,
                  peak_jerk_mps3 REAL NOT NULL
                );
                """)
    }
}
