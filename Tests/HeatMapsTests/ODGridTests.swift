import HeatMaps
import Testing

/// `ODGrid` on trips with known answers: which pairs of cells are published under k, and what
/// is counted of the others.
@Suite struct ODGridTests {
    // Two places 5 km apart (0.045° of latitude) and a third 5 km east, around 48.85° N.
    static let home = (latitude: 48.850, longitude: 2.350), work = (latitude: 48.895, longitude: 2.350)
    static let shop = (latitude: 48.850, longitude: 2.418)

    static func trip(_ device: String, _ person: String, _ from: (latitude: Double, longitude: Double)?,
                     _ to: (latitude: Double, longitude: Double)?, minutes: Double, mode: String) -> ODGrid.Trip {
        ODGrid.Trip(device: device, person: person, origin: from, destination: to, durationSeconds: minutes * 60,
                    distanceMeters: minutes * 250, mainMode: mode)
    }

    @Test func pairsMadeByFewerThanKPersonsAreSuppressedAndCounted() {
        // Home → work: three persons (one with two phones, four trips in all). Home → shop: two
        // persons. One trip without a destination staypoint.
        let trips = [
            Self.trip("a1", "ann", Self.home, Self.work, minutes: 20, mode: "bike"),
            Self.trip("a2", "ann", Self.home, Self.work, minutes: 22, mode: "bike"),
            Self.trip("b", "ben", Self.home, Self.work, minutes: 30, mode: "bus"),
            Self.trip("c", "cat", Self.home, Self.work, minutes: 40, mode: "car"),
            Self.trip("b", "ben", Self.home, Self.shop, minutes: 10, mode: "walk"),
            Self.trip("c", "cat", Self.home, Self.shop, minutes: 12, mode: "walk"),
            Self.trip("c", "cat", Self.home, nil, minutes: 5, mode: "walk"),
        ]
        let od = ODGrid(trips, cellMeters: 1000, minimumPersons: 3)
        #expect(od.rows.count == 1 && od.suppressedPairs == 1 && od.suppressedTrips == 2 && od.unplacedTrips == 1)
        let row = od.rows[0]
        #expect(row.trips == 4 && row.devices == 4 && row.persons == 3)
        #expect(row.medianDurationSeconds == 26 * 60)  // 20, 22, 30, 40 minutes
        #expect(row.modeShares == ["bike": 0.5, "bus": 0.25, "car": 0.25])
        #expect(od.grid.id(row.origin) != od.grid.id(row.destination))
        // k = 2 publishes home → shop too; the bigger pair comes first.
        let looser = ODGrid(trips, cellMeters: 1000, minimumPersons: 2)
        #expect(looser.rows.map(\.trips) == [4, 2] && looser.suppressedPairs == 0)
    }

    @Test func aCoarserGridMergesNearbyEnds() {
        // Origins 300 m apart fall in one 5 km cell but in different 100 m cells.
        let near = (latitude: Self.home.latitude + 0.0027, longitude: Self.home.longitude)
        let trips = [Self.trip("a", "ann", Self.home, Self.work, minutes: 20, mode: "bike"),
                     Self.trip("b", "ben", near, Self.work, minutes: 20, mode: "bike")]
        #expect(ODGrid(trips, cellMeters: 100, minimumPersons: 2).rows.isEmpty)
        #expect(ODGrid(trips, cellMeters: 5000, minimumPersons: 2).rows.map(\.persons) == [2])
    }
}
