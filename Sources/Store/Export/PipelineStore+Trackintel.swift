import Foundation
import MobilityCore

/// The store's positionfixes, staypoints, triplegs, trips and locations as trackintel 1.4
/// reads them (`trackintel.read_positionfixes_csv`, `read_staypoints_csv` … with
/// `index_col="id"`), so an analysis can go on in trackintel and GeoPandas (`pipeline export
/// --format trackintel`).
///
/// trackintel's model (its documentation, "Model" and "Input/Output"): a row per entity with
/// an `id`, the `user_id` it belongs to, `started_at` / `finished_at` (positionfixes:
/// `tracked_at`) as timezone-aware times, and geometry as WKT in `geom` (locations: `center`;
/// positionfixes: `latitude` / `longitude`); staypoints and triplegs link by
/// `staypoint_id` / `tripleg_id` / `trip_id` / `location_id`. The ids are the store's and the
/// CSVs' (`staypoints.csv` …). `user_id` is the device: staypoints, legs and trips are found
/// per device, and trackintel's own steps (locations, tours) group by `user_id`; the person,
/// where named, is kept in `person`. Our other columns follow trackintel's.
extension PipelineStore {
    /// The trackintel tables' files in `folder`.
    public static let trackintelFileNames = ["positionfixes.csv", "staypoints.csv", "triplegs.csv", "trips.csv", "locations.csv"]

    /// Writes the five tables into `folder` (which must exist); returns each file's rows. A
    /// leg's line of more than `wholeLineBytes` of the store's GeoJSON text is read in pieces
    /// (twice: to count its points, then to write them), so its WKT is never held whole.
    public func writeTrackintel(to folder: String, wholeLineBytes: Int = 4 << 20, lineBlockBytes: Int = 1 << 20) throws -> [String: Int] {
        func path(_ folder: String, _ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        var written: [String: Int] = [:]
        let persons: [String: String?] = try devicePersons().mapValues { $0 }

        let staypoints = try self.rows("SELECT * FROM staypoints ORDER BY id")
        // Every column but the line, read leg by leg below: every leg's line at once had been
        // the store's every point as text, held twice.
        let triplegs = try self.rows(
            """
            SELECT id, device, trip_id, started_unix_s, finished_unix_s, duration_s, distance_m, mode, mode_source, fixes,
              previous_staypoint_id, next_staypoint_id FROM triplegs ORDER BY id
            """)
        written["positionfixes.csv"] = try writePositionfixes(staypoints: staypoints, triplegs: triplegs, in: folder)

        var csv = CSVWriter(columns: [
            "id", "user_id", "started_at", "finished_at", "geom", "person", "duration_s", "fixes", "is_open",
            "is_activity", "location_id", "geofence_id", "started_unix_s", "finished_unix_s"
        ])
        var centres: [String: String] = [:]
        for s in staypoints {
            let point = Self.trackintelPoint(s["lon_deg"]!, s["lat_deg"]!)
            centres[s["id"]!!] = s["lon_deg"]!.flatMap { lon in s["lat_deg"]!.map { "\(lon) \($0)" } }
            csv.append([
                s["id"]!, s["device"]!, Self.trackintelTime(s["started_unix_s"]!), Self.trackintelTime(s["finished_unix_s"]!), point,
                persons[s["device"]!!] ?? nil, s["duration_s"]!, s["fixes"]!, Self.trackintelBoolean(s["is_open"]!),
                Self.trackintelBoolean(s["is_activity"]!),
                s["location_id"]!, s["geofence_id"]!, s["started_unix_s"]!, s["finished_unix_s"]!
            ])
        }
        try csv.write(to: path(folder, "staypoints.csv"))
        written["staypoints.csv"] = staypoints.count

        let legs = try CSVFileStream(
            path: path(folder, "triplegs.csv"),
            columns: [
                "id", "user_id", "started_at", "finished_at", "geom", "trip_id", "mode", "person", "duration_s", "distance_m",
                "mode_source", "fixes", "previous_staypoint_id", "next_staypoint_id", "started_unix_s", "finished_unix_s"
            ])
        try withTriplegLines { line in
            for t in triplegs {
                legs.csv.appendToRow { row in
                    Self.appendFields(
                        [t["id"]!, t["device"]!, Self.trackintelTime(t["started_unix_s"]!), Self.trackintelTime(t["finished_unix_s"]!)],
                        to: &row)
                    row.append(UInt8(ascii: ","))
                }
                if let text = try t["id"]!.flatMap({ Int64($0) }).flatMap(line) {
                    try Self.appendLineStringWKT(text, to: legs, wholeLineBytes: wholeLineBytes, blockBytes: lineBlockBytes)
                }
                legs.csv.appendToRow { row in
                    row.append(UInt8(ascii: ","))
                    Self.appendFields(
                        [
                            t["trip_id"]!, t["mode"]! ?? "unknown", persons[t["device"]!!] ?? nil, t["duration_s"]!, t["distance_m"]!,
                            t["mode_source"]!, t["fixes"]!, t["previous_staypoint_id"]!, t["next_staypoint_id"]!, t["started_unix_s"]!,
                            t["finished_unix_s"]!
                        ], to: &row)
                }
                legs.csv.endRow()
                try legs.flushWhenFull()
            }
        }
        try legs.finish()
        written["triplegs.csv"] = triplegs.count

        let trips = try self.rows("SELECT * FROM trips ORDER BY id")
        csv = CSVWriter(columns: [
            "id", "user_id", "started_at", "finished_at", "origin_staypoint_id", "destination_staypoint_id", "geom",
            "person", "duration_s", "distance_m", "main_mode", "legs", "origin_location_id", "destination_location_id",
            "origin_geofence_id", "destination_geofence_id", "started_unix_s", "finished_unix_s"
        ])
        for t in trips {
            // trackintel's trip geometry: a MultiPoint of the origin and destination staypoints.
            let ends = [t["origin_staypoint_id"]!, t["destination_staypoint_id"]!].map { $0.flatMap { centres[$0] } }
            let geometry = ends.contains { $0 == nil } ? nil : "MULTIPOINT ((\(ends[0]!)), (\(ends[1]!)))"
            csv.append([
                t["id"]!, t["device"]!, Self.trackintelTime(t["started_unix_s"]!), Self.trackintelTime(t["finished_unix_s"]!),
                t["origin_staypoint_id"]!,
                t["destination_staypoint_id"]!, geometry, persons[t["device"]!!] ?? nil, t["duration_s"]!, t["distance_m"]!,
                t["main_mode"]! ?? "unknown", t["legs"]!, t["origin_location_id"]!, t["destination_location_id"]!,
                t["origin_geofence_id"]!, t["destination_geofence_id"]!, t["started_unix_s"]!, t["finished_unix_s"]!
            ])
        }
        try csv.write(to: path(folder, "trips.csv"))
        written["trips.csv"] = trips.count

        // With locations.scope dataset a location is anyone's: its user_id is empty.
        let locations = try self.rows("SELECT * FROM locations ORDER BY id")
        csv = CSVWriter(columns: ["id", "user_id", "center", "number", "staypoints", "devices", "total_stay_s"])
        for l in locations {
            csv.append([
                l["id"]!, l["device"]!, Self.trackintelPoint(l["lon_deg"]!, l["lat_deg"]!), l["number"]!, l["staypoints"]!, l["devices"]!,
                l["total_stay_s"]!
            ])
        }
        try csv.write(to: path(folder, "locations.csv"))
        written["locations.csv"] = locations.count
        return written
    }

    /// Every fix the trip stage reads, with the leg whose time span holds it, else the
    /// staypoint's: a stay's `finished_at` is the time of the first fix after it (trackintel's
    /// definition, and what its `fixes` counts), which begins the next leg.
    private func writePositionfixes(staypoints: [[String: String?]], triplegs: [[String: String?]], in folder: String) throws -> Int {
        typealias Span = (start: Double, end: Double, id: String, closed: Bool)
        /// Legs hold both ends; a stay its start only, unless it is open (the track ended in it).
        func spans(_ rows: [[String: String?]], closed: ([String: String?]) -> Bool) -> [String: [Span]] {
            var byDevice: [String: [Span]] = [:]
            for row in rows {
                guard let device = row["device"]!, let start = row["started_unix_s"]!.flatMap(Double.init),
                    let end = row["finished_unix_s"]!.flatMap(Double.init), let id = row["id"]!
                else { continue }
                byDevice[device, default: []].append((start, end, id, closed(row)))
            }
            return byDevice.mapValues { $0.sorted { $0.start < $1.start } }
        }
        let stays = spans(staypoints) { $0["is_open"]! == "1" }, legs = spans(triplegs) { _ in true }
        // Streamed (a table of every fix would be held whole otherwise: 394 MB peak for the 200
        // device-day benchmark).
        let fixes = try CSVFileStream(
            path: (folder as NSString).appendingPathComponent("positionfixes.csv"),
            columns: [
                "id", "user_id", "tracked_at", "latitude", "longitude", "elevation", "accuracy", "staypoint_id",
                "tripleg_id", "person", "trace", "tracked_unix_s"
            ])
        var count = 0
        var device = "", stayIndex = 0, legIndex = 0
        /// The span holding `time`, spans and fixes both in time order.
        func find(_ list: [Span]?, _ index: inout Int, _ time: Double) -> String? {
            guard let list else { return nil }
            while index < list.count, list[index].closed ? list[index].end < time : list[index].end <= time { index += 1 }
            return index < list.count && list[index].start <= time ? list[index].id : nil
        }
        let files = try positionFiles()
        // Each file's device, person and path, encoded once: they repeat on every fix.
        let encoded = files.mapValues {
            (device: CSVWriter.encoded($0.device), person: CSVWriter.encoded($0.person), trace: CSVWriter.encoded($0.trace))
        }
        try forEachPositionFix { fix in
            guard let file = files[fix.fileID], let text = encoded[fix.fileID] else { return }
            if file.device != device { (device, stayIndex, legIndex) = (file.device, 0, 0) }
            count += 1
            let stay = find(stays[file.device], &stayIndex, fix.timeSeconds), leg = find(legs[file.device], &legIndex, fix.timeSeconds)
            // Bytes, not a String per field: the same text as FixedPoint.text and ISO8601.formatMillis
            // (1.4 M fixes of the 200 device-day benchmark: 13.5 s with String(format:), 4.6 s with
            // FixedPoint.text, 2.5 s so).
            let comma = UInt8(ascii: ",")
            fixes.csv.appendEncodedRow { row in
                ASCIIDigits.append(count, to: &row); row.append(comma)
                row += text.device; row.append(comma)
                ISO8601.appendMillis(Timestamp(secondsSince1970: fix.timeSeconds), to: &row); row.append(comma)
                FixedPoint.append(fix.latitudeDegrees, digits: 7, to: &row); row.append(comma)
                FixedPoint.append(fix.longitudeDegrees, digits: 7, to: &row); row.append(comma)
                if let elevation = fix.elevationMeters { FixedPoint.append(elevation, digits: 1, to: &row) }
                row.append(comma)
                if let accuracy = fix.accuracyMeters { FixedPoint.append(accuracy, digits: 1, to: &row) }
                row.append(comma)
                if leg == nil, let stay { row += stay.utf8 }
                row.append(comma)
                if let leg { row += leg.utf8 }
                row.append(comma)
                row += text.person; row.append(comma)
                row += text.trace; row.append(comma)
                FixedPoint.append(fix.timeSeconds, digits: 3, to: &row)
            }
            try fixes.flushWhenFull()
        }
        try fixes.finish()
        return count
    }

    private static func trackintelTime(_ unix: String??) -> String? {
        unix.flatMap { $0 }.flatMap(Double.init).map { ISO8601.formatMillis(Timestamp(secondsSince1970: $0)) }
    }

    private static func trackintelBoolean(_ value: String??) -> String? { value.flatMap { $0 }.map { $0 == "0" ? "False" : "True" } }

    private static func trackintelPoint(_ lon: String??, _ lat: String??) -> String? {
        guard let lon = lon.flatMap({ $0 }), let lat = lat.flatMap({ $0 }) else { return nil }
        return "POINT (\(lon) \(lat))"
    }

    /// Fields as `CSVWriter.append` writes them, commas between.
    private static func appendFields(_ fields: [String?], to row: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { row.append(UInt8(ascii: ",")) }
            row += CSVWriter.encoded(field)
        }
    }

    /// The store's GeoJSON line as a quoted WKT field (`"LINESTRING (lon lat, …)"`; nothing for
    /// fewer than two points or text that is not numbers), written to the file's row as it is
    /// read: whole up to `wholeLineBytes`, else in pieces, read once to count the points and
    /// once to write them, with the file flushed between.
    static func appendLineStringWKT(_ text: BlockText, to file: CSVFileStream, wholeLineBytes: Int, blockBytes: Int) throws {
        if text.count <= wholeLineBytes {
            var points: [(Double, Double)] = []
            let count = try text.bytes().withUnsafeBufferPointer { GeoJSONLineText.coordinates($0) { points.append(($0, $1)) } }
            guard let count, count >= 2 else { return }
            file.csv.appendToRow { row in
                row += Self.wktStart
                for (index, point) in points.enumerated() { appendPoint(point, first: index == 0, to: &row) }
                row += Self.wktEnd
            }
            return
        }
        guard let count = try GeoJSONLineText.coordinates(text, blockBytes: blockBytes, { _, _ in }), count >= 2 else { return }
        file.csv.appendToRow { $0 += Self.wktStart }
        var (first, failure): (Bool, Error?) = (true, nil)
        _ = try GeoJSONLineText.coordinates(text, blockBytes: blockBytes) { longitude, latitude in
            guard failure == nil else { return }
            file.csv.appendToRow { appendPoint((longitude, latitude), first: first, to: &$0) }
            first = false
            do { try file.flushWhenFull() } catch { failure = error }
        }
        if let failure { throw failure }
        file.csv.appendToRow { $0 += Self.wktEnd }
    }

    /// `lon lat` as Swift prints each, after `, ` but for the first.
    private static func appendPoint(_ point: (Double, Double), first: Bool, to row: inout [UInt8]) {
        if !first { row += Self.separator }
        row += point.0.description.utf8
        row.append(UInt8(ascii: " "))
        row += point.1.description.utf8
    }

    /// A WKT line string holds commas: its field is quoted (`CSVWriter.appendQuoted`).
    private static let wktStart = Array("\"LINESTRING (".utf8), wktEnd = Array(")\"".utf8), separator = Array(", ".utf8)
}
