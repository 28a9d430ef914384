import Features
import MobilityCore

/// The geofences that give GPS legs their transit context (`LegFeatures`): stations, stops and
/// rail corridors, by kind.
public enum TransitGeofences {
    /// Geofence kinds that are transit: `station` and `bus_stop` (as the trip stage's transfer
    /// kinds), `tram_stop`, and `rail` for a corridor drawn along a line.
    public static let kinds: Set<String> = ["station", "bus_stop", "tram_stop", "rail"]

    /// Leg features measuring the distance of a leg's ends from the nearest of `geofences`'
    /// transit fences; plain leg features (transit columns missing) when there is none.
    public static func legFeatures(_ geofences: [Geofence]) -> LegFeatures {
        var features = LegFeatures()
        let transit = geofences.filter { kinds.contains($0.kind) }
        guard !transit.isEmpty else { return features }
        features.transitDistanceMeters = { latitude, longitude in
            transit.reduce(Double.infinity) { nearest, fence in
                min(nearest, GeofenceContainment.distanceOutsideMeters(fence, latitudeDegrees: latitude, longitudeDegrees: longitude))
            }
        }
        return features
    }
}
