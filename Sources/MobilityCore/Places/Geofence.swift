/// A named area whose entries and exits the product records (home, work, station, zone …).
public struct Geofence: Hashable, Sendable {
    public enum Shape: Hashable, Sendable {
        case circle(latitudeDegrees: Double, longitudeDegrees: Double, radiusMeters: Double)
        /// Rings of (longitude, latitude) pairs as in GeoJSON: the first is the outer boundary,
        /// the others holes.
        case polygon(rings: [[GeoPoint]])
        case multiPolygon(polygons: [[[GeoPoint]]])

        public var kindName: String {
            switch self {
            case .circle: "circle"
            case .polygon: "polygon"
            case .multiPolygon: "multipolygon"
            }
        }
    }

    public var id: String
    public var name: String
    /// Free text; the product gives meaning to `home`, `work`, `station`, `bus_stop`,
    /// `bike_station`, `charger` and `zone`.
    public var kind: String
    public var shape: Shape

    public init(id: String, name: String, kind: String, shape: Shape) {
        self.id = id
        self.name = name
        self.kind = kind
        self.shape = shape
    }
}

/// A longitude/latitude pair in degrees, GeoJSON order.
public struct GeoPoint: Hashable, Sendable {
    public var longitudeDegrees: Double
    public var latitudeDegrees: Double

    public init(longitudeDegrees: Double, latitudeDegrees: Double) {
        self.longitudeDegrees = longitudeDegrees
        self.latitudeDegrees = latitudeDegrees
    }
}
