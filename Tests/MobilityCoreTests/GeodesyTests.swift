import MobilityCore
import Testing

@Suite struct GeodesyTests {
    @Test func oneDegreeOfLatitudeIsAbout111Kilometres() {
        let meters = Geodesy.haversineMeters(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0)
        #expect(abs(meters - 111_195) < 1)
    }

    @Test func parisToLondonIsAbout344Kilometres() {
        let meters = Geodesy.haversineMeters(latitude1: 48.8566, longitude1: 2.3522, latitude2: 51.5074, longitude2: -0.1278)
        #expect(abs(meters - 343_900) < 1_000)
    }

    @Test func distanceIsSymmetricAndZeroOnItself() {
        let a = PositionFix(time: nil, latitudeDegrees: 45, longitudeDegrees: 7)
        let b = PositionFix(time: nil, latitudeDegrees: 45.01, longitudeDegrees: 7.02)
        #expect(Geodesy.distanceMeters(a, a) == 0)
        #expect(Geodesy.distanceMeters(a, b) == Geodesy.distanceMeters(b, a))
    }
}

@Suite struct EquirectangularTests {
    @Test func agreesWithHaversineWithinATenthOfAPercentUnderTenKilometres() {
        for (lat, dLat, dLon) in [(48.0, 0.01, 0.02), (-33.9, -0.05, 0.07), (64.1, 0.03, -0.08), (0.5, 0.0, 0.09)] {
            let exact = Geodesy.haversineMeters(latitude1: lat, longitude1: 2, latitude2: lat + dLat, longitude2: 2 + dLon)
            let quick = Geodesy.equirectangularMeters(latitude1: lat, longitude1: 2, latitude2: lat + dLat, longitude2: 2 + dLon)
            #expect(abs(quick - exact) / exact < 1e-3, "\(lat) \(dLat) \(dLon)")
        }
    }
}
