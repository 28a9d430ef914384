import Foundation
import GRDB
import MobilityCore
import GRDBSQLite

/// What each stage made of one input: the answer to "what happened to my file?" that the run's
/// JSON summary and the report give for every input, so nothing is ever silently nothing.
public struct FileOutcome: Encodable, Hashable, Sendable {
    public struct Stream: Encodable, Hashable, Sendable {
        public var sensor: String
        public var samples: Int
        // null, not left out, when unknown: `--json` has the same keys in every entry.
        @NullEncodable public var effectiveRateHz: Double?
        @NullEncodable public var realRateHz: Double?
        @NullEncodable public var repeatFactor: Int?
        public var gaps: Int
        public var longestGapS: Double
        public var gapS: Double
        public var clockJumps: Int

        enum CodingKeys: String, CodingKey {
            case sensor, samples, effectiveRateHz = "effective_rate_hz", realRateHz = "real_rate_hz", repeatFactor = "repeat_factor"
            case gaps, longestGapS = "longest_gap_s", gapS = "gap_s", clockJumps = "clock_jumps"
        }
    }

    public var path: String
    @NullEncodable public var format: String?
    @NullEncodable public var device: String?
    /// The person who carried the device, and where each name came from (`manifest`,
    /// `name_pattern`, `folder`, `file_name`; a person's `device` means none was given).
    @NullEncodable public var person: String?
    @NullEncodable public var deviceSource: String?
    @NullEncodable public var personSource: String?
    /// The path outputs show (below the folder given to the run).
    public var shownPath: String
    /// `ingested` or `quarantined`.
    public var status: String
    public var fixes: Int
    public var imuSamples: Int
    public var streams: [Stream]
    /// Windows classified, and minutes per mode (smoothed); nil for files without IMU data.
    @NullEncodable public var windows: Int?
    public var modeMinutes: [String: Double]
    /// Check-in rides this file's IMU data was measured in.
    public var measuredRides: Int
    /// Triplegs and staypoints of the file's device within its time span (nil without fixes):
    /// what the trip stage made of its fixes.
    @NullEncodable public var triplegs: Int?
    @NullEncodable public var staypoints: Int?
    /// What the user should know: why a stage made nothing of the file, and what to do.
    public var notes: [String]
    /// True when the file gave nothing: quarantined, IMU data without a window, a track file
    /// without a point, or fixes that gave neither a staypoint nor a tripleg.
    public var madeNothing: Bool

    enum CodingKeys: String, CodingKey {
        case path, shownPath = "shown_path", format, device, person, deviceSource = "device_source", personSource = "person_source", status,
            fixes, imuSamples = "imu_samples", streams, windows, modeMinutes = "mode_minutes"
        case measuredRides = "measured_rides", triplegs, staypoints, notes, madeNothing = "made_nothing"
    }
}

extension PipelineStore {
    /// Minutes per mode of each trace (a file's windows: one device's), in one pass along the
    /// primary key (device, trace, start): windows counted per mode, times the trace's hop,
    /// the shortest positive step between its window starts, else its shortest window. (The
    /// window function this replaced sorted a million windows by trace: 3.8 s at 1,600
    /// device-days; `pipeline publish` there went from 4.0 s to 2.9 s.)
    ///
    /// Read with SQLite's C API, the text compared as bytes: a `String` for three columns of
    /// every window was most of the 0.16 s this took at 1,600 device-days (1 M windows).
    static func modeMinutes(_ db: Database) throws -> [String: [String: Double]] {
        var minutes: [String: [String: Double]] = [:]
        var current: (device: [UInt8], trace: [UInt8])?
        var counts = ByteKeyCounts()
        var previousStart = 0.0, smallestStep = Double.infinity, shortest = Double.infinity
        func finish() {
            guard let current else { return }
            let hop = smallestStep.isFinite ? smallestStep : shortest
            let name = String(decoding: current.trace, as: UTF8.self)
            for (mode, _, count) in counts.entries {
                minutes[name, default: [:]][String(decoding: mode, as: UTF8.self)] = Double(count) * hop / 60
            }
        }
        let statement = try db.makeStatement(
            sql: "SELECT device, trace, start_unix_s, end_unix_s, mode FROM mode_windows ORDER BY device, trace, start_unix_s")
        try statement.forEachCRow { row in
            let (rowDevice, rowTrace) = (Statement.text(row, 0), Statement.text(row, 1))
            let (start, end) = (sqlite3_column_double(row, 2), sqlite3_column_double(row, 3))
            if let trace = current, trace.device.sameBytes(as: rowDevice), trace.trace.sameBytes(as: rowTrace) {
                if start - previousStart > 0 { smallestStep = min(smallestStep, start - previousStart) }
            } else {
                finish()
                (current, counts, smallestStep, shortest) = ((Array(rowDevice), Array(rowTrace)), ByteKeyCounts(), .infinity, .infinity)
            }
            previousStart = start
            shortest = min(shortest, end - start)
            counts.add(Statement.text(row, 4))
        }
        finish()
        return minutes
    }

    /// Every input's outcome, in path order. Minutes per mode count each window for its hop
    /// (`modeMinutes`: whatever window parameters made them).
    public func fileOutcomes() throws -> [FileOutcome] {
        try database.read { db in
            var streams: [Int64: [FileOutcome.Stream]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT file_id, sensor, samples, effective_rate_hz, real_rate_hz, repeat_factor, gaps, longest_gap_s, gap_s, clock_jumps
                    FROM imu_streams ORDER BY file_id, sensor
                    """)
            {
                streams[row[0], default: []].append(
                    .init(
                        sensor: row[1], samples: row[2], effectiveRateHz: row[3], realRateHz: row[4],
                        repeatFactor: row[5], gaps: row[6], longestGapS: row[7], gapS: row[8],
                        clockJumps: row[9]))
            }
            let minutes = try Self.modeMinutes(db)
            // What the trip stage made of each file's fixes: its device's legs and stays within its span.
            var trips: [Int64: (legs: Int, stays: Int, timed: Bool)] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT f.id, f.first_unix_s IS NOT NULL,
                           (SELECT COUNT(*) FROM triplegs t WHERE t.device = f.device AND t.started_unix_s <= f.last_unix_s AND t.finished_unix_s >= f.first_unix_s),
                           (SELECT COUNT(*) FROM staypoints s WHERE s.device = f.device AND s.started_unix_s <= f.last_unix_s AND s.finished_unix_s >= f.first_unix_s)
                    FROM input_files f WHERE f.fixes > 0 AND f.status = 'ingested'
                    """)
            {
                trips[row[0]] = (row[2], row[3], row[1])
            }
            var others: [Int64: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT file_id, sensor, rows FROM other_sensors ORDER BY file_id, sensor") {
                others[row[0], default: []].append("\(row[1] as String) \(row[2] as Int) rows")
            }
            var failures: [Int64: [String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT s.file_id, s.stage, s.reason FROM stage_failures s JOIN input_files f ON f.id = s.file_id AND f.content_sha256 = s.sha256
                    """)
            {
                failures[row[0], default: []].append("\(row[1] as String): set aside: \(row[2] as String)")
            }
            let rides = try Dictionary(
                Row.fetchAll(
                    db,
                    sql: """
                        SELECT f.id, COUNT(r.id) FROM input_files f JOIN rides r ON r.device = f.device AND r.status = 'measured'
                        WHERE f.imu_samples > 0 AND f.first_unix_s <= r.finished_unix_s AND f.last_unix_s >= r.started_unix_s GROUP BY f.id
                        """
                ).map { ($0[0] as Int64, $0[1] as Int) }, uniquingKeysWith: +)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT f.id, f.path, f.format, f.device, f.status, f.fixes, f.imu_samples, c.windows, c.note, q.reason, f.waypoints,
                           f.person, f.device_source, f.person_source, COALESCE(f.relative_path, f.path), COALESCE(f.gpx_track_points, 0)
                    FROM input_files f LEFT JOIN classified_files c ON c.file_id = f.id AND c.sha256 = f.content_sha256
                    LEFT JOIN quarantine q ON q.file_id = f.id ORDER BY f.path
                    """
            ).map { row in
                let id: Int64 = row[0], path: String = row[1], imu: Int = row[6]
                var notes: [String] = []
                if let reason: String = row[9] { notes.append("ingest: quarantined: \(reason)") }
                let track = ["gpx", "plt"].contains((row[2] as String?) ?? "")
                let emptyTrack = track && row[4] as String == "ingested" && row[5] as Int == 0 && row[10] as Int == 0
                let placesOnly = track && row[4] as String == "ingested" && row[5] as Int == 0 && row[10] as Int > 0
                if emptyTrack {
                    notes.append("ingest: no track point, route point or waypoint at all (metadata only): nothing to analyse")
                } else if placesOnly {
                    let points: Int = row[15]
                    notes.append(
                        "ingest: no track point kept (\(points == 0 ? "the file has none" : "all \(points) dropped, see dropped")): its "
                            + "\(row[10] as Int) waypoints and route points are kept as places (a planned route is not a recording), nothing to classify"
                    )
                }
                if imu == 0, row[4] as String == "ingested", let skipped = others[id] {
                    notes.append(
                        "ingest: no accelerometer or gyroscope stream was read; streams counted, not used: "
                            + skipped.joined(separator: ", ") + " (see docs/inputs.md for the sensor files read)")
                }
                let windows: Int? = imu > 0 ? (row[7] as Int?) ?? 0 : nil
                let made = trips[id]
                let noTrips = made.map { $0.legs == 0 && $0.stays == 0 } ?? false
                if noTrips, windows == nil, let made {
                    notes.append(
                        made.timed
                            ? "trips: its \(row[5] as Int) fixes gave neither a staypoint nor a tripleg: too few, too short a span, or too far "
                                + "apart in time (see the trip parameters in `pipeline config --print`: staypoint time, gap); they still count in the heat map"
                            : "trips: none of its \(row[5] as Int) fixes has a time, and staypoints, triplegs and trips need times; they count in the heat map only"
                    )
                }
                if let note: String = row[8] { notes.append("classify: " + note) }
                notes += failures[id] ?? []
                return FileOutcome(
                    path: path, format: row[2], device: row[3], person: row[11], deviceSource: row[12], personSource: row[13],
                    shownPath: row[14], status: row[4], fixes: row[5], imuSamples: imu,
                    streams: streams[id] ?? [], windows: windows, modeMinutes: minutes[path] ?? [:],
                    measuredRides: rides[id] ?? 0, triplegs: made?.legs, staypoints: made?.stays, notes: notes,
                    madeNothing: windows == 0 || emptyTrack || placesOnly || (noTrips && windows == nil)
                        || row[4] as String == "quarantined")
            }
        }
    }
}
