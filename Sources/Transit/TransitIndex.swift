import Foundation
import MobilityCore

/// A feed's stops and corridors in a uniform grid, so a leg's questions (how far is the
/// nearest rail stop, which corridors pass within 30 m, which bus stops are near) cost a few
/// cells each whatever the size of the feed: a city feed has 10,000+ stops and thousands of
/// shapes, and a leg asks once per fix.
///
/// Cells are `cellMeters` square in an equirectangular projection at the feed's middle
/// latitude; corridors are cut into pieces no longer than a cell and each piece is filed in
/// every cell its bounding box, widened by `maxCorridorMeters`, touches. Distances themselves
/// are measured on the sphere's local tangent plane at the query point (error below 0.1 % at
/// these ranges), not in the grid's projection; the grid only picks the candidates, with a
/// margin for the projection's scale away from the middle latitude.
public struct TransitIndex: Sendable {
    public static let cellMeters = 250.0
    /// Widest corridor a query may ask for, metres.
    public static let maxCorridorMeters = 100.0
    /// Nearest-stop searches stop here, metres: a farther stop is reported as this far.
    public static let maxSearchMeters = 2_000.0

    public let stops: [GTFSFeed.Stop]
    /// The feeds' names, in the order their `Stop.feed` and `Corridor.feed` count.
    public let feedNames: [String]
    /// Every feed's routes, with their feed and agency (`TransitLine`).
    public let lines: [Line]
    /// Each feed's agencies and calendars, and the calendar of its `agency_timezone` (UTC when it
    /// names no zone known), in the order of `feedNames`.
    public let services: [GTFSService]
    let clocks: [CalendarKeys]
    /// Every feed's patterns, their stops as indices into `stops` and `route` into `lines`.
    public let patterns: [GTFSFeed.Pattern]
    /// Per pattern, per stop, the index of the point of its path nearest the stop, never before
    /// the previous stop's: where on the path the pattern calls at each stop.
    let stopPoints: [[Int]]
    /// Per stop (index into `stops`), each pattern that calls at it and the stop's place in it.
    let calls: [[(pattern: Int32, position: Int32)]]

    /// A route of one of the feeds.
    public struct Line: Sendable, Hashable {
        public var feed: Int
        /// `agency_name` of the route's `agency_id`, or of the feed's one agency.
        public var agency: String
        public var route: GTFSFeed.Route
    }
    /// Corridor pieces: start and end latitude, longitude, and kinds.
    private var pieces: [(Double, Double, Double, Double, TransitKinds)] = []
    /// Each piece's feed.
    private var pieceFeeds: [Int32] = []
    private var stopCells: [Int64: [Int32]] = [:]
    private var pieceCells: [Int64: [Int32]] = [:]
    private let originLatitude: Double
    private let metresPerDegreeLatitude = Geodesy.earthRadiusMeters * .pi / 180
    private let metresPerDegreeLongitude: Double
    /// How much wider a search must be in the grid than on the ground, for the feed's latitudes.
    private let margin: Double

    public init(_ feed: GTFSFeed) { self.init(feeds: [feed]) }

    /// One index of several feeds (a region's agencies): each stop and corridor keeps its feed,
    /// so two agencies' equal `stop_id`s stay two stops.
    public init(feeds: [GTFSFeed]) {
        feedNames = feeds.map(\.name)
        services = feeds.map(\.service)
        clocks = feeds.map { feed in feed.service.timeZone.flatMap { CalendarKeys(zone: $0) } ?? CalendarKeys() }
        var stops: [GTFSFeed.Stop] = [], lines: [Line] = [], patterns: [GTFSFeed.Pattern] = []
        for (number, feed) in feeds.enumerated() {
            var global: [Int: Int] = [:]
            for (index, stop) in feed.stops.enumerated() where !stop.kinds.isEmpty {
                global[index] = stops.count
                stops.append(stop)
                stops[stops.count - 1].feed = number
            }
            let agencies = Dictionary(feed.service.agencies.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let firstLine = lines.count
            for route in feed.lines {
                let agency = agencies[route.agencyID] ?? (feed.service.agencies.count == 1 ? feed.service.agencies[0].name : "")
                lines.append(Line(feed: number, agency: agency, route: route))
            }
            for var pattern in feed.patterns {
                pattern.route += firstLine
                // Every called stop is served, so none drops out; were one to, the times would no longer line up by stop.
                let served = pattern.stops.compactMap { global[$0] }
                guard served.count == pattern.stops.count, served.count >= 2 else { continue }
                pattern.stops = served
                patterns.append(pattern)
            }
        }
        (self.stops, self.lines, self.patterns) = (stops, lines, patterns)
        var calls = [[(pattern: Int32, position: Int32)]](repeating: [], count: stops.count)
        stopPoints = patterns.enumerated().map { number, pattern in
            var from = 0
            return pattern.stops.enumerated().map { position, stop in
                calls[stop].append((Int32(number), Int32(position)))
                let here = stops[stop]
                var best = from, bestMeters = Double.infinity
                for point in from..<pattern.path.count {
                    let meters = Self.planarMeters(
                        here.latitudeDegrees, here.longitudeDegrees, pattern.path[point].0, pattern.path[point].1)
                    if meters < bestMeters { (best, bestMeters) = (point, meters) }
                }
                from = best
                return best
            }
        }
        self.calls = calls
        let corridors = feeds.enumerated().flatMap { number, feed in
            feed.corridors.map { corridor in
                var corridor = corridor
                corridor.feed = number
                return corridor
            }
        }
        let latitudes = stops.map(\.latitudeDegrees) + corridors.flatMap { $0.points.map(\.0) }
        let low = latitudes.min() ?? 0, high = latitudes.max() ?? 0
        originLatitude = (low + high) / 2
        metresPerDegreeLongitude = metresPerDegreeLatitude * max(0.01, cos(originLatitude * .pi / 180))
        let poleward = max(abs(low), abs(high)) * .pi / 180
        margin = max(1, cos(originLatitude * .pi / 180) / max(0.01, cos(min(poleward, 89 * .pi / 180))))
        for (index, stop) in stops.enumerated() {
            stopCells[key(cell(stop.latitudeDegrees, stop.longitudeDegrees)), default: []].append(Int32(index))
        }
        for corridor in corridors {
            for (a, b) in zip(corridor.points, corridor.points.dropFirst()) {
                let length = Self.planarMeters(a.0, a.1, b.0, b.1)
                let parts = max(1, Int((length / Self.cellMeters).rounded(.up)))
                for part in 0..<parts {
                    let f0 = Double(part) / Double(parts), f1 = Double(part + 1) / Double(parts)
                    let p = (a.0 + (b.0 - a.0) * f0, a.1 + (b.1 - a.1) * f0), q = (a.0 + (b.0 - a.0) * f1, a.1 + (b.1 - a.1) * f1)
                    let number = Int32(pieces.count)
                    pieces.append((p.0, p.1, q.0, q.1, corridor.kinds))
                    pieceFeeds.append(Int32(corridor.feed))
                    let reach = Self.maxCorridorMeters * margin
                    let (r0, c0) = cell(min(p.0, q.0), min(p.1, q.1), widenedBy: -reach)
                    let (r1, c1) = cell(max(p.0, q.0), max(p.1, q.1), widenedBy: reach)
                    for row in r0...r1 { for column in c0...c1 { pieceCells[key((row, column)), default: []].append(number) } }
                }
            }
        }
    }

    public var corridorPieces: Int { pieces.count }

    private func cell(_ latitude: Double, _ longitude: Double, widenedBy metres: Double = 0) -> (Int, Int) {
        (
            Int(((latitude * metresPerDegreeLatitude + metres) / Self.cellMeters).rounded(.down)),
            Int(((longitude * metresPerDegreeLongitude + metres) / Self.cellMeters).rounded(.down))
        )
    }

    private func key(_ cell: (Int, Int)) -> Int64 { Int64(cell.0) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: cell.1))) }

    /// Metres between two nearby positions on the tangent plane at the first.
    static func planarMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let scale = Geodesy.earthRadiusMeters * .pi / 180
        let x = (lon2 - lon1) * scale * cos(lat1 * .pi / 180), y = (lat2 - lat1) * scale
        return (x * x + y * y).squareRoot()
    }

    /// Calls `body` with every entry filed in the cells within `metres` of the position.
    private func candidates(
        _ cells: [Int64: [Int32]], _ latitude: Double, _ longitude: Double, within metres: Double, _ body: (Int32) -> Void
    ) {
        let reach = metres * margin
        let (r0, c0) = cell(latitude, longitude, widenedBy: -reach), (r1, c1) = cell(latitude, longitude, widenedBy: reach)
        for row in r0...r1 { for column in c0...c1 { cells[key((row, column))]?.forEach(body) } }
    }

    /// Metres to the nearest stop of `kind`, at most `maxSearchMeters`.
    public func nearestStopMeters(_ latitude: Double, _ longitude: Double, kind: TransitKind) -> Double {
        var best = Self.maxSearchMeters
        for radius in [Self.cellMeters, Self.maxSearchMeters] {
            candidates(stopCells, latitude, longitude, within: radius) { index in
                let stop = stops[Int(index)]
                guard stop.kinds.contains(kind) else { return }
                best = min(best, Self.planarMeters(latitude, longitude, stop.latitudeDegrees, stop.longitudeDegrees))
            }
            if best <= radius { break }
        }
        return best
    }

    /// The stops of `kind` within `metres` (indices into `stops`).
    public func stops(near latitude: Double, _ longitude: Double, within metres: Double, kind: TransitKind) -> [Int] {
        var found: [Int] = []
        candidates(stopCells, latitude, longitude, within: metres) { index in
            let stop = stops[Int(index)]
            if stop.kinds.contains(kind), Self.planarMeters(latitude, longitude, stop.latitudeDegrees, stop.longitudeDegrees) <= metres {
                found.append(Int(index))
            }
        }
        return found
    }

    /// The kinds of the corridors that pass within `metres` (at most `maxCorridorMeters`).
    public func corridorKinds(_ latitude: Double, _ longitude: Double, within metres: Double) -> TransitKinds {
        corridors(latitude, longitude, within: metres, feeds: false).kinds
    }

    /// The kinds of the corridors that pass within `metres` (at most `maxCorridorMeters`) and,
    /// with `feeds`, the feeds they belong to (each once, in no order).
    public func corridors(_ latitude: Double, _ longitude: Double, within metres: Double, feeds: Bool = true)
        -> (kinds: TransitKinds, feeds: [Int])
    {
        var kinds = TransitKinds(), found: [Int] = []
        let metres = min(metres, Self.maxCorridorMeters)
        let cosine = cos(latitude * .pi / 180) // once per position, not per piece
        let scale = Geodesy.earthRadiusMeters * .pi / 180
        let reachLatitude = metres / scale, reachLongitude = metres / (scale * max(cosine, 1e-6))
        candidates(pieceCells, latitude, longitude, within: metres) { index in
            let piece = pieces[Int(index)], feed = Int(pieceFeeds[Int(index)])
            guard !kinds.isSuperset(of: piece.4) || (feeds && !found.contains(feed)) else { return }
            // Both ends beyond reach on one side: the piece cannot pass within `metres`.
            if min(piece.0, piece.2) > latitude + reachLatitude || max(piece.0, piece.2) < latitude - reachLatitude
                || min(piece.1, piece.3) > longitude + reachLongitude || max(piece.1, piece.3) < longitude - reachLongitude
            {
                return
            }
            if Self.segmentMeters(latitude, longitude, piece, cosine: cosine) <= metres {
                kinds.formUnion(piece.4)
                if feeds, !found.contains(feed) { found.append(feed) }
            }
        }
        return (kinds, found)
    }

    /// Metres from a position to a piece, on the tangent plane at the position; `cosine` is
    /// the cosine of the position's latitude.
    static func segmentMeters(
        _ latitude: Double, _ longitude: Double, _ piece: (Double, Double, Double, Double, TransitKinds),
        cosine: Double
    ) -> Double {
        let scale = Geodesy.earthRadiusMeters * .pi / 180
        let ax = (piece.1 - longitude) * scale * cosine, ay = (piece.0 - latitude) * scale
        let bx = (piece.3 - longitude) * scale * cosine, by = (piece.2 - latitude) * scale
        let dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length2)) : 0
        let x = ax + t * dx, y = ay + t * dy
        return (x * x + y * y).squareRoot()
    }
}
