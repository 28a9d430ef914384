import Foundation
import MobilityCore

/// Reads a zone layer's features from GeoJSON (RFC 7946: coordinates are WGS 84 longitude and
/// latitude): Polygon and MultiPolygon features with an id property (a Feature's own `id` too
/// when the property is `id`) and an optional name property. Other features are returned as
/// dropped, with their number and why. A feature without the id property stops the read with
/// a message naming `idOption`, the option that names another property.
public enum ZoneLayerReader {
    public static func geoJSON(path: String, idProperty: String, nameProperty: String, idOption: String = "--zone-id") throws -> (
        fences: [(feature: Int, fence: Geofence)], dropped: [(feature: Int, reason: String)]
    ) {
        let features: [[String: Any]]
        do { features = try GeofenceReader.features(path: path) } catch let error as InputError {
            throw PipelineError(.invalidZoneLayer, path: path, reason: error.message)
        }
        var fences: [(Int, Geofence)] = []
        var dropped: [(Int, String)] = []
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let id = GeofenceReader.text(properties[idProperty]) ?? (idProperty == "id" ? GeofenceReader.text(feature["id"]) : nil)
            guard id != nil else {
                let names = properties.keys.sorted().joined(separator: ", ")
                throw PipelineError(
                    .invalidZoneLayer, path: path,
                    reason:
                        "feature \(index + 1) has no property \(idProperty) (its properties: \(names.isEmpty ? "none" : names)); name the id property with \(idOption)"
                )
            }
            guard let fence = GeofenceReader.geofence(feature, index: index, idProperty: idProperty, nameProperty: nameProperty) else {
                let type = (feature["geometry"] as? [String: Any])?["type"] as? String
                dropped.append(
                    (index + 1, type.map { "a \($0), not a Polygon or MultiPolygon with rings of 4 positions or more" } ?? "no geometry"))
                continue
            }
            fences.append((index + 1, fence))
        }
        return (fences, dropped)
    }
}
