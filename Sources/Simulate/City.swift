import Foundation
import MobilityCore

/// A point of the simulated city, in metres east and north of its centre.
public struct LocalPoint: Hashable, Sendable {
    public var east: Double
    public var north: Double

    public init(east: Double, north: Double) {
        self.east = east
        self.north = north
    }

    public func distance(to other: LocalPoint) -> Double { hypot(other.east - east, other.north - north) }

    /// The point `fraction` of the way to `other`.
    public func toward(_ other: LocalPoint, fraction: Double) -> LocalPoint {
        LocalPoint(east: east + (other.east - east) * fraction, north: north + (other.north - north) * fraction)
    }
}

/// A named place people stay at; each has a geofence (a circle, or a square for shops).
public struct Place: Hashable, Sendable {
    public enum Kind: String, Sendable { case home, work, shop, station }

    public var id: String
    public var name: String
    public var kind: Kind
    public var position: LocalPoint
    /// Circle radius, or half the side of a shop's square, metres.
    public var radiusMeters: Double
}

/// The small synthetic city: a centre, homes (one per device), workplaces, shops, and a rail
/// line with a station in the centre and one in a satellite town 15 km to the south-west.
/// Local metres map to degrees with a flat-earth projection about the centre, exact to well
/// under a metre over the city's 20 km.
public struct City: Sendable {
    public var centerLatitudeDegrees = 48.8566
    public var centerLongitudeDegrees = 2.3522
    public var works: [Place] = []
    public var shops: [Place] = []
    public var stations: [Place] = []

    static let metersPerDegreeLatitude = 111_195.0

    public init() {
        works = [
            Place(id: "work-tower", name: "Tower offices", kind: .work, position: .init(east: 600, north: 900), radiusMeters: 80),
            Place(id: "work-campus", name: "University campus", kind: .work, position: .init(east: -1400, north: 500), radiusMeters: 120),
            Place(id: "work-hospital", name: "Hospital", kind: .work, position: .init(east: 900, north: -1300), radiusMeters: 100)
        ]
        shops = [
            Place(id: "shop-market", name: "Covered market", kind: .shop, position: .init(east: 150, north: 250), radiusMeters: 40),
            Place(id: "shop-mall", name: "Mall", kind: .shop, position: .init(east: -300, north: -900), radiusMeters: 70)
        ]
        stations = [
            Place(
                id: "station-central", name: "Central station", kind: .station, position: .init(east: 300, north: -200), radiusMeters: 100),
            Place(id: "station-south", name: "Southville", kind: .station, position: .init(east: -9000, north: -12000), radiusMeters: 100)
        ]
    }

    public func coordinates(_ point: LocalPoint) -> (latitude: Double, longitude: Double) {
        let latitude = centerLatitudeDegrees + point.north / Self.metersPerDegreeLatitude
        let longitude =
            centerLongitudeDegrees
            + point.east / (Self.metersPerDegreeLatitude * cos(centerLatitudeDegrees * .pi / 180))
        return (latitude, longitude)
    }

    /// Metres per degree, for turning GPS noise in metres into degrees.
    public var metersPerDegreeLongitude: Double {
        Self.metersPerDegreeLatitude * cos(centerLatitudeDegrees * .pi / 180)
    }

    public func nearestShop(to point: LocalPoint) -> Place {
        shops.min { $0.position.distance(to: point) < $1.position.distance(to: point) }!
    }
}
