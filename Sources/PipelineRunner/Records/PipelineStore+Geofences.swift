import Foundation
import Ingest
import MobilityCore
import Store

extension PipelineStore {
    /// The geofences of every ingested file, by id; when two files define one id, the later
    /// file's wins (a stored shape that no longer reads as a geofence leaves the earlier one).
    public func geofences() throws -> [Geofence] {
        var byID: [String: Geofence] = [:]
        for row in try geofenceRows() {
            if let lat = row.centerLatitudeDegrees, let lon = row.centerLongitudeDegrees, let radius = row.radiusMeters {
                byID[row.id] = Geofence(
                    id: row.id, name: row.name, kind: row.kind,
                    shape: .circle(latitudeDegrees: lat, longitudeDegrees: lon, radiusMeters: radius))
            } else if let text = row.geometryGeoJSON,
                let geometry = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let fence = GeofenceReader.geofence(
                    [
                        "id": row.id, "geometry": geometry,
                        "properties": ["name": row.name, "kind": row.kind]
                    ], index: 0)
            {
                byID[row.id] = fence
            }
        }
        return byID.keys.sorted().map { byID[$0]! }
    }
}
