import Foundation
import Comfort
import Features
import HeatMaps
import MobilityCore
import Publication
import Trips

/// Every published CSV file's columns, in order, with their types: the one list the writers
/// take their headers from, the GeoPackage its column types from (`GeoPackageLayers`), and the
/// schema page, docs/output-schema.md, is generated from (`pipeline schema`, checked by a test).
///
/// The conventions (docs/output-schema.md):
/// - a time is ISO 8601 UTC with milliseconds on every row (`…_at`), beside its Unix seconds
///   (`…_unix_s`); an interval is `started_at` / `finished_at`;
/// - units are in the names (`_s`, `_m`, `_mps`, `_deg`, `_h` …), unitless shares in 0–1;
/// - no column is named after an SQL keyword or a pandas `DataFrame` attribute (`map`, `mode`,
///   `key`, `end`, `column` are not), so `df.heat_map` and unquoted SQL both work;
/// - a file's columns never depend on the data: a mode that did not occur has its columns, zero;
/// - `trace` is the input's path below the folder given to the run.
public struct OutputSchema: Sendable {
    public var file: String
    public var about: String
    public var columns: [Column]

    public var names: [String] { columns.map(\.name) }

    public struct Column: Sendable, Equatable {
        public var name: String
        public var type: ColumnType
        public var unit: String { Self.unit(of: name, type: type) }
        /// The rows whose id this column holds (`staypoints` for `staypoint_id`,
        /// `origin_staypoint_id` …): the ids a distributed run renumbers into the data set's
        /// (spark/pipeline_spark/renumber.py reads them from `pipeline schema --json`). Nil for
        /// every other column.
        public var idOf: String? { Self.identified.first { name == $0.0 + "_id" || name.hasSuffix("_" + $0.0 + "_id") }?.1 }

        /// What an id names: the rows a run numbers (in device order, then time order;
        /// `TripIdentifiers`), and rides, numbered check-ins first.
        static let identified = [
            ("staypoint", "staypoints"), ("location", "locations"), ("tripleg", "triplegs"), ("trip", "trips"), ("dwell", "dwells"),
            ("ride", "rides")
        ]

        /// The unit a name's suffix gives (`STYLE.md`: units in names).
        static func unit(of name: String, type: ColumnType) -> String {
            if type == .datetime { return "ISO 8601 UTC" }
            if type == .boolean || type == .text { return "" }
            let suffixes: [(String, String)] = [
                ("co2e_g", "g CO2e"), ("co2e_kg", "kg CO2e"), ("co2e_g_per_person_day", "g CO2e per person-day"),
                ("co2e_kg_weighted", "kg CO2e per average day"), ("co2e_kg_per_week", "kg CO2e per week"),
                ("energy_mj", "MJ"), ("energy_mj_per_person_day", "MJ per person-day"), ("energy_mj_weighted", "MJ per average day"),
                ("energy_mj_per_week", "MJ per week"),
                ("_unix_s", "s since 1970-01-01 UTC"), ("_mps175", "m/s^1.75"), ("_mps3", "m/s³"), ("_mps2", "m/s²"), ("_mps", "m/s"),
                ("_radps", "rad/s"), ("_deg_per_s", "degrees/s"), ("_per_h", "1/h"), ("_deg", "degrees"), ("_hz", "Hz"), ("_db", "dB"),
                ("_db_mean", "dB"), ("_s", "s"), ("_m", "m"), ("_h", "h"),
                ("_share", "0–1"), ("_probability", "0–1"), ("_fraction", "0–1")
            ]
            if name.hasPrefix("share_") || name.hasPrefix("gps_p_") { return "0–1" }
            if ["lat", "lon"].contains(name) || name.hasSuffix("_lat") || name.hasSuffix("_lon") { return "degrees (WGS 84)" }
            return suffixes.first { name.hasSuffix($0.0) }?.1 ?? ""
        }
    }

    /// SQLite's storage classes as GeoPackage names them (OGC 12-128r18, table 1), and how
    /// the CSV text reads: `boolean` is `true`/`false`, `datetime` `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public enum ColumnType: String, Sendable {
        case integer, real, text, boolean, datetime

        public var geoPackage: String {
            switch self {
            case .integer: "INTEGER"
            case .real: "REAL"
            case .text: "TEXT"
            case .boolean: "BOOLEAN"
            case .datetime: "DATETIME"
            }
        }
    }

    /// `"name type, name type, …"`, types as `ColumnType` spells them.
    init(_ file: String, _ about: String, _ spec: String, _ more: [Column] = []) {
        self.file = file
        self.about = about
        columns =
            spec.split(separator: ",").map { entry in
                let parts = entry.split(separator: " ")
                precondition(parts.count == 2, "OutputSchema: \(file): \"\(entry)\" is not \"name type\"")
                return Column(name: String(parts[0]), type: ColumnType(rawValue: String(parts[1]))!)
            } + more
    }

    func with(_ more: [Column]) -> OutputSchema { var copy = self; copy.columns += more; return copy }

    static func columns(_ names: [String], _ type: ColumnType) -> [Column] { names.map { Column(name: $0, type: type) } }

    /// An interval: `started_at, started_unix_s, finished_at, finished_unix_s`.
    static let interval = "started_at datetime, started_unix_s real, finished_at datetime, finished_unix_s real"

    /// The modes every per-mode column set covers, whatever occurred: `Mode`'s cases and
    /// "unknown" (a leg no evidence decided).
    public static let modeNames = Mode.allCases.map(\.rawValue) + [unknownModeName]

    /// The modes of a published table that recodes the modes fewer than k persons used
    /// (`ModeRecoding`): `modeNames` and `other`.
    public static let publishedModeNames = modeNames + [ModeRecoding.other]

    // MARK: The files of `pipeline run`

    public static let modes = OutputSchema(
        "modes.csv",
        "The mode of every IMU window, smoothed and raw (`label_mode`: the label's, from `pipeline classify` on labelled data).",
        "trace text, device text, \(interval), travel_mode text, raw_mode text, raw_probability real, decided_by text, label_mode text")

    public static let staypoints = OutputSchema(
        "staypoints.csv",
        "Where a device stayed: `kind` sliding, trackintel's staypoints (its semantics); `kind` gap, a recording gap of 5 minutes to 24 hours that began and ended within the staypoint radius (docs/trips.md).",
        "staypoint_id integer, device text, \(interval), duration_s real, lat real, lon real, fixes integer, is_open boolean, "
            + "is_activity boolean, location_id integer, geofence_id text, purpose text, kind text")

    public static let dwells = OutputSchema(
        "dwells.csv", "Each stay inside a named geofence, from entry to exit.",
        "dwell_id integer, device text, geofence_id text, geofence_name text, geofence_kind text, \(interval), duration_s real, "
            + "fixes integer, closed_by text, longest_gap_s real, lat real, lon real")

    public static let locations = OutputSchema(
        "locations.csv", "Places a device (or, with scope dataset, anyone) stayed at repeatedly.",
        "location_id integer, device text, number integer, lat real, lon real, staypoints integer, devices integer, total_stay_s real, "
            + "purpose text, purpose_method text, purpose_score real")

    /// A leg's evidence columns (`TripTables.evidence`).
    public static let gpsLegModes: [Mode] = [.walk, .bike, .car, .bus, .train]

    public static let triplegs = OutputSchema(
        "triplegs.csv", "Each leg between staypoints, with its mode and the evidence for it.",
        "tripleg_id integer, trip_id integer, device text, \(interval), duration_s real, distance_m real, speed_mps real, travel_mode text, "
            + "mode_source text, mode_note text, co2e_g real, energy_mj real, start_country text, fixes integer, previous_staypoint_id integer, next_staypoint_id integer, imu_share real, imu_mode text, "
            + "imu_mode_share real",
        columns(gpsLegModes.map { "gps_p_\($0.rawValue)" }, .real)
            + OutputSchema(
                "", "",
                "rail_corridor_share real, bus_corridor_share real, rail_stops_passed integer, bus_stops_passed integer, "
                    + "rail_stops_stopped_at integer, bus_stops_stopped_at integer, stop_places integer, start_rail_stop_m real, end_rail_stop_m real, "
                    + "start_bus_stop_m real, end_bus_stop_m real, longest_gap_s real, "
                    + "transit_feed text, transit_agency text, transit_route_id text, transit_route_name text, transit_route_type text, "
                    + "transit_direction integer, board_stop_id text, board_stop_name text, board_stop_m real, alight_stop_id text, "
                    + "alight_stop_name text, alight_stop_m real, transit_station_stops integer, transit_line_score real, "
                    + "transit_line_note text, transit_trip_id text, transit_service_date text, scheduled_departure text, "
                    + "scheduled_arrival text, departure_delay_s real, arrival_delay_s real, timetable_note text"
            ).columns)

    public static let trips = OutputSchema(
        "trips.csv", "Each trip between two activities, with its legs' modes.",
        "trip_id integer, device text, \(interval), duration_s real, distance_m real, main_mode text, legs integer, leg_modes text, co2e_g real, energy_mj real, "
            + "origin_staypoint_id integer, destination_staypoint_id integer, origin_location_id integer, destination_location_id integer, "
            + "origin_geofence_id text, origin_geofence_name text, destination_geofence_id text, destination_geofence_name text, "
            + "origin_purpose text, destination_purpose text, trip_purpose text, origin_kind text, destination_kind text, "
            + "origin_lat real, origin_lon real, destination_lat real, destination_lon real")

    public static let odMatrix = OutputSchema(
        "od_matrix.csv",
        "Trips between geofences (\"(no geofence)\" where an end lies in none; no rows when no geofence was given), over the whole day (`all_day`) and per time band of the departure on the local clock (planning.time_bands), with each main mode's share (the modes fewer than k persons used, over all trips, together as `other`). A row made by fewer than k persons is suppressed, and so is a share fewer than k persons made (empty; 0 is no trip of the mode), with the rows and shares that would give either away by subtraction, in this table or with modal_split.csv (one audit of both).",
        "time_band text, origin_geofence_id text, origin_name text, destination_geofence_id text, destination_name text, trips integer, devices integer, "
            + "persons integer, median_duration_s real, median_distance_m real", columns(publishedModeNames.map { "share_\($0)" }, .real))

    public static let odGrid = OutputSchema(
        "od_grid.csv",
        "Trips between cells of the global grid (heatmap.od_cell_meters, 1 km by default), from a trip's origin to its destination (its activity staypoints, else its first or last fix: trips.csv origin_kind, destination_kind); a pair made by fewer than k persons is tried again on cells twice the size, up to heatmap.od_coarser_levels times (8 km by default), each trip in one row at most (`cell_m` says which size), and suppressed where none reaches k. Each row gives each main mode's share (the modes fewer than k persons used, over the table's trips, together as `other`); a share fewer than k persons made is left out (empty; 0 is no trip of the mode), with a second where the row's trips would give the first away or bound it closer than ±k trips (in a row of few trips, the whole pair).",
        "cell_m integer, origin_cell_id text, origin_center_lat_deg real, origin_center_lon_deg real, destination_cell_id text, destination_center_lat_deg real, "
            + "destination_center_lon_deg real, trips integer, devices integer, persons integer, median_duration_s real, median_distance_m real",
        columns(publishedModeNames.map { "share_\($0)" }, .real))

    public static let odZones = OutputSchema(
        "od_zones.csv",
        "Trips between the zones of a planner's layer (--zones, planning.zones), over the whole day (`all_day`) and per time band of the departure on the local clock (planning.time_bands: am_peak 07:00-10:00, pm_peak 16:00-19:00, off_peak by default), from a trip's origin to its destination (its activity staypoints, else its first or last fix: trips.csv origin_kind, destination_kind), of the trips of valid person-days (person_days.minimum_coverage); with --population, `trips_weighted` expands them to the population's average day. Each row gives each main mode's share (the modes fewer than k persons used, over the table's trips, together as `other`). A row made by fewer than k persons (unweighted) is suppressed, and so is a share fewer than k persons made (empty; 0 is no trip of the mode), with the rows and shares that would give either away by subtraction (a pair's band rows add up to its all_day row, a row's modes to its trips).",
        "time_band text, origin_zone_id text, origin_zone_name text, destination_zone_id text, destination_zone_name text, "
            + "origin_center_lat_deg real, origin_center_lon_deg real, destination_center_lat_deg real, destination_center_lon_deg real, "
            + "trips integer, devices integer, persons integer, median_duration_s real, median_distance_m real, trips_weighted real",
        columns(publishedModeNames.map { "share_\($0)" }, .real))

    public static let modeShares = OutputSchema(
        "mode_shares.csv",
        "Each main mode's share of trips over the whole day (`all_day`) and per time band of the departure (planning.time_bands), with its 95 % interval from a bootstrap over persons (1,000 replicates); with --confusion, the share corrected for the classifier's measured confusion (EM, Saerens et al. 2002) with its interval, and what the matrix was measured on (`correction`). Of the trips of valid person-days; with --population, `trips_weighted` and `share_weighted` expand them to the population's average day. A row fewer than k persons made (unweighted), and any row that would give it away by subtraction, is left out (shares are of every trip counted).",
        "time_band text, travel_mode text, trips integer, persons integer, trip_share real, trip_share_low95 real, trip_share_high95 real, "
            + "corrected_share real, corrected_low95 real, corrected_high95 real, trips_weighted real, share_weighted real, correction text"
    )

    public static let punctuality = OutputSchema(
        "punctuality.csv",
        "With --transit: per line (feed, agency, GTFS `route_id` and name, `route_type`), direction (`direction_id`) and time band of the scheduled departure from the boarding stop (`all_day` beside the bands), of the rides matched to a scheduled trip whose arrival at the stop they alighted at was seen: persons, rides, the median departure and arrival delays (observed − scheduled, seconds) and the share of rides on time (by default arriving at most 5 min late, the European railways' punctuality; the configuration's transit.on_time_early_seconds and on_time_late_seconds, or --on-time-early-s and --on-time-late-s, set the window, which the columns on_time_early_s and on_time_late_s repeat). A ride counts when its leg's travel_mode is the mode its line names. A row fewer than k persons made, and any row that would give it away by subtraction, is left out; so is an on-time share whose on-time or late rides fewer than k persons made (empty). Header only without a feed or a matched ride.",
        "feed text, agency text, route_id text, route_name text, route_type text, direction integer, time_band text, persons integer, "
            + "rides integer, median_departure_delay_s real, median_arrival_delay_s real, on_time_share real, on_time_early_s real, "
            + "on_time_late_s real")

    public static let review = OutputSchema(
        "review.csv",
        "Per person, the legs the pipeline was least sure of (at most 5), to ask them about: legs no source named, only known as a vehicle or named by the speed rules first, then the lowest certainty (the GPS leg model's probability of its mode, or the share of IMU windows that agree). Their answers go to corrections.csv (--corrections).",
        "person text, device text, tripleg_id integer, trip_id integer, \(interval), duration_s real, "
            + "distance_m real, travel_mode text, mode_source text, certainty real, why text")

    public static let personWeights = OutputSchema(
        "person_weights.csv",
        "With --population: each person's expansion weight to the population (home zone, raked to the margins; docs/planning.md), their valid person-days and the weight per valid day that expands their trips to an average day; the reason where a person has none, and where the weight is implausible (over 5 times the median weight, or alone over half the represented residents) by how much.",
        "person text, home_zone_id text, valid_days integer, weight real, daily_weight real, unweighted_reason text, implausible_weight text"
    )

    public static let co2e = OutputSchema(
        "co2e.csv",
        "CO2e of the trips of valid person-days per home zone (with --zones; `all` is every person, `(no zone)` those whose home is in none) and main mode (`all` is every mode), from the factors of planning.emission_factors (the UK's DESNZ 2025 by default; the report names them): trips, distance and CO2e, per valid person-day of the zone's residents and, with --population, expanded to the population's average day. A trip's CO2e is its legs' and counts to its main mode; a trip with a `vehicle` or unknown leg has none and is counted in trips_without_factor. The same for final energy in MJ where the table gives energy factors (megajoules_per_km; the default gives none, so the energy columns are empty). A row fewer than k persons made (unweighted), and any row that would give it away by subtraction, is left out; a distance, CO2e or energy (weighted or not) of which two persons make over 85 % is empty, and so is any that would give it away, while the row's trips and persons stand.",
        "home_zone_id text, home_zone_name text, travel_mode text, persons integer, trips integer, distance_m real, co2e_kg real, trips_without_factor integer, "
            + "person_days integer, co2e_g_per_person_day real, co2e_kg_weighted real, energy_mj real, trips_without_energy integer, "
            + "energy_mj_per_person_day real, energy_mj_weighted real")

    public static let personCO2e = OutputSchema(
        "person_co2e.csv",
        "Per person: the trips of their valid person-days, their distance and CO2e (planning.emission_factors), and the CO2e per week (per valid person-day times 7); trips with a `vehicle` or unknown leg have none and are counted. The same for final energy in MJ where the table gives energy factors.",
        "person text, valid_days integer, trips integer, distance_m real, co2e_kg real, trips_without_factor integer, co2e_kg_per_week real, "
            + "energy_mj real, trips_without_energy integer, energy_mj_per_week real"
    )

    public static let modalSplit = OutputSchema(
        "modal_split.csv",
        "Each mode's share of trips, distance and time, overall, by local hour, weekday and time band (planning.time_bands; each person's zone) and by trip purpose (HBW, HBO, NHB, unknown); a row fewer than k persons made, and any row that would give it away by subtraction, is left out (shares are of the whole group); a row's distance and time (and their shares) are empty where two persons make more than 85 % of either, or of its group's whole, and where they would give such a value away (dominance rule; the row's trips stand).",
        "dimension text, dimension_value text, travel_mode text, trips integer, persons integer, trip_share real, distance_m real, distance_share real, "
            + "duration_s real, duration_share real")

    public static let deviceStats = OutputSchema(
        "device_stats.csv", "Per device: what it recorded and how it travelled.",
        "device text, fixes integer, first_fix_at datetime, first_fix_unix_s real, last_fix_at datetime, last_fix_unix_s real, "
            + "days_observed integer, staypoints integer, dwells integer, trips integer, distance_m real, hours_in_motion real",
        columns(modeNames.map { "time_\($0)_h" } + modeNames.map { "distance_\($0)_m" } + modeNames.map { "weekly_\($0)_h" }, .real))

    public static let personDays = OutputSchema(
        "person_days.csv",
        "Per person and local date (in the person's zone, daylight saving applied): how much of the day their staypoints and legs cover, and whether that is enough for the day to count (valid).",
        "person text, local_date text, time_zone text, started_at datetime, started_unix_s real, finished_at datetime, finished_unix_s real, "
            + "day_s real, tracked_s real, untracked_s real, tracked_share real, fixes integer, imu_minutes real, valid boolean")

    public static let untracked = OutputSchema(
        "untracked.csv",
        "Each time within a person-day that no staypoint or leg covers: where the phone recorded nothing the stages could use.",
        "person text, local_date text, started_at datetime, started_unix_s real, finished_at datetime, finished_unix_s real, duration_s real"
    )

    public static let tours = OutputSchema(
        "tours.csv",
        "Each tour: a device's consecutive trips that leave a location and come back to it within a day (trackintel's generate_tours), with its anchor's purpose, kind and main mode.",
        "person text, device text, first_trip_id integer, last_trip_id integer, trips integer, \(interval), duration_s real, distance_m real, "
            + "anchor_staypoint_id integer, anchor_purpose text, home_based boolean, tour_purpose text, tour_kind text, main_mode text")

    public static let heatMap = OutputSchema(
        "heatmap.csv", "Every heat map's published cells (seen by k persons or more): all modes, then each mode.",
        "heat_map text, cell_id text, center_lat_deg real, center_lon_deg real, south_deg real, west_deg real, north_deg real, east_deg real, "
            + "fixes integer, devices integer, persons integer, dwell_s real")

    public static let quarantine = OutputSchema(
        "quarantine.csv", "Every input set aside, with where and why, and the stage that did.",
        "path text, format text, line_number integer, column_number integer, code text, reason text, content_sha256 text, "
            + "run_started_at datetime, run_started_unix_s real, stage text")

    public static let rides = OutputSchema(
        "rides.csv", "Each train ride (check-in or recording) with its punctuality and comfort (ISO 2631-1, EN 12299).",
        "ride_id integer, device text, train text, from_station text, to_station text, status text",
        timeColumns("checkin") + timeColumns("started") + timeColumns("finished") + [Column(name: "duration_s", type: .real)]
            + timeColumns("scheduled_departure") + timeColumns("departure") + [Column(name: "departure_delay_s", type: .real)]
            + timeColumns("scheduled_arrival") + timeColumns("arrival") + [
                Column(name: "arrival_delay_s", type: .real), Column(name: "imu_rate_hz", type: .real)
            ]
            + OutputSchema(
                "", "",
                "rms_x_mps2 real, rms_y_mps2 real, rms_z_mps2 real, a_v_mps2 real, mtvv_x_mps2 real, mtvv_y_mps2 real, "
                    + "mtvv_z_mps2 real, vdv_x_mps175 real, vdv_y_mps175 real, vdv_z_mps175 real, crest_x real, crest_y real, crest_z real, "
                    + "comfort_band text, nmv real, nmv_class text, jerks_longitudinal_per_h real, jerks_lateral_per_h real"
            ).columns
            + columns(ComfortSummary.ratingNames, .integer)
            + OutputSchema(
                "", "",
                "noise_db real, comment text, source_line integer, source text, trace text, covered_s real, vertical text, "
                    + "nmv_partial boolean, nmv_minutes real, stops integer, acceleration_events integer, jerk_events integer, "
                    + "cc_x_5s_mps2 text, cc_y_5s_mps2 text, cc_z_5s_mps2 text, note text"
            ).columns)

    static func timeColumns(_ stem: String) -> [Column] {
        [Column(name: stem + "_at", type: .datetime), Column(name: stem + "_unix_s", type: .real)]
    }

    public static let stops = OutputSchema(
        "stops.csv", "Each stop of each ride.",
        "device text, trace text, \(interval), duration_s real, ride_id integer")

    public static let events = OutputSchema(
        "events.csv", "Each braking, pull-away, curve and jerk of each ride.",
        "device text, trace text, \(interval), kind text, axis text, direction text, peak_acceleration_mps2 real, peak_jerk_mps3 real, ride_id integer"
    )

    static func comfortSummary(_ file: String, _ about: String, keys: String) -> OutputSchema {
        OutputSchema(
            file, about,
            keys + ", rides integer, measured_rides integer, devices integer, persons integer, nmv_median real, nmv_p95 real, "
                + "a_v_median_mps2 real, a_v_p95_mps2 real",
            columns(NMVClass.allCases.map { "share_" + $0.rawValue.replacingOccurrences(of: " ", with: "_") }, .real)
                + ComfortSummary.ratingNames.flatMap { [Column(name: $0 + "_mean", type: .real), Column(name: $0 + "_n", type: .integer)] }
                + OutputSchema(
                    "", "",
                    "noise_db_mean real, departure_delay_median_s real, departure_delay_p90_s real, arrival_delay_median_s real, "
                        + "arrival_delay_p90_s real"
                ).columns)
    }

    public static let trainComfort = comfortSummary("train_comfort.csv", "Comfort and punctuality per train number.", keys: "train text")
    public static let routeComfort = comfortSummary(
        "route_comfort.csv", "Comfort and punctuality per route (from → to).",
        keys: "from_station text, to_station text")

    /// Every CSV file `pipeline run` writes, in the order of the schema page.
    public static let runFiles: [OutputSchema] = [
        modes, staypoints, dwells, locations, triplegs, trips, odMatrix, odGrid, odZones, modeShares, modalSplit, deviceStats, personDays,
        untracked, tours, personWeights, review, co2e, personCO2e, punctuality,
        heatMap, rides, stops, events, trainComfort, routeComfort, quarantine
    ]

    /// The CSVs of the per-device tables (a row per window, staypoint, dwell, leg, trip, ride,
    /// stop, event): what a distributed run writes as Parquet, and as CSV only with `--csv`
    /// (spark/README.md). Every other file of `runFiles` is published by both.
    public static let perDeviceTables: [OutputSchema] = [modes, staypoints, dwells, triplegs, trips, rides, stops, events]

    /// Whether this file is one of `perDeviceTables`.
    public var isPerDeviceTable: Bool { Self.perDeviceTables.contains { $0.file == file } }

    // MARK: Other commands' files

    public static let features = OutputSchema(
        "features.csv", "`pipeline features`: every window's features (units in the names).",
        "trace text, device text, \(interval), label text, label_mode text", columns(FeatureSchema.names, .real))

    // MARK: The travel diary (`pipeline export --format diary`)

    public static let diaryPersons = OutputSchema(
        "persons.csv",
        "Diary: each person, their devices, days and home and work, and seed statistics over their valid days (weekly hours per mode = mean valid day × 7). weight is the person's expansion weight from the last run or publish with --population (person_weights.csv), empty without one.",
        "person text, devices integer, time_zone text, days integer, valid_days integer, home_location_id integer, home_lat real, "
            + "home_lon real, work_location_id integer, work_lat real, work_lon real, weight real, mean_daily_in_motion_h real",
        columns(modeNames.map { "weekly_\($0)_h" }, .real))

    public static let diaryDays = OutputSchema(
        "days.csv",
        "Diary: each person-day (person_days.csv) with its counts and the time on each leg mode within it, minutes (legs cut at local midnight).",
        "person text, local_date text, time_zone text, started_at datetime, started_unix_s real, finished_at datetime, finished_unix_s real, "
            + "day_s real, tracked_s real, untracked_s real, tracked_share real, valid boolean, fixes integer, imu_minutes real, "
            + "activities integer, trips integer, in_motion_h real",
        columns(modeNames.map { "time_\($0)_min" }, .real))

    public static let diaryActivities = OutputSchema(
        "activities.csv",
        "Diary: each stretch of a person-day not spent travelling: an activity (a staypoint that ends and starts trips), a stay outside any trip, or untracked time. With trips.csv it tiles the day: the durations of a day's rows in both add up to its day_s.",
        "person text, local_date text, episode integer, kind text, started_at datetime, started_unix_s real, finished_at datetime, "
            + "finished_unix_s real, duration_s real, device text, staypoint_id integer, location_id integer, purpose text, lat real, lon real"
    )

    public static let diaryTrips = OutputSchema(
        "trips.csv",
        "Diary: each trip (kind trip) or leg outside any trip (kind travel) within a person-day, cut at its bounds, with its purpose and main mode.",
        "person text, local_date text, episode integer, kind text, started_at datetime, started_unix_s real, finished_at datetime, "
            + "finished_unix_s real, duration_s real, device text, trip_id integer, tripleg_id integer, trip_purpose text, "
            + "origin_purpose text, destination_purpose text, travel_mode text, distance_m real")

    public static let diaryLegs = OutputSchema(
        "legs.csv", "Diary: each leg, on the local date it starts, with its trip and mode.",
        "person text, local_date text, tripleg_id integer, trip_id integer, device text, started_at datetime, started_unix_s real, "
            + "finished_at datetime, finished_unix_s real, duration_s real, distance_m real, travel_mode text, mode_source text")

    /// The diary's files, in the order they are documented.
    public static let diaryFiles = [diaryPersons, diaryDays, diaryActivities, diaryTrips, diaryLegs]

    // MARK: A distributed run's partial groups

    /// What each part of a distributed run writes of the tables that cross devices, before
    /// the merge (`OUT/part-tables/partials/<name>.jsonl`, `PartialTable`; never published):
    /// each column with how the reducer merges it over the parts. The reduced table has the
    /// same columns, merged (`pipeline publish --reduced`, `ReducedTables`).
    public static let partialTables: [PartialTable] = [
        HeatMapPartials.mapSchema, HeatMapPartials.cellSchema, ODGroup.partialSchema, ODGroup.modePartialSchema, ModalTotal.partialSchema,
        ComfortGroup.partialSchema(byRoute: false), ComfortGroup.partialSchema(byRoute: true)
    ]

    /// Where a part's partial table lies below the part's output folder.
    public static func path(of partial: PartialTable) -> String { "part-tables/\(PartialTable.folderName)/\(partial.fileName)" }

    public static func named(_ file: String) -> OutputSchema? { (runFiles + [features]).first { $0.file == file } }
}

extension OutputSchema {
    /// This file as published in `folder`, refused when missing or when its header is not the
    /// schema's (a file of an older version).
    public func read(in folder: String) throws -> CSVTable {
        let path = (folder as NSString).appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(
                .missingOutput,
                "\(path) is missing: the GeoPackage and od_grid.csv are built from the run's CSV files; run `pipeline run` again",
                at: .init(path: path))
        }
        let table = try CSVTable.read(path: path)
        guard table.columns == names else {
            throw PipelineError(
                .malformedTable, path: path, line: 1,
                reason: "its columns are not those of this version's \(file) (docs/output-schema.md)")
        }
        return table
    }

    /// The index of a column of this schema (a programming error when it has none).
    public func index(_ column: String) -> Int {
        guard let index = names.firstIndex(of: column) else { preconditionFailure("\(file) has no column \(column)") }
        return index
    }

    /// The schema page (docs/output-schema.md): every file's columns with type and unit (`pipeline schema`).
    public static func markdown() -> String {
        var page = ""
        for schema in runFiles + [features] {
            page += "#### `\(schema.file)`\n\n\(schema.about)\n\n| column | type | unit |\n|---|---|---|\n"
            for column in schema.columns { page += "| `\(column.name)` | \(column.type.rawValue) | \(column.unit) |\n" }
            page += "\n"
        }
        page += """
            ### The travel diary

            `pipeline export --format diary --out DIR` writes these CSVs and `diary.gpkg` (the same tables as layers; \
            activities with their points), from a run's store (docs/person-days.md). They identify people: keep them \
            with the restricted tables.


            """
        for schema in diaryFiles {
            page += "#### `\(schema.file)` (diary)\n\n\(schema.about)\n\n| column | type | unit |\n|---|---|---|\n"
            for column in schema.columns { page += "| `\(column.name)` | \(column.type.rawValue) | \(column.unit) |\n" }
            page += "\n"
        }
        page += """
            ### A distributed run's partial groups

            What each part of a distributed run writes of the tables that cross devices (`part-tables/partials/`, JSON \
            lines: the column names, then one array per group), and how the merge combines each column's values of one \
            group over the parts (docs/distributed.md). Never published.


            """
        for partial in partialTables {
            page += "#### `\(partial.fileName)`\n\n| column | merge | how |\n|---|---|---|\n"
            for column in partial.columns { page += "| `\(column.name)` | \(column.merge.rawValue) | \(column.merge.about) |\n" }
            page += "\n"
        }
        return page
    }
}
