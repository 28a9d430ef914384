import Foundation
import Ingest
import MobilityCore

/// A GTFS feed read into what a leg's mode needs: stops (and stations, entrances) with the
/// kinds of the routes that serve them, and corridors, the polylines those routes run along,
/// with their kinds. Everything else in the feed (calendars, fares, times of day) is left.
///
/// Read from a folder or a zip holding `routes.txt`, `trips.txt`, `stop_times.txt`,
/// `stops.txt` and, optionally, `shapes.txt` (GTFS Schedule Reference, "Dataset Files"):
///
/// - a route's kind comes from its `route_type` (`TransitKind`); routes of no kind are counted
///   and left out;
/// - a stop's kinds are those of every trip that calls at it (`stop_times.txt`), passed up to
///   its parent station and down to the station's entrances (`location_type` 2), so a subway
///   entrance is a rail stop;
/// - a corridor is a trip's shape (`shapes.txt`, points in `shape_pt_sequence` order), one per
///   shape; a trip without a shape contributes the straight lines between its consecutive
///   stops, one per distinct stop pattern.
///
/// Columns are found by name, in any order; a missing required file or column is an error
/// that names it; a row without coordinates or with an unknown id is counted and skipped.
public struct GTFSFeed: Sendable {
    public struct Stop: Sendable {
        public var id: String
        public var name: String
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var kinds: TransitKinds
        /// `location_type`: 0 stop or platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
        public var locationType: Int
        /// The feed's place among the run's feeds (`TransitIndex(feeds:)`): ids are only unique within a feed.
        public var feed = 0
    }

    public struct Corridor: Sendable {
        public var kinds: TransitKinds
        /// Latitude, longitude pairs in order.
        public var points: [(Double, Double)]
        /// The feed's place among the run's feeds, as `Stop.feed`.
        public var feed = 0
    }

    /// What the run calls the feed: its file or folder name, `.zip` left off (`TransitNetwork`
    /// makes it unique among the run's feeds).
    public var name = ""
    /// Its agencies and calendars.
    public var service = GTFSService()

    public var stops: [Stop] = []
    public var corridors: [Corridor] = []
    /// The routes of a rail, bus or ferry kind, and the distinct ways their trips run (`Pattern`).
    public var lines: [Route] = []
    public var patterns: [Pattern] = []
    /// What was read and left out, for the log.
    public var routes = 0
    public var routesWithoutKind = 0
    public var trips = 0
    public var stopTimes = 0
    public var skippedRows = 0
    public var shapesUsed = 0
    public var stopPatterns = 0

    public init() {}

    /// The feed at `path`, a folder or a `.zip`.
    public static func load(path: String) throws -> GTFSFeed {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PipelineError(
                .invalidTransitFeed, path: path,
                reason:
                    "no such file or folder (expected a GTFS feed: a .zip or a folder with stops.txt, routes.txt, trips.txt, stop_times.txt)"
            )
        }
        var feed = try isFolder.boolValue ? load(folder: path) : load(zip: path)
        feed.name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return feed
    }

    static func load(zip path: String) throws -> GTFSFeed {
        try ZipExtraction.withUnpackedFolder(path) { root in
            // Feeds are zipped flat, but some wrap the files in one folder.
            if FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent("stops.txt")) {
                return try load(folder: root, shownAs: path)
            }
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: root))?.filter { !$0.hasPrefix(".") && $0 != "__MACOSX" } ?? []
            if names.count == 1 {
                return try load(
                    folder: (root as NSString).appendingPathComponent(names[0]),
                    shownAs: (path as NSString).appendingPathComponent(names[0]))
            }
            throw PipelineError(
                .invalidTransitFeed, path: path, reason: "the zip holds no stops.txt; it holds [\(names.sorted().joined(separator: ", "))]")
        }
    }

    static func load(folder: String, shownAs: String? = nil) throws -> GTFSFeed {
        var feed = GTFSFeed()
        func file(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        // Errors name a file inside a zip as `feed.zip/stops.txt`, not where it was unpacked.
        func shown(_ name: String) -> String { ((shownAs ?? folder) as NSString).appendingPathComponent(name) }
        for name in ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt"] where !FileManager.default.fileExists(atPath: file(name)) {
            throw PipelineError(.invalidTransitFeed, path: shownAs ?? folder, reason: "a GTFS feed needs \(name), and it is missing")
        }
        feed.service = try GTFSService.load(folder: folder, shownAs: shownAs ?? folder)
        // routes.txt: route_id → kind.
        var routeKinds: [String: TransitKinds] = [:], routeIndex: [String: Int] = [:]
        try Table.read(file("routes.txt"), shownAs: shown("routes.txt"), required: ["route_id", "route_type"]) { row in
            feed.routes += 1
            guard let type = row.int("route_type"), let kind = TransitKind(routeType: type) else { feed.routesWithoutKind += 1; return }
            routeKinds[row.string("route_id")] = TransitKinds(kind)
            routeIndex[row.string("route_id")] = feed.lines.count
            feed.lines.append(
                Route(
                    id: row.string("route_id"), agencyID: row.string("agency_id"), shortName: row.string("route_short_name"),
                    longName: row.string("route_long_name"), routeType: type, kind: kind))
        }
        // trips.txt: trip_id → (kinds, shape), and its route and direction for the patterns.
        var tripKinds: [String: TransitKinds] = [:], tripShape: [String: String] = [:], shapeKinds: [String: TransitKinds] = [:]
        var tripRoute: [String: (route: Int, direction: Int?, service: String)] = [:]
        try Table.read(file("trips.txt"), shownAs: shown("trips.txt"), required: ["route_id", "trip_id"]) { row in
            feed.trips += 1
            guard let kinds = routeKinds[row.string("route_id")] else { return }
            let trip = row.string("trip_id")
            tripKinds[trip] = kinds
            tripRoute[trip] = (routeIndex[row.string("route_id")]!, row.int("direction_id"), row.string("service_id"))
            let shape = row.string("shape_id")
            if !shape.isEmpty {
                tripShape[trip] = shape
                shapeKinds[shape, default: []].formUnion(kinds)
            }
        }
        let hasShapes = FileManager.default.fileExists(atPath: file("shapes.txt"))
        // stops.txt first (ids to indices), then stop_times.txt.
        var stopIndex: [String: Int] = [:], parents: [Int: String] = [:]
        try Table.read(file("stops.txt"), shownAs: shown("stops.txt"), required: ["stop_id"]) { row in
            guard let latitude = row.double("stop_lat"), let longitude = row.double("stop_lon"),
                abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0
            else { feed.skippedRows += 1; return }
            let id = row.string("stop_id")
            stopIndex[id] = feed.stops.count
            let parent = row.string("parent_station")
            if !parent.isEmpty { parents[feed.stops.count] = parent }
            feed.stops.append(
                Stop(
                    id: id, name: row.string("stop_name"), latitudeDegrees: latitude, longitudeDegrees: longitude,
                    kinds: [], locationType: row.int("location_type") ?? 0))
        }
        // Every trip keeps its stop sequence: for its pattern, and for corridors between stops where it has no shape.
        // With its times: seconds from noon minus 12 h of the service day, -1 where the row leaves them out.
        var sequences: [String: [(sequence: Int, stop: Int, arrival: Int32, departure: Int32)]] = [:]
        try Table.read(file("stop_times.txt"), shownAs: shown("stop_times.txt"), required: ["trip_id", "stop_id"]) { row in
            feed.stopTimes += 1
            let trip = row.string("trip_id")
            guard let kinds = tripKinds[trip], let stop = stopIndex[row.string("stop_id")] else { feed.skippedRows += 1; return }
            feed.stops[stop].kinds.formUnion(kinds)
            let sequence = row.int("stop_sequence") ?? sequences[trip]?.count ?? 0
            let arrival = try row.time("arrival_time"), departure = try row.time("departure_time")
            sequences[trip, default: []].append((sequence, stop, arrival ?? departure ?? -1, departure ?? arrival ?? -1))
        }
        // Kinds up to parent stations, then down to their entrances and other children.
        for (child, parent) in parents {
            if let station = stopIndex[parent] { feed.stops[station].kinds.formUnion(feed.stops[child].kinds) }
        }
        for (child, parent) in parents {
            if let station = stopIndex[parent] { feed.stops[child].kinds.formUnion(feed.stops[station].kinds) }
        }

        var shapePoints: [String: [(Double, Double)]] = [:]
        if hasShapes, !shapeKinds.isEmpty {
            var points: [String: [(Int, Double, Double)]] = [:]
            try Table.read(file("shapes.txt"), shownAs: shown("shapes.txt"), required: ["shape_id", "shape_pt_lat", "shape_pt_lon"]) {
                row in
                let shape = row.string("shape_id")
                guard shapeKinds[shape] != nil else { return }
                guard let latitude = row.double("shape_pt_lat"), let longitude = row.double("shape_pt_lon") else {
                    feed.skippedRows += 1; return
                }
                let sequence = row.int("shape_pt_sequence") ?? points[shape]?.count ?? 0
                points[shape, default: []].append((sequence, latitude, longitude))
            }
            for shape in points.keys.sorted() {
                let ordered = points[shape]!.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
                guard ordered.count >= 2 else { continue }
                shapePoints[shape] = ordered
                feed.corridors.append(Corridor(kinds: shapeKinds[shape]!, points: ordered))
                feed.shapesUsed += 1
            }
        }
        var patterns: [[Int]: TransitKinds] = [:]
        var ways: [PatternKey: [ScheduledTrip]] = [:]
        for (trip, calls) in sequences {
            let ordered = calls.sorted { $0.sequence < $1.sequence }
            let pattern = ordered.map(\.stop)
            guard pattern.count >= 2 else { continue }
            let shape = tripShape[trip].flatMap { shapePoints[$0] == nil ? nil : $0 }
            if shape == nil { patterns[pattern, default: []].formUnion(tripKinds[trip]!) }
            let route = tripRoute[trip]!
            ways[PatternKey(route: route.route, direction: route.direction, stops: pattern, shape: shape), default: []].append(
                ScheduledTrip(
                    id: trip, service: route.service, arrivals: ScheduledTrip.interpolated(ordered.map(\.arrival)),
                    departures: ScheduledTrip.interpolated(ordered.map(\.departure))))
        }
        feed.patterns = ways.keys.sorted().map { key in
            Pattern(
                route: key.route, direction: key.direction, stops: key.stops, timetable: ways[key]!.sorted { $0.id < $1.id },
                path: key.shape.flatMap { shapePoints[$0] }
                    ?? key.stops.map { (feed.stops[$0].latitudeDegrees, feed.stops[$0].longitudeDegrees) })
        }
        for pattern in patterns.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            feed.corridors.append(
                Corridor(
                    kinds: patterns[pattern]!, points: pattern.map { (feed.stops[$0].latitudeDegrees, feed.stops[$0].longitudeDegrees) }))
        }
        feed.stopPatterns = patterns.count
        return feed
    }

    /// How many stops serve each kind (a stop of two kinds counts in both).
    public var stopsPerKind: [TransitKind: Int] {
        var counts: [TransitKind: Int] = [:]
        for stop in stops { for kind in stop.kinds.kinds { counts[kind, default: 0] += 1 } }
        return counts
    }

    /// One line for the log: what the feed gave.
    public var summary: String {
        let kinds = stopsPerKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
        return "\(stops.count) stops (\(kinds.isEmpty ? "none served" : kinds)), \(corridors.count) corridors "
            + "(\(shapesUsed) shapes, \(stopPatterns) stop patterns), \(routes) routes"
            + (routesWithoutKind > 0 ? " (\(routesWithoutKind) of no rail, bus or ferry type, left out)" : "")
            + (skippedRows > 0 ? ", \(skippedRows) rows without coordinates or with unknown ids skipped" : "")
    }

    /// A GTFS table read row by row, columns found by name.
    struct Table {
        var columns: [String: Int]
        var fields: CSVFields
        var line: UnsafeBufferPointer<UInt8>
        /// The file, and the 1-based number of the line being read, for errors.
        var path = ""
        var number = 0

        func string(_ name: String) -> String {
            guard let index = columns[name], index < fields.count else { return "" }
            return fields.string(index, in: line)
        }

        func double(_ name: String) -> Double? {
            guard let index = columns[name], index < fields.count else { return nil }
            return fields.double(index, in: line) ?? Double(fields.string(index, in: line))
        }

        /// A GTFS time (`H:MM:SS` or `HH:MM:SS`, past `24:00:00` for a trip after midnight of its
        /// service day) as seconds from noon minus 12 h; nil when the field is empty, an error
        /// naming the line when it is not a time.
        func time(_ name: String) throws -> Int32? {
            let text = string(name)
            guard !text.isEmpty else { return nil }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let h = Int32(parts[0]), let m = Int32(parts[1]), let s = Int32(parts[2]), h >= 0, h < 200,
                (0..<60).contains(m), (0..<62).contains(s), parts[1].count == 2, parts[2].count == 2
            else {
                throw PipelineError(
                    .invalidTransitFeed, path: path, line: number, reason: "\(name) \"\(text)\" is not a time HH:MM:SS (GTFS \"Time\")")
            }
            return h * 3_600 + m * 60 + s
        }

        func int(_ name: String) -> Int? {
            double(name).flatMap { $0.isFinite && $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        }

        /// Calls `body` with each row of the file at `path` after its header; errors name it `shownAs`.
        static func read(_ path: String, shownAs: String? = nil, required: [String], _ body: (Table) throws -> Void) throws {
            let shown = shownAs ?? path
            var table = Table(columns: [:], fields: CSVFields(), line: UnsafeBufferPointer(start: nil, count: 0), path: shown)
            try LineReader(path: path).forEachLine { line, number in
                if number == 1 {
                    table.fields.split(line)
                    for index in 0..<table.fields.count {
                        var name = table.fields.string(index, in: line)
                        if index == 0, name.hasPrefix("\u{FEFF}") { name.removeFirst() } // a byte-order mark, as some agencies write
                        table.columns[name] = index
                    }
                    let missing = required.filter { table.columns[$0] == nil }
                    guard missing.isEmpty else {
                        throw PipelineError(
                            .invalidTransitFeed, path: shown, line: 1,
                            reason: "the header lacks \(missing.joined(separator: ", ")) (GTFS names them so); it has "
                                + table.columns.sorted { $0.value < $1.value }.map(\.key).joined(separator: ","))
                    }
                    return true
                }
                guard !line.isEmpty else { return true }
                table.fields.split(line)
                table.line = line
                table.number = number
                try body(table)
                return true
            }
        }
    }
}
