import Foundation
import MobilityCore
import Testing
@testable import Trips

/// Dataset-scope locations clustered in tiles with a 2ε halo equal one pass over every
/// staypoint: members, numbers, centres and each staypoint's location.
@Suite struct LocationTilesTests {
    func stay(_ device: String, _ metres: SIMD2<Double>, start: Double) -> Staypoint {
        let (latitude, longitude) = TrackScript.coordinates(metres)
        return Staypoint(
            device: device, firstFix: 0, endFix: 1, startSeconds: start, endSeconds: start + 600,
            latitudeDegrees: latitude, longitudeDegrees: longitude, isOpen: false, location: nil)
    }

    func clusterer(minimum: Int) -> LocationClusterer {
        var parameters = LocationParameters()
        (parameters.scope, parameters.minimumStaypoints) = (.dataset, minimum)
        return LocationClusterer(parameters: parameters)
    }

    /// Great-circle metres (haversine).
    func metres(_ a: Staypoint, _ b: Staypoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitudeDegrees - a.latitudeDegrees) * radians, dLon = (b.longitudeDegrees - a.longitudeDegrees) * radians
        let h = pow(sin(dLat / 2), 2) + cos(a.latitudeDegrees * radians) * cos(b.latitudeDegrees * radians) * pow(sin(dLon / 2), 2)
        return 2 * Geodesy.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }

    /// Tiles of `tileMeters` by position (x, y in metres from the origin); each tile's halo is
    /// every other staypoint within `haloMeters` of one it owns.
    func tiles(_ stays: [Staypoint], _ metresOf: [SIMD2<Double>], tileMeters: Double, haloMeters: Double)
        -> [[LocationClusterer.TilePoint]]
    {
        var owned: [SIMD2<Int>: [Int]] = [:]
        for (i, m) in metresOf.enumerated() {
            owned[SIMD2(Int((m.x / tileMeters).rounded(.down)), Int((m.y / tileMeters).rounded(.down))), default: []].append(i)
        }
        return owned.keys.sorted { ($0.x, $0.y) < ($1.x, $1.y) }.map { key in
            let own = Set(owned[key]!)
            let halo = stays.indices.filter { j in !own.contains(j) && own.contains { metres(stays[$0], stays[j]) <= haloMeters } }
            return (own.sorted() + halo).map {
                .init(
                    id: $0, latitudeDegrees: stays[$0].latitudeDegrees, longitudeDegrees: stays[$0].longitudeDegrees,
                    owned: own.contains($0))
            }
        }
    }

    func randomCity(seed: UInt64, count: Int) -> ([Staypoint], [SIMD2<Double>]) {
        var random = SeededGenerator(seed: seed)
        let centres = (0..<8).map { _ in SIMD2(Double.random(in: 0..<2000, using: &random), Double.random(in: 0..<2000, using: &random)) }
        var stays: [Staypoint] = [], positions: [SIMD2<Double>] = []
        for i in 0..<count {
            let centre = centres[Int.random(in: 0..<centres.count, using: &random)]
            let spread = Double.random(in: 0..<1, using: &random) < 0.2 ? 600.0 : 120.0 // some far from every centre
            let m = centre + SIMD2(Double.random(in: -spread..<spread, using: &random), Double.random(in: -spread..<spread, using: &random))
            positions.append(m)
            stays.append(stay("d\(Int.random(in: 0..<12, using: &random))", m, start: Double(i / 3 * 900)))
        }
        return (stays, positions)
    }

    @Test(arguments: [(1, 250.0), (3, 250.0), (5, 400.0), (3, 1000.0)])
    func tilesWithATwoEpsilonHaloEqualOnePass(minimum: Int, tileMeters: Double) {
        for seed in UInt64(1)...4 {
            let (stays, positions) = randomCity(seed: seed, count: 300)
            var whole = stays, tiled = stays
            let clusterer = clusterer(minimum: minimum)
            let expected = clusterer.cluster(&whole)
            let links = tiles(stays, positions, tileMeters: tileMeters, haloMeters: 2 * clusterer.parameters.epsilonMeters + 1)
                .flatMap { clusterer.tileLinks($0) }
            let found = clusterer.cluster(&tiled, tileLinks: links)
            #expect(found == expected, "seed \(seed): \(found.count) locations, one pass \(expected.count)")
            #expect(tiled.map(\.location) == whole.map(\.location), "seed \(seed)")
            #expect(expected.count > 3 && whole.contains { $0.location == nil } == (minimum > 1))
        }
    }

    @Test func aBorderStaypointInAnotherTileJoinsTheEarlierCluster() {
        // Four core points at x = 0…30 (from t = 0) and four at x = 220…250 (from t = 100), k = 4.
        // The staypoint at x = 125, alone in the middle tile, is within ε of x = 30 and x = 220
        // only (3 with itself: not a core point) and joins the cluster seeded first: the left one.
        let xs: [Double] = [0, 10, 20, 30, 220, 230, 240, 250, 125], starts: [Double] = [0, 1, 2, 3, 100, 101, 102, 103, 200]
        let stays = zip(xs, starts).map { stay("d", SIMD2($0, 0), start: $1) }
        let clusterer = clusterer(minimum: 4)
        var whole = stays, tiled = stays
        let expected = clusterer.cluster(&whole)
        #expect(whole.map(\.location) == [0, 0, 0, 0, 1, 1, 1, 1, 0])
        let links = tiles(stays, xs.map { SIMD2($0, 0) }, tileMeters: 90, haloMeters: 201).flatMap { clusterer.tileLinks($0) }
        #expect(links.contains(.border(8, core: 3)) && links.contains(.border(8, core: 4)))
        #expect(clusterer.cluster(&tiled, tileLinks: links) == expected && tiled.map(\.location) == whole.map(\.location))
    }

    @Test func noStaypointsNoLocations() {
        var none: [Staypoint] = []
        #expect(clusterer(minimum: 1).cluster(&none, tileLinks: []).isEmpty && clusterer(minimum: 1).tileLinks([]).isEmpty)
    }
}
