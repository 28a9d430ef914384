import Foundation

/// A latitude/longitude box around a geofence, widened by a margin: a cheap test that rules
/// out most fixes before the exact one.
package struct FenceBox: Sendable {
    var minimumLatitude: Double, maximumLatitude: Double
    var minimumLongitude: Double, maximumLongitude: Double

    package init(_ fence: Geofence, marginMeters: Double) {
        let metresPerDegree = Geodesy.earthRadiusMeters * .pi / 180
        var vertices: [GeoPoint]
        var reach = marginMeters
        switch fence.shape {
        case .circle(let lat, let lon, let radius):
            vertices = [GeoPoint(longitudeDegrees: lon, latitudeDegrees: lat)]
            reach += radius
        case .polygon(let rings):
            vertices = rings.first ?? []
        case .multiPolygon(let polygons):
            vertices = polygons.compactMap(\.first).flatMap { $0 }
        }
        let latitudes = vertices.map(\.latitudeDegrees), longitudes = vertices.map(\.longitudeDegrees)
        // 1.01: a little slack over the spherical approximation.
        let latitudeMargin = 1.01 * reach / metresPerDegree
        let maximumAbsoluteLatitude = min(89.0, (latitudes.map(abs).max() ?? 0) + latitudeMargin)
        let longitudeMargin = 1.01 * reach / (metresPerDegree * cos(maximumAbsoluteLatitude * .pi / 180))
        minimumLatitude = (latitudes.min() ?? 0) - latitudeMargin
        maximumLatitude = (latitudes.max() ?? 0) + latitudeMargin
        minimumLongitude = (longitudes.min() ?? 0) - longitudeMargin
        maximumLongitude = (longitudes.max() ?? 0) + longitudeMargin
    }

    @inline(__always)
    package func mayContain(_ point: TrackPoint) -> Bool {
        point.latitudeDegrees >= minimumLatitude && point.latitudeDegrees <= maximumLatitude
            && point.longitudeDegrees >= minimumLongitude && point.longitudeDegrees <= maximumLongitude
    }
}
