import MobilityCore
import Testing

@Suite struct GeofenceContainmentTests {
    func point(_ lon: Double, _ lat: Double) -> GeoPoint { GeoPoint(longitudeDegrees: lon, latitudeDegrees: lat) }

    @Test func circlesUseDistanceAndTheBuffer() {
        let fence = Geofence(
            id: "h", name: "Home", kind: "home", shape: .circle(latitudeDegrees: 48, longitudeDegrees: 2, radiusMeters: 100))
        let north90 = 48 + 90 / 111_195.0, north110 = 48 + 110 / 111_195.0
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: north90, longitudeDegrees: 2))
        #expect(!GeofenceContainment.contains(fence, latitudeDegrees: north110, longitudeDegrees: 2))
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: north110, longitudeDegrees: 2, bufferMeters: 20))
    }

    @Test func polygonsExcludeHoles() {
        let outer = [point(0, 0), point(10, 0), point(10, 10), point(0, 10), point(0, 0)]
        let hole = [point(4, 4), point(6, 4), point(6, 6), point(4, 6), point(4, 4)]
        let fence = Geofence(id: "z", name: "Zone", kind: "zone", shape: .polygon(rings: [outer, hole]))
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: 2, longitudeDegrees: 2))
        #expect(!GeofenceContainment.contains(fence, latitudeDegrees: 5, longitudeDegrees: 5))
        #expect(!GeofenceContainment.contains(fence, latitudeDegrees: 5, longitudeDegrees: 11))
    }

    @Test func multiPolygonsContainEachPart() {
        let a = [[point(0, 0), point(1, 0), point(1, 1), point(0, 1), point(0, 0)]]
        let b = [[point(5, 5), point(6, 5), point(6, 6), point(5, 6), point(5, 5)]]
        let fence = Geofence(id: "c", name: "Campus", kind: "work", shape: .multiPolygon(polygons: [a, b]))
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: 0.5, longitudeDegrees: 0.5))
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: 5.5, longitudeDegrees: 5.5))
        #expect(!GeofenceContainment.contains(fence, latitudeDegrees: 3, longitudeDegrees: 3))
    }

    @Test func concaveRingsAreHandled() {
        // A "U": the notch between the arms is outside.
        let u = [point(0, 0), point(3, 0), point(3, 3), point(2, 3), point(2, 1), point(1, 1), point(1, 3), point(0, 3), point(0, 0)]
        let fence = Geofence(id: "u", name: "U", kind: "zone", shape: .polygon(rings: [u]))
        #expect(!GeofenceContainment.contains(fence, latitudeDegrees: 2, longitudeDegrees: 1.5))
        #expect(GeofenceContainment.contains(fence, latitudeDegrees: 2, longitudeDegrees: 0.5))
    }
}
