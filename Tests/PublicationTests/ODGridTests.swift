import HeatMaps
import Publication
import Testing

/// `ODGrid` on trips with known answers: which pairs of cells are published under k, and what
/// is counted of the others.
@Suite struct ODGridTests {
    // Two places 5 km apart (0.045° of latitude) and a third 5 km east, around 48.85° N.
    static let home = (latitude: 48.850, longitude: 2.350), work = (latitude: 48.895, longitude: 2.350)
    static let shop = (latitude: 48.850, longitude: 2.418)

    static func trip(
        _ device: String, _ person: String, _ from: (latitude: Double, longitude: Double)?,
        _ to: (latitude: Double, longitude: Double)?, minutes: Double, mode: String
    ) -> ODGrid.Trip {
        ODGrid.Trip(
            device: device, person: person, origin: from, destination: to, durationSeconds: minutes * 60,
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
            Self.trip("c", "cat", Self.home, nil, minutes: 5, mode: "walk")
        ]
        let od = ODGrid(trips, cellMeters: 1000, minimumPersons: 3)
        #expect(od.rows.count == 1 && od.suppressedPairs == 1 && od.suppressedTrips == 2 && od.unplacedTrips == 1)
        let row = od.rows[0]
        #expect(row.trips == 4 && row.devices == 4 && row.persons == 3)
        #expect(row.medianDurationSeconds == 26 * 60) // 20, 22, 30, 40 minutes
        // Bike, bus and car each one person's, so all three are `other`, which the three made.
        #expect(Set(od.recoding.names) == ["bike", "bus", "car", "walk"] && row.modeShares == ["other": 1] && row.suppressedModes.isEmpty)
        #expect(od.grid.id(row.origin) != od.grid.id(row.destination))
        // k = 2 publishes home → shop too; the bigger pair comes first.
        let looser = ODGrid(trips, cellMeters: 1000, minimumPersons: 2)
        #expect(looser.rows.map(\.trips) == [4, 2] && looser.suppressedPairs == 0)
    }

    @Test func aCoarserGridMergesNearbyEnds() {
        // Origins 300 m apart fall in one 5 km cell but in different 100 m cells.
        let near = (latitude: Self.home.latitude + 0.0027, longitude: Self.home.longitude)
        let trips = [
            Self.trip("a", "ann", Self.home, Self.work, minutes: 20, mode: "bike"),
            Self.trip("b", "ben", near, Self.work, minutes: 20, mode: "bike")
        ]
        #expect(ODGrid(trips, cellMeters: 100, minimumPersons: 2, coarserLevels: 0).rows.isEmpty)
        #expect(ODGrid(trips, cellMeters: 5000, minimumPersons: 2).rows.map(\.persons) == [2])
        // Tried again on 200, 400 … 6,400 m cells, the pair is published at the first size that holds both origins.
        let recoded = ODGrid(trips, cellMeters: 100, minimumPersons: 2, coarserLevels: 6)
        #expect(
            recoded.rows.count == 1 && recoded.rows[0].grid.cellMeters > 100 && recoded.rows[0].persons == 2 && recoded.suppressedTrips == 0
        )
    }

    @Test func eachTripIsPublishedAtTheFinestSizeItsPairReachesKAndInOneRowAtMost() throws {
        // Two places in different 1 km cells of one 2 km cell, 5 km from home.
        let (fine, coarse) = (HeatGrid(cellMeters: 1000), HeatGrid(cellMeters: 2000))
        let pointA = (latitude: 48.800, longitude: 2.300)
        let pointB = try #require(
            (1...40).lazy.map { (latitude: 48.800 + Double($0) * 0.001, longitude: 2.300) }.first { b in
                fine.cell(latitudeDegrees: b.latitude, longitudeDegrees: b.longitude)
                    != fine.cell(latitudeDegrees: pointA.latitude, longitudeDegrees: pointA.longitude)
                    && coarse.cell(latitudeDegrees: b.latitude, longitudeDegrees: b.longitude)
                        == coarse.cell(latitudeDegrees: pointA.latitude, longitudeDegrees: pointA.longitude)
            })
        let farAway = (latitude: 10.0, longitude: 10.0)
        let trips =
            ["ann", "ben", "cat"].map { Self.trip($0, $0, Self.home, Self.work, minutes: 20, mode: "bike") } // k at 1 km
            + ["dan", "eve"].map { Self.trip($0, $0, pointA, Self.work, minutes: 25, mode: "bus") } // two persons at 1 km …
            + [Self.trip("fay", "fay", pointB, Self.work, minutes: 30, mode: "car")] // … three with fay's at 2 km
            + [Self.trip("gus", "gus", farAway, Self.work, minutes: 600, mode: "car")] // alone at every size
        let od = ODGrid(trips, cellMeters: 1000, minimumPersons: 3)
        #expect(od.rows.map(\.grid.cellMeters) == [1000, 2000] && od.rows.map(\.persons) == [3, 3])
        #expect(od.rows.last?.persons == 3 && od.rows.last?.trips == 3, "dan, eve and fay only, not the three already published")
        #expect(od.suppressedTrips == 1 && od.suppressedPairs == 1)
        #expect(od.rows.reduce(0) { $0 + $1.trips } + od.suppressedTrips + od.unplacedTrips == trips.count, "every trip counted once")
        // With no coarser size, what 1 km leaves out is suppressed.
        let strict = ODGrid(trips, cellMeters: 1000, minimumPersons: 3, coarserLevels: 0)
        #expect(strict.rows.map(\.persons) == [3] && strict.suppressedTrips == 4 && strict.suppressedPairs == 3)
    }

    @Test func aShareFewerThanKPersonsMadeIsLeftOutWithASecondSoItCannotBeSubtracted() {
        // Home → work: four persons by bike, three by bus, one by car; k = 3.
        let trips =
            ["ann", "ben", "cat", "dan"].map { Self.trip($0, $0, Self.home, Self.work, minutes: 20, mode: "bike") }
            + ["eve", "fay", "gus"].map { Self.trip($0, $0, Self.home, Self.work, minutes: 30, mode: "bus") }
            + [Self.trip("hal", "hal", Self.home, Self.work, minutes: 15, mode: "car")]
            + ["ann", "ben", "cat"].map { Self.trip($0, $0, Self.home, Self.work, minutes: 18, mode: "car") }
        let od = ODGrid(trips, cellMeters: 1000, minimumPersons: 3)
        let row = od.rows[0]
        #expect(row.trips == 11 && row.persons == 8)
        // Car is four persons' (not recoded, and published); make it one person's and it is `other`, left out.
        #expect(row.modeShares == ["bike": 4.0 / 11, "bus": 3.0 / 11, "car": 4.0 / 11] && row.suppressedModes.isEmpty)
        let rare = ODGrid(Array(trips.dropLast(3)), cellMeters: 1000, minimumPersons: 3)
        let left = rare.rows[0]
        #expect(rare.recoding.names == ["car"] && left.suppressedModes.contains("other"))
        // The row's trips less the published shares would give the one car trip: a second share goes too, the smaller.
        #expect(left.suppressedModes == ["other", "bus"] && left.modeShares == ["bike": 0.5])
        #expect(rare.suppressedShares == 1 && rare.complementaryShares == 1)
    }
}
