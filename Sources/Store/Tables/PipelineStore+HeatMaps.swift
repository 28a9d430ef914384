import Foundation
import GRDB
import GRDBSQLite
import MobilityCore

extension PipelineStore {
    /// The names of the tracks `tracks(groupedBy:)` would return, sorted, without their fixes.
    public func trackNames(groupedBy grouping: TrackGrouping = .device) throws -> [String] {
        let key = grouping == .device ? "COALESCE(device, path)" : "path"
        return try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT \(key) FROM input_files WHERE status = 'ingested' AND fixes > 0 ORDER BY 1")
        }
    }

    /// Every device's unfiltered cell counts, by map, cell and device.
    public func heatMapDeviceCells() throws -> [HeatMapDeviceCell] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT map, cell_id, device, COALESCE(person, device), fixes, dwell_s FROM heatmap_device_cells ORDER BY map, cell_id, device
                    """
            ).map {
                HeatMapDeviceCell(map: $0[0], cellID: $0[1], device: $0[2], person: $0[3], fixes: $0[4], dwellSeconds: $0[5])
            }
        }
    }

    /// One device's (or file's) timed fixes in file and record order: memory for one track at
    /// a time. CROSS JOIN makes SQLite find the device's files first and read their fixes by
    /// primary key, instead of scanning every fix for each device. Ordered by `i.id` (equal to
    /// `f.file_id`), which that loop already follows: ordered by `f.file_id`, SQLite sorted
    /// every fix again in a temporary B-tree (four times the time of the whole query).
    ///
    /// The columns are read straight from SQLite's C API (as `FixWriter` binds them): loading
    /// the 345,600 fixes of the GeoLife benchmark took 0.14 s through GRDB's `Row`, 0.11 s so.
    ///
    /// With `seconds`, only the fixes in that closed range, read from the files whose span meets
    /// it (`input_files.first_unix_s`, `last_unix_s`): the cost of a window, not of the history.
    public func trackPoints(named name: String, groupedBy grouping: TrackGrouping = .device, in seconds: ClosedRange<Double>? = nil) throws
        -> [TrackPoint]
    {
        let key = Self.trackKey(grouping)
        return try database.read { db in
            var points: [TrackPoint] = []
            if seconds == nil {
                // Reserved from the files' counts: grown by doubling, a year's 31 M fixes need 1.6 GB at their last growth.
                points.reserveCapacity(
                    try Int.fetchOne(
                        db, sql: "SELECT COALESCE(SUM(i.fixes), 0) FROM input_files i WHERE i.status = 'ingested' AND \(key) = ?",
                        arguments: [name]) ?? 0)
            }
            try Self.trackStatement(db, name: name, grouping: grouping, in: seconds).forEachCRow { points.append(Self.trackPoint($0)) }
            return points
        }
    }

    /// `COALESCE(i.device, i.path)` or `i.path`: what names a track.
    private static func trackKey(_ grouping: TrackGrouping) -> String { grouping == .device ? "COALESCE(i.device, i.path)" : "i.path" }

    /// The statement reading one track's timed fixes (time, latitude, longitude, accuracy) in
    /// file and record order (see `trackPoints`).
    private static func trackStatement(_ db: Database, name: String, grouping: TrackGrouping, in seconds: ClosedRange<Double>?) throws
        -> Statement
    {
        let within =
            seconds == nil
            ? ""
            : """
             AND (i.first_unix_s IS NULL OR (i.first_unix_s <= ? AND i.last_unix_s >= ?)) AND f.time_unix_s BETWEEN ? AND ?
            """
        let statement = try db.makeStatement(
            sql: """
                SELECT f.time_unix_s, f.lat_deg, f.lon_deg, f.accuracy_m
                FROM input_files i CROSS JOIN fixes f ON f.file_id = i.id
                WHERE i.status = 'ingested' AND \(trackKey(grouping)) = ? AND f.time_unix_s IS NOT NULL\(within)
                ORDER BY i.id, f.seq
                """)
        statement.arguments = seconds.map { [name, $0.upperBound, $0.lowerBound, $0.lowerBound, $0.upperBound] } ?? [name]
        return statement
    }

    /// The fix on the row `trackStatement` is at.
    private static func trackPoint(_ handle: OpaquePointer) -> TrackPoint {
        let accuracy = sqlite3_column_type(handle, 3) == SQLITE_NULL ? Double.nan : sqlite3_column_double(handle, 3)
        return TrackPoint(
            timeSeconds: sqlite3_column_double(handle, 0), latitudeDegrees: sqlite3_column_double(handle, 1),
            longitudeDegrees: sqlite3_column_double(handle, 2), accuracyMeters: accuracy)
    }

    /// One device's (or file's) timed fixes in time order, `pieceSize` at a time, for a stage
    /// that reads each fix once in order (the heat maps): memory for a piece, not the track.
    /// The store gives them in file and record order, which is time order when a device's files
    /// follow one another. Returns false as soon as a time does not rise (some pieces may have
    /// been given): the caller then takes back what it did with them and reads the whole track
    /// to sort it (`trackPoints`, `DeviceTrack`). So the pieces, when it returns true, are
    /// `DeviceTrack`'s points cut up.
    public func forEachTrackPiece(
        named name: String, groupedBy grouping: TrackGrouping = .device, pieceSize: Int, _ body: ([TrackPoint]) throws -> Void
    ) throws -> Bool {
        try database.read { db in
            var piece: [TrackPoint] = []
            piece.reserveCapacity(pieceSize)
            var last = -Double.infinity
            do {
                try Self.trackStatement(db, name: name, grouping: grouping, in: nil).forEachCRow { handle in
                    let point = Self.trackPoint(handle)
                    guard point.timeSeconds > last, point.timeSeconds.isFinite else { throw OutOfOrder() }
                    last = point.timeSeconds
                    piece.append(point)
                    if piece.count == pieceSize {
                        try body(piece)
                        piece.removeAll(keepingCapacity: true)
                    }
                }
            } catch is OutOfOrder {
                return false
            }
            if !piece.isEmpty { try body(piece) }
            return true
        }
    }

    private struct OutOfOrder: Error {}

    /// A device's stored staypoints and triplegs as time intervals (legs with their modes).
    public func storedIntervals(device: String) throws -> (
        stays: [(start: Double, end: Double)], legs: [(start: Double, end: Double, mode: Mode?)]
    ) {
        try database.read { db in
            let stays = try Row.fetchAll(
                db, sql: "SELECT started_unix_s, finished_unix_s FROM staypoints WHERE device = ? ORDER BY started_unix_s",
                arguments: [device]
            ).map { (start: $0[0] as Double, end: $0[1] as Double) }
            let legs = try Row.fetchAll(
                db, sql: "SELECT started_unix_s, finished_unix_s, mode FROM triplegs WHERE device = ? ORDER BY started_unix_s",
                arguments: [device]
            ).map { row -> (start: Double, end: Double, mode: Mode?) in
                let mode: String? = row[2]
                return (row[0], row[1], mode.flatMap(Mode.init(rawValue:)))
            }
            return (stays, legs)
        }
    }

    /// One heat map as the store keeps it: its parameters and its published cells.
    public struct HeatMapRows: Sendable {
        public struct Cell: Sendable {
            public var id: String
            public var center: (latitude: Double, longitude: Double)
            public var bounds: (south: Double, west: Double, north: Double, east: Double)
            /// Distinct devices and distinct persons (k counts persons).
            public var fixes: Int, devices: Int, persons: Int, dwellSeconds: Double

            public init(
                id: String, center: (latitude: Double, longitude: Double),
                bounds: (south: Double, west: Double, north: Double, east: Double),
                fixes: Int, devices: Int, persons: Int, dwellSeconds: Double
            ) {
                (self.id, self.center, self.bounds, self.fixes, self.devices, self.persons, self.dwellSeconds) = (
                    id, center, bounds, fixes, devices, persons, dwellSeconds
                )
            }
        }

        public var map: String
        public var cellMeters: Double
        public var minimumPersons: Int
        public var filter: String
        public var cells: [Cell]
        public var suppressed: Int

        public init(map: String, cellMeters: Double, minimumPersons: Int, filter: String, cells: [Cell], suppressed: Int) {
            (self.map, self.cellMeters, self.minimumPersons, self.filter, self.cells, self.suppressed) = (
                map, cellMeters, minimumPersons, filter, cells, suppressed
            )
        }
    }

    /// One device's unfiltered counts in one cell of one map (`heatmap_device_cells`).
    public struct HeatMapDeviceCell: Sendable, Equatable {
        public var map: String, cellID: String, device: String, person: String
        public var fixes: Int, dwellSeconds: Double

        public init(map: String, cellID: String, device: String, person: String, fixes: Int, dwellSeconds: Double) {
            (self.map, self.cellID, self.device, self.person, self.fixes, self.dwellSeconds) = (
                map, cellID, device, person, fixes, dwellSeconds
            )
        }
    }

    /// Replaces every heat map, and the per-device cells (none unless asked for), in one transaction.
    public func replaceHeatMaps(_ maps: [HeatMapRows], deviceCells: [HeatMapDeviceCell] = []) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM heatmap_cells")
            try db.execute(sql: "DELETE FROM heatmaps")
            try db.execute(sql: "DELETE FROM heatmap_device_cells")
            let deviceCell = try db.makeStatement(
                sql: """
                    INSERT INTO heatmap_device_cells (map, cell_id, device, person, fixes, dwell_s) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for c in deviceCells { try deviceCell.execute(arguments: [c.map, c.cellID, c.device, c.person, c.fixes, c.dwellSeconds]) }
            let map = try db.makeStatement(
                sql: """
                    INSERT INTO heatmaps (map, cell_m, min_devices, filter, cells, suppressed_cells) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            let cell = try db.makeStatement(
                sql: """
                    INSERT INTO heatmap_cells (map, cell_id, center_lat_deg, center_lon_deg, south_deg, west_deg, north_deg, east_deg,
                      fixes, devices, persons, dwell_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for heatMap in maps {
                try map.execute(arguments: [
                    heatMap.map, heatMap.cellMeters, heatMap.minimumPersons, heatMap.filter,
                    heatMap.cells.count, heatMap.suppressed
                ])
                for c in heatMap.cells {
                    try cell.execute(arguments: [
                        heatMap.map, c.id, c.center.latitude, c.center.longitude, c.bounds.south, c.bounds.west,
                        c.bounds.north, c.bounds.east, c.fixes, c.devices, c.persons, c.dwellSeconds
                    ])
                }
            }
        }
    }
}

extension PipelineStore {
    /// Every stored heat map with its published cells ("all" first, then the modes in name
    /// order; cells in id order), as `replaceHeatMaps` wrote them or a merge inserted them.
    public func storedHeatMaps() throws -> [HeatMapRows] {
        try database.read { db in
            let maps = try Row.fetchAll(
                db, sql: "SELECT map, cell_m, min_devices, filter, suppressed_cells FROM heatmaps ORDER BY map = 'all' DESC, map")
            return try maps.map { map in
                let name: String = map[0]
                let cells = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT cell_id, center_lat_deg, center_lon_deg, south_deg, west_deg, north_deg, east_deg, fixes, devices, dwell_s, persons
                        FROM heatmap_cells WHERE map = ? ORDER BY cell_id
                        """, arguments: [name]
                ).map { row in
                    HeatMapRows.Cell(
                        id: row[0], center: (row[1], row[2]), bounds: (row[3], row[4], row[5], row[6]),
                        fixes: row[7], devices: row[8], persons: row[10], dwellSeconds: row[9])
                }
                return HeatMapRows(map: name, cellMeters: map[1], minimumPersons: map[2], filter: map[3], cells: cells, suppressed: map[4])
            }
        }
    }
}

extension PipelineStore {
    /// The names of the stored heat maps ("all" and each mode's), whatever cells they published.
    public func storedHeatMapNames() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT map FROM heatmaps ORDER BY map") }
    }
}
