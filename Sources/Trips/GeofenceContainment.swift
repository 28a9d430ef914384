import MobilityCore

/// Whether a position lies inside a geofence: great-circle distance for circles, even-odd ray
/// casting for polygons (holes excluded) and multipolygons.
///
/// Ray casting works on longitude/latitude as a plane, which is exact enough for
/// geofences of city scale (a few kilometres) away from the poles and the antimeridian.
///
/// - Complexity: O(v) in the number of polygon vertices; O(1) for circles.
public enum GeofenceContainment {
    /// `bufferMeters` widens circles (for exit hysteresis by fix accuracy); polygons ignore it.
    public static func contains(_ fence: Geofence, latitudeDegrees: Double, longitudeDegrees: Double,
                                bufferMeters: Double = 0) -> Bool {
        switch fence.shape {
        case .circle(let lat, let lon, let radius):
            return Geodesy.haversineMeters(latitude1: lat, longitude1: lon, latitude2: latitudeDegrees,
                                           longitude2: longitudeDegrees) <= radius + bufferMeters
        case .polygon(let rings):
            return polygonContains(rings, GeoPoint(longitudeDegrees: longitudeDegrees, latitudeDegrees: latitudeDegrees))
        case .multiPolygon(let polygons):
            let point = GeoPoint(longitudeDegrees: longitudeDegrees, latitudeDegrees: latitudeDegrees)
            return polygons.contains { polygonContains($0, point) }
        }
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
                let longitudeAtLatitude = vertex.longitudeDegrees + (point.latitudeDegrees - vertex.latitudeDegrees)
                    * (previous.longitudeDegrees - vertex.longitudeDegrees) / (previous.latitudeDegrees - vertex.latitudeDegrees)
                if point.longitudeDegrees < longitudeAtLatitude { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }
}
