import Foundation
import MobilityCore

/// A planner's zones (districts, traffic analysis zones): polygons with an id and a name, from
/// a GeoJSON or GeoPackage layer (`--zones`), that the zone OD (`ZoneOD`) counts trips between.
///
/// A point belongs to the first zone, in the layer's order, whose polygon contains it (holes
/// excluded, `GeofenceContainment`); a point in none is outside the layer. Zones are meant not
/// to overlap; where they do, the layer's order decides, and the run says how many overlap.
public struct ZoneLayer: Sendable {
    public struct Zone: Sendable {
        public var id: String, name: String
        public var shape: Geofence.Shape
        /// Where the zone's desire lines start and end: the area-weighted centroid of its
        /// largest polygon's outer ring (in longitude/latitude as a plane, exact enough at city
        /// scale; for a crescent-shaped zone it may lie outside the zone).
        public var center: GeoPoint
        var box: (south: Double, west: Double, north: Double, east: Double)
    }

    /// Where the layer came from, as given.
    public var path: String
    public var zones: [Zone]
    /// Features that are no zone (another geometry type, no geometry), by 1-based feature
    /// number, with the reason: counted and said, never used.
    public var dropped: [(feature: Int, reason: String)]

    /// The zones of `fences` (polygons and multipolygons; a circle is dropped as no zone).
    /// Throws when no zone is left or two share an id.
    public init(path: String, fences: [(feature: Int, fence: Geofence)], dropped: [(feature: Int, reason: String)]) throws {
        self.path = path
        var dropped = dropped
        var zones: [Zone] = []
        var seen: [String: Int] = [:]
        for (feature, fence) in fences {
            guard let polygons = Self.polygons(fence.shape) else {
                dropped.append((feature, "a point, not a polygon"))
                continue
            }
            if let first = seen[fence.id] {
                throw PipelineError(
                    .invalidZoneLayer, path: path,
                    reason: "features \(first) and \(feature) share the zone id \(fence.id); zone ids must be unique")
            }
            seen[fence.id] = feature
            let outer = polygons.compactMap(\.first)
            let vertices = outer.flatMap { $0 }
            let largest = outer.max { abs(Self.signedArea($0)) < abs(Self.signedArea($1)) } ?? []
            zones.append(
                Zone(
                    id: fence.id, name: fence.name, shape: fence.shape, center: Self.centroid(largest),
                    box: (
                        vertices.map(\.latitudeDegrees).min() ?? 0, vertices.map(\.longitudeDegrees).min() ?? 0,
                        vertices.map(\.latitudeDegrees).max() ?? 0, vertices.map(\.longitudeDegrees).max() ?? 0
                    )))
        }
        guard !zones.isEmpty else {
            throw PipelineError(
                .invalidZoneLayer, path: path,
                reason: "no polygon zone in the layer (\(dropped.count) features dropped"
                    + (dropped.first.map { ": feature \($0.feature), \($0.reason)" } ?? "") + ")")
        }
        (self.zones, self.dropped) = (zones, dropped.sorted { $0.feature < $1.feature })
    }

    /// A shape's polygons (each its outer ring, then its holes); nil for a circle, which is no zone.
    static func polygons(_ shape: Geofence.Shape) -> [[[GeoPoint]]]? {
        switch shape {
        case .polygon(let rings): [rings]
        case .multiPolygon(let list): list
        case .circle: nil
        }
    }

    /// The index of the first zone that contains the point, or nil.
    public func zone(latitudeDegrees lat: Double, longitudeDegrees lon: Double) -> Int? {
        zones.firstIndex { zone in
            lat >= zone.box.south && lat <= zone.box.north && lon >= zone.box.west && lon <= zone.box.east
                && GeofenceContainment.contains(
                    Geofence(id: zone.id, name: zone.name, kind: "zone", shape: zone.shape), latitudeDegrees: lat, longitudeDegrees: lon)
        }
    }

    /// Twice the signed area of a closed ring (shoelace), degrees².
    static func signedArea(_ ring: [GeoPoint]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) {
            $0 + $1.0.longitudeDegrees * $1.1.latitudeDegrees - $1.1.longitudeDegrees * $1.0.latitudeDegrees
        }
    }

    /// The area-weighted centroid of a closed ring; its vertices' mean where it has no area.
    static func centroid(_ ring: [GeoPoint]) -> GeoPoint {
        let area = signedArea(ring)
        guard abs(area) > 1e-18, !ring.isEmpty else {
            let n = Double(max(ring.count, 1))
            return GeoPoint(
                longitudeDegrees: ring.reduce(0) { $0 + $1.longitudeDegrees } / n,
                latitudeDegrees: ring.reduce(0) { $0 + $1.latitudeDegrees } / n)
        }
        var (x, y) = (0.0, 0.0)
        for (a, b) in zip(ring, ring.dropFirst()) {
            let cross = a.longitudeDegrees * b.latitudeDegrees - b.longitudeDegrees * a.latitudeDegrees
            x += (a.longitudeDegrees + b.longitudeDegrees) * cross
            y += (a.latitudeDegrees + b.latitudeDegrees) * cross
        }
        return GeoPoint(longitudeDegrees: x / (3 * area), latitudeDegrees: y / (3 * area))
    }
}
