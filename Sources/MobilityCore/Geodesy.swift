import Foundation

/// Distances on the WGS 84 mean sphere.
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance by the haversine formula, metres. Error under 0.5 % against the
    /// ellipsoid, far below GPS noise at the scales this product works on.
    public static func haversineMeters(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * radians
        let dLon = (longitude2 - longitude1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    public static func distanceMeters(_ a: PositionFix, _ b: PositionFix) -> Double {
        haversineMeters(
            latitude1: a.latitudeDegrees, longitude1: a.longitudeDegrees,
            latitude2: b.latitudeDegrees, longitude2: b.longitudeDegrees)
    }
}
