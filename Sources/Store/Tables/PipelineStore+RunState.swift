import Foundation
import GRDB
import MobilityCore

extension PipelineStore {
    /// An ingested file with IMU data, as the classification stage sees it.
    public struct ClassifiableFile: Sendable {
        public var id: Int64
        public var path: String
        public var sha256: String
        public var device: String
        /// The user's column mapping it was ingested with (`ColumnMappingSpec.text`), if any.
        public var columnMapping: String?
    }

    /// Ingested files with IMU samples whose stored windows were not made from their current
    /// content with `model` (new, changed, or classified with another model).
    public func filesToClassify(model: String) throws -> [ClassifiableFile] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.id, i.path, i.content_sha256, COALESCE(i.device, i.path), i.column_mapping FROM input_files i
                    LEFT JOIN classified_files c ON c.file_id = i.id AND c.sha256 = i.content_sha256 AND c.model = ?
                    WHERE i.status = 'ingested' AND i.imu_samples > 0 AND c.file_id IS NULL
                    ORDER BY i.path
                    """, arguments: [model]
            ).map {
                ClassifiableFile(id: $0[0], path: $0[1], sha256: $0[2], device: $0[3], columnMapping: $0[4])
            }
        }
    }

    /// Sets a file aside for the `classify` stage after it failed on it: its windows are
    /// removed and it is marked done for `model` with none, so the next run does not fail on it
    /// again (a poison pill), until its content or the model changes; the failure shows in
    /// `quarantinedFiles()` with its reason.
    public func recordClassifyFailure(_ file: ClassifiableFile, code: String, reason: String, model: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM mode_windows WHERE trace = ?", arguments: [file.path])
            try db.execute(
                sql: "INSERT OR REPLACE INTO classified_files (file_id, sha256, model, windows) VALUES (?, ?, ?, 0)",
                arguments: [file.id, file.sha256, model])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO stage_failures (file_id, stage, sha256, code, reason, failed_unix_s) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [file.id, "classify", file.sha256, code, reason, Date().timeIntervalSince1970])
        }
    }

    /// Records that `stage` could not read the ingested file at `path` (a stage rebuilt whole
    /// each run, such as `comfort`, which clears its failures first with `clearStageFailures`).
    public func recordStageFailure(path: String, stage: String, code: String, reason: String) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO stage_failures (file_id, stage, sha256, code, reason, failed_unix_s)
                    SELECT id, ?, content_sha256, ?, ?, ? FROM input_files WHERE path = ?
                    """, arguments: [stage, code, reason, Date().timeIntervalSince1970, path])
        }
    }

    public func clearStageFailures(stage: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM stage_failures WHERE stage = ?", arguments: [stage]) }
    }

    /// Replaces one file's classified windows and marks it done, in one transaction, so a
    /// killed run either kept both or neither.
    /// `note` says why the file gave no window, or what its windows lack.
    public func replaceModeWindows(_ rows: [ModeWindowRow], classifying file: ClassifiableFile, model: String, note: String? = nil) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM stage_failures WHERE file_id = ? AND stage = 'classify'", arguments: [file.id])
            try db.execute(sql: "DELETE FROM mode_windows WHERE trace = ?", arguments: [file.path])
            try insertModeWindows(rows, db: db)
            try db.execute(
                sql: "INSERT OR REPLACE INTO classified_files (file_id, sha256, model, windows, note) VALUES (?, ?, ?, ?, ?)",
                arguments: [file.id, file.sha256, model, rows.count, note])
        }
    }

    /// Every stored window, sorted by device, trace and start.
    public func modeWindows() throws -> [ModeWindowRow] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT device, trace, start_unix_s, end_unix_s, mode, raw_mode, probability, decided_by FROM mode_windows
                    ORDER BY device, trace, start_unix_s
                    """
            ).compactMap { row in
                guard let mode = Mode(rawValue: row[4]), let raw = Mode(rawValue: row[5]) else { return nil }
                return ModeWindowRow(
                    device: row[0], trace: row[1], startSeconds: row[2], endSeconds: row[3], mode: mode, rawMode: raw,
                    probability: row[6], decidedBy: row[7])
            }
        }
    }

    /// The identity of every input's content (the path outputs show, hash, status, the column
    /// mapping it was read with, device and person), in that path's order: what the outputs of a
    /// run were made from. A moved input folder keeps it, so its outputs need no rebuilding.
    public func inputIdentities() throws -> [String] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(relative_path, path) AS shown, content_sha256, status, column_mapping, device, person FROM input_files
                    ORDER BY shown, content_sha256
                    """
            ).map {
                "\($0[0] as String)\t\($0[1] as String)\t\($0[2] as String)" + (($0[3] as String?).map { "\t" + $0 } ?? "")
                    + "\t" + (($0[4] as String?) ?? "") + "\t" + (($0[5] as String?) ?? "")
            }
        }
    }

    /// One device's identity: its person and where each name came from.
    public struct DeviceIdentity: Hashable, Sendable, Encodable {
        public var device: String, person: String, deviceSource: String, personSource: String
        enum CodingKeys: String, CodingKey {
            case device, person, deviceSource = "device_source", personSource = "person_source"
        }
    }

    /// Every device with a recording in the store, its person and the sources of both names,
    /// in device order (a device seen under several sources lists its first).
    public func deviceIdentities() throws -> [DeviceIdentity] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT device, MIN(COALESCE(person, device)), MIN(COALESCE(device_source, 'unknown')), MIN(COALESCE(person_source, 'device'))
                    FROM input_files WHERE device IS NOT NULL AND status = 'ingested' GROUP BY device ORDER BY device
                    """
            ).map { DeviceIdentity(device: $0[0], person: $0[1], deviceSource: $0[2], personSource: $0[3]) }
        }
    }

    /// The IANA zone a manifest gave each device (`timezone`); a device whose files name two
    /// zones is listed with both, sorted, so the caller can say so.
    public func deviceTimeZones() throws -> [String: [String]] {
        try database.read { db in
            var zones: [String: [String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT device, time_zone FROM input_files
                    WHERE device IS NOT NULL AND time_zone IS NOT NULL AND status = 'ingested' ORDER BY device, time_zone
                    """)
            {
                zones[row[0] as String, default: []].append(row[1])
            }
            return zones
        }
    }

    /// Each device's person (the device itself when none was given).
    public func devicePersons() throws -> [String: String] {
        Dictionary(try deviceIdentities().map { ($0.device, $0.person) }, uniquingKeysWith: { first, _ in first })
    }

    /// The last trip stage's transit feeds, one line for the report ("feed NAME: N stops …");
    /// empty when that stage had no feed, nil before any trip stage.
    public func transitUse() throws -> String? { try derivedState("transit_feed") }

    /// How many of the last trip stage's legs its feeds reached and named, one line for the
    /// operator's page only: counts of legs, not held to k persons (`setTransitUse`).
    public func transitLegs() throws -> String? { try derivedState("transit_feed_legs") }

    /// What the last OD grid published and suppressed, one line for the report (`ODGridOutput`).
    public static let odGridKey = "od_grid"
    /// What the last zone OD published and suppressed, one line for the report (`ZoneODOutput`);
    /// empty when the run had no zone layer.
    public static let odZonesKey = "od_zones"
    /// What the last mode shares published, with their intervals and correction (`ModeSharesOutput`).
    public static let modeSharesKey = "mode_shares"
    /// The last publish's sentence when no person-day of its planning sample was valid
    /// (`PlanningSample.noValidDay`), for the report's first section; empty otherwise.
    public static let noValidDayKey = "no_valid_day"
    /// What the last `co2e.csv` published and left out, one line for the report (`CO2eOutput`).
    public static let co2eKey = "co2e"
    /// The emission factors the last publish used, as JSON (`EmissionFactors`), for the report.
    public static let co2eFactorsKey = "co2e_factors"
    /// Each person's expansion weight from the last publish with a population, as JSON
    /// (`person` → weight); empty without one. The diary export's `persons.csv` takes it.
    public static let personWeightsKey = "person_weights"

    /// The last publish's expansion weights by person; empty without a population.
    public func personWeights() throws -> [String: Double] {
        guard let text = try derivedState(Self.personWeightsKey), !text.isEmpty else { return [:] }
        return (try? JSONDecoder().decode([String: Double].self, from: Data(text.utf8))) ?? [:]
    }

    /// What the last geofence OD table published and suppressed, one line for the report.
    public static let odMatrixKey = "od_matrix"
    /// What the last modal split published and left out, one line for the report.
    public static let modalSplitKey = "modal_split"
    /// The last modal split's whole-day and band rows, published or not, as JSON
    /// (`SplitMargins`): the tables published after it are audited against them.
    public static let splitMarginsKey = "split_margins"
    /// What the report prints of the trip tables (`TripFigures`, JSON), kept where they were made.
    public static let tripFiguresKey = "trip_figures"
    /// What `punctuality.csv` published and left out (`LinePunctuality.line`); empty without a feed.
    public static let punctualityKey = "punctuality"
    /// The k (distinct persons) the last trip stage or publish held every aggregate row to.
    public static let minimumPersonsKey = "minimum_persons"
    /// The median person-day coverage of each trip stage run so far, oldest first (a JSON array):
    /// the nightly alarm compares a run with its panel's earlier nights.
    public static let coverageHistoryKey = "coverage_history"
    /// The last trip stage's person-day summary (`--json`'s `coverage`), as JSON: what a run
    /// that found nothing new says.
    public static let personDaysSummaryKey = "person_days_summary"

    /// The k of the last trip stage or publish; nil before either.
    public func minimumPersons() throws -> Int? { try derivedState(Self.minimumPersonsKey).flatMap { Int($0) } }

    /// Keeps what the trip stage's feeds are (published) apart from how many legs they named
    /// (restricted): both empty when the stage had no feed.
    public func setTransitUse(description: String, legs: String) throws {
        try setDerivedState("transit_feed", description)
        try setDerivedState("transit_feed_legs", legs)
    }

    public func derivedState(_ key: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM derived_state WHERE key = ?", arguments: [key]) }
    }

    public func setDerivedState(_ key: String, _ value: String) throws {
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO derived_state (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}
