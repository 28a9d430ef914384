import Foundation

/// Whether a position lies inside a geofence: great-circle distance for circles, even-odd ray
/// casting for polygons (holes excluded) and multipolygons.
///
/// Ray casting works on longitude/latitude as a plane, which is exact enough for
/// geofences of city scale (a few kilometres) away from the poles and the antimeridian.
///
/// - Complexity: O(v) in the number of polygon vertices; O(1) for circles.
public enum GeofenceContainment {
    /// `bufferMeters` widens the fence by that distance (for exit hysteresis by fix accuracy).
    public static func contains(
        _ fence: Geofence, latitudeDegrees: Double, longitudeDegrees: Double,
        bufferMeters: Double = 0
    ) -> Bool {
        if bufferMeters > 0 {
            return distanceOutsideMeters(fence, latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees) <= bufferMeters
        }
        switch fence.shape {
        case .circle(let lat, let lon, let radius):
            return Geodesy.haversineMeters(
                latitude1: lat, longitude1: lon, latitude2: latitudeDegrees,
                longitude2: longitudeDegrees) <= radius + bufferMeters
        case .polygon(let rings):
            return polygonContains(rings, GeoPoint(longitudeDegrees: longitudeDegrees, latitudeDegrees: latitudeDegrees))
        case .multiPolygon(let polygons):
            let point = GeoPoint(longitudeDegrees: longitudeDegrees, latitudeDegrees: latitudeDegrees)
            return polygons.contains { polygonContains($0, point) }
        }
    }

    /// How far outside the fence a position lies, metres: 0 inside, the distance beyond the
    /// radius for circles, the distance to the nearest polygon edge otherwise (edges measured
    /// in a local equirectangular plane, exact enough at city scale).
    public static func distanceOutsideMeters(_ fence: Geofence, latitudeDegrees: Double, longitudeDegrees: Double) -> Double {
        switch fence.shape {
        case .circle(let lat, let lon, let radius):
            let distance = Geodesy.haversineMeters(
                latitude1: lat, longitude1: lon, latitude2: latitudeDegrees,
                longitude2: longitudeDegrees)
            return max(0, distance - radius)
        case .polygon(let rings):
            return polygonDistanceOutside([rings], latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
        case .multiPolygon(let polygons):
            return polygonDistanceOutside(polygons, latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
        }
    }

    static func polygonDistanceOutside(_ polygons: [[[GeoPoint]]], latitudeDegrees: Double, longitudeDegrees: Double) -> Double {
        let point = GeoPoint(longitudeDegrees: longitudeDegrees, latitudeDegrees: latitudeDegrees)
        if polygons.contains(where: { polygonContains($0, point) }) { return 0 }
        let radians = Double.pi / 180
        let metresPerDegreeLatitude = Geodesy.earthRadiusMeters * radians
        let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(latitudeDegrees * radians)
        func local(_ vertex: GeoPoint) -> SIMD2<Double> {
            SIMD2(
                (vertex.longitudeDegrees - longitudeDegrees) * metresPerDegreeLongitude,
                (vertex.latitudeDegrees - latitudeDegrees) * metresPerDegreeLatitude)
        }
        var nearest = Double.infinity
        for ring in polygons.joined() {
            var previous = local(ring.last!)
            for vertex in ring {
                let current = local(vertex)
                nearest = min(nearest, distanceFromOrigin(toSegment: previous, current))
                previous = current
            }
        }
        return nearest
    }

    /// Distance from (0, 0) to the segment a-b.
    static func distanceFromOrigin(toSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let edge = b - a
        let lengthSquared = (edge * edge).sum()
        let t = lengthSquared == 0 ? 0 : min(1, max(0, -(a * edge).sum() / lengthSquared))
        let closest = a + t * edge
        return (closest * closest).sum().squareRoot()
    }

    /// Inside the outer ring and outside every hole.
    static func polygonContains(_ rings: [[GeoPoint]], _ point: GeoPoint) -> Bool {
        guard let outer = rings.first, ringContains(outer, point) else { return false }
        return !rings.dropFirst().contains { ringContains($0, point) }
    }

    /// Even-odd rule: a ray from the point towards +longitude crosses the ring an odd number of times.
    static func ringContains(_ ring: [GeoPoint], _ point: GeoPoint) -> Bool {
        var inside = false
        var previous = ring.last!
        for vertex in ring {
            let crosses = (vertex.latitudeDegrees > point.latitudeDegrees) != (previous.latitudeDegrees > point.latitudeDegrees)
            if crosses {
                let longitudeAtLatitude =
                    vertex.longitudeDegrees + (point.latitudeDegrees - vertex.latitudeDegrees)
                    * (previous.longitudeDegrees - vertex.longitudeDegrees) / (previous.latitudeDegrees - vertex.latitudeDegrees)
                if point.longitudeDegrees < longitudeAtLatitude { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }
}
