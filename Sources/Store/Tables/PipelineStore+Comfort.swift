import Foundation
import GRDB
import MobilityCore

extension PipelineStore {
    /// Every stored check-in with its row id, in file and line order.
    public func checkIns() throws -> [(id: Int64, checkIn: CheckIn)] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, line, device, train, from_station, to_station, checkin_unix_s, scheduled_departure_unix_s,
                      scheduled_arrival_unix_s, cleanliness, odours_temperature, crowding, service, noise_db, comment
                    FROM checkins ORDER BY file_id, line
                    """
            ).map { row in
                var checkIn = CheckIn(
                    device: row[2], train: row[3], fromStation: row[4], toStation: row[5],
                    checkinTime: Timestamp(secondsSince1970: row[6]), line: row[1])
                checkIn.scheduledDeparture = (row[7] as Double?).map(Timestamp.init(secondsSince1970:))
                checkIn.scheduledArrival = (row[8] as Double?).map(Timestamp.init(secondsSince1970:))
                (checkIn.cleanliness, checkIn.odoursTemperature, checkIn.crowding, checkIn.service) = (row[9], row[10], row[11], row[12])
                checkIn.noiseDecibels = row[13]
                checkIn.comment = row[14]
                return (row[0], checkIn)
            }
        }
    }

    /// A device's ingested IMU file: its path and the user's column mapping it was read with.
    public struct IMUFile: Hashable, Sendable {
        public var path: String
        public var columnMapping: String?
        /// The path outputs show (below the folder given to the run).
        public var shownPath: String?
        /// The SHA-256 of the content the store holds for it.
        public var contentSHA256: String

        public init(path: String, columnMapping: String? = nil, shownPath: String? = nil, contentSHA256: String = "") {
            (self.path, self.columnMapping, self.shownPath, self.contentSHA256) = (path, columnMapping, shownPath, contentSHA256)
        }
    }

    /// The times of a device's check-ins, Unix seconds, in order.
    public func checkInTimes(device: String) throws -> [Double] {
        try database.read { db in
            try Double.fetchAll(
                db, sql: "SELECT checkin_unix_s FROM checkins WHERE device = ? ORDER BY checkin_unix_s", arguments: [device])
        }
    }

    /// A device's ingested IMU files whose span overlaps [start, end].
    public func imuFiles(device: String, from start: Double, to end: Double) throws -> [IMUFile] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT path, column_mapping, COALESCE(relative_path, path), content_sha256 FROM input_files
                    WHERE status = 'ingested' AND imu_samples > 0 AND COALESCE(device, path) = ?
                      AND first_unix_s <= ? AND last_unix_s >= ? ORDER BY first_unix_s
                    """, arguments: [device, end, start]
            ).map { IMUFile(path: $0[0], columnMapping: $0[1], shownPath: $0[2], contentSHA256: $0[3]) }
        }
    }

    /// An ingested IMU file with its device and span, for rides taken from recordings.
    public struct IMURecording: Hashable, Sendable {
        public var device: String
        public var file: IMUFile
        public var firstSeconds: Double
        public var lastSeconds: Double
    }

    /// Every ingested file with IMU samples, by device and time.
    public func imuRecordings() throws -> [IMURecording] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(device, path), path, column_mapping, first_unix_s, last_unix_s, COALESCE(relative_path, path),
                      content_sha256 FROM input_files
                    WHERE status = 'ingested' AND imu_samples > 0 AND first_unix_s IS NOT NULL ORDER BY COALESCE(device, path), first_unix_s, path
                    """
            ).map {
                IMURecording(
                    device: $0[0], file: IMUFile(path: $0[1], columnMapping: $0[2], shownPath: $0[5], contentSHA256: $0[6]),
                    firstSeconds: $0[3],
                    lastSeconds: $0[4])
            }
        }
    }

    /// One ride as the store keeps it (columns of `rides`, by name), with its stops and events.
    public struct RideRow {
        public var checkinID: Int64?
        public var values: [String: DatabaseValueConvertible?]
        /// (start, end) Unix seconds.
        public var stops: [(Double, Double)] = []
        /// Columns of `ride_events`, by name.
        public var events: [[String: DatabaseValueConvertible?]] = []

        public init(checkinID: Int64?, values: [String: DatabaseValueConvertible?]) {
            self.checkinID = checkinID
            self.values = values
        }
    }

    /// Replaces every ride, stop and event in one transaction (every ride row names the same columns).
    public func replaceRides(_ rides: [RideRow]) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM ride_events; DELETE FROM ride_stops; DELETE FROM rides")
            guard let keys = rides.first?.values.keys.sorted() else { return }
            let columns = ["id", "checkin_id"] + keys
            let insert = try db.makeStatement(
                sql: "INSERT INTO rides (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            let stop = try db.makeStatement(sql: "INSERT INTO ride_stops (ride_id, start_unix_s, end_unix_s) VALUES (?, ?, ?)")
            let eventKeys = ["kind", "axis", "direction", "start_unix_s", "end_unix_s", "peak_acceleration_mps2", "peak_jerk_mps3"]
            let event = try db.makeStatement(
                sql: "INSERT INTO ride_events (ride_id, \(eventKeys.joined(separator: ", "))) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            for (index, ride) in rides.enumerated() {
                let id = Int64(index + 1)
                let arguments: [DatabaseValueConvertible?] = [id, ride.checkinID] + keys.map { ride.values[$0] ?? nil }
                try insert.execute(arguments: StatementArguments(arguments))
                for (start, end) in ride.stops { try stop.execute(arguments: [id, start, end]) }
                for values in ride.events {
                    let eventArguments: [DatabaseValueConvertible?] = [id] + eventKeys.map { values[$0] ?? nil }
                    try event.execute(arguments: StatementArguments(eventArguments))
                }
            }
        }
    }
}
