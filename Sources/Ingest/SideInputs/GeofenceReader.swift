import Foundation
import MobilityCore

/// Reads geofences from GeoJSON (Polygon, MultiPolygon, and Point with a `radius_m` property)
/// or from a CSV of circles `id,name,kind,lat,lon,radius_m`.
///
/// Features that cannot be used (another geometry type, a Point without a radius, bad
/// coordinates) are dropped and counted; a file that is not JSON is an `InputError`.
public enum GeofenceReader {
    public static let csvColumns = ["id", "name", "kind", "lat", "lon", "radius_m"]

    public static func isCSVHeader(_ header: [String]) -> Bool {
        Set(header.map { $0.lowercased() }).isSuperset(of: ["lat", "lon", "radius_m"])
    }

    public static func readCSV(path: String, dropped: inout DropCounts) throws -> [Geofence] {
        var fences: [Geofence] = []
        try NamedColumnsCSV.forEachRow(path: path) { row in
            guard let lat = row.value("lat").flatMap(NumberParser.double), let lon = row.value("lon").flatMap(NumberParser.double),
                let radius = row.value("radius_m").flatMap(NumberParser.double)
            else {
                return dropped.record(.malformedRow, line: row.line)
            }
            guard abs(lat) <= 90, abs(lon) <= 180, radius > 0 else { return dropped.record(.invalidCoordinate, line: row.line) }
            let id = row.value("id") ?? "line\(row.line)"
            fences.append(
                Geofence(
                    id: id, name: row.value("name") ?? id, kind: row.value("kind") ?? "zone",
                    shape: .circle(latitudeDegrees: lat, longitudeDegrees: lon, radiusMeters: radius)))
        }
        return fences
    }

    public static func readGeoJSON(path: String, dropped: inout DropCounts) throws -> [Geofence] {
        try features(path: path).enumerated().compactMap { index, feature in
            if let fence = geofence(feature, index: index) { return fence }
            dropped.record(.malformedRow, line: index + 1)
            return nil
        }
    }

    /// The features of a GeoJSON FeatureCollection (or of one Feature), as parsed.
    public static func features(path: String) throws -> [[String: Any]] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(.unreadable, "cannot read the file: \(error.localizedDescription)", path: path)
        }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw InputError(.badJSON, "not valid JSON (\(error.localizedDescription)); expected a GeoJSON FeatureCollection", path: path)
        }
        let features: [[String: Any]]
        if let object = root as? [String: Any], object["type"] as? String == "FeatureCollection" {
            features = object["features"] as? [[String: Any]] ?? []
        } else if let object = root as? [String: Any], object["type"] as? String == "Feature" {
            features = [object]
        } else {
            throw InputError(.badJSON, "expected a GeoJSON FeatureCollection or Feature at the top level", path: path)
        }
        return features
    }

    /// One feature as a geofence; `index` (0-based) names it when it has no id. The id is the
    /// feature's `id`, else its property `idProperty`; the name its property `nameProperty`.
    public static func geofence(_ feature: [String: Any], index: Int, idProperty: String = "id", nameProperty: String = "name")
        -> Geofence?
    {
        let properties = feature["properties"] as? [String: Any] ?? [:]
        guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else { return nil }
        let id =
            (idProperty == "id" ? text(feature["id"]) ?? text(properties["id"]) : text(properties[idProperty]))
            ?? "feature\(index + 1)"
        let name = text(properties[nameProperty]) ?? id
        let kind = text(properties["kind"]) ?? "zone"
        let shape: Geofence.Shape
        switch type {
        case "Point":
            guard let point = position(geometry["coordinates"]),
                let radius = (properties["radius_m"] as? NSNumber)?.doubleValue
                    ?? text(properties["radius_m"]).flatMap(NumberParser.double),
                radius > 0
            else { return nil }
            shape = .circle(latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees, radiusMeters: radius)
        case "Polygon":
            guard let rings = polygon(geometry["coordinates"]) else { return nil }
            shape = .polygon(rings: rings)
        case "MultiPolygon":
            guard let list = geometry["coordinates"] as? [Any] else { return nil }
            let polygons = list.compactMap(polygon)
            guard polygons.count == list.count, !polygons.isEmpty else { return nil }
            shape = .multiPolygon(polygons: polygons)
        default:
            return nil
        }
        return Geofence(id: id, name: name, kind: kind, shape: shape)
    }

    static func text(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }

    private static func position(_ value: Any?) -> GeoPoint? {
        guard let pair = value as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
            let lat = (pair[1] as? NSNumber)?.doubleValue, abs(lat) <= 90, abs(lon) <= 180
        else { return nil }
        return GeoPoint(longitudeDegrees: lon, latitudeDegrees: lat)
    }

    private static func polygon(_ value: Any?) -> [[GeoPoint]]? {
        guard let rings = value as? [Any], !rings.isEmpty else { return nil }
        let parsed = rings.map { ring in (ring as? [Any])?.compactMap(position) ?? [] }
        guard parsed.allSatisfy({ $0.count >= 4 }), parsed.count == rings.count else { return nil }
        return parsed
    }
}
