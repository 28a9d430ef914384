import Comfort
import Publication
import Testing

/// Which trains and routes the comfort summaries publish: k persons each, and none whose rides
/// the others give away (a ride is on one train and one route, so both tables add up to every ride).
@Suite struct ComfortPublicationTests {
    static func summary(_ key: String, rides: Int, persons: Int) -> ComfortSummary {
        var group = ComfortGroup(key: key)
        (group.rides, group.persons) = (rides, persons)
        return ComfortSummary(group: group)
    }

    @Test func aTrainOfOnePersonIsLeftOutWithTheSmallestOtherSoTheRoutesCannotGiveItAway() {
        let trains = [
            Self.summary("IC 1", rides: 12, persons: 5), Self.summary("IC 2", rides: 2, persons: 1),
            Self.summary("TER 3", rides: 7, persons: 4), Self.summary("TER 4", rides: 9, persons: 3)
        ]
        let routes = [Self.summary("A\tB", rides: 20, persons: 8), Self.summary("B\tC", rides: 10, persons: 5)]
        let kept = ComfortSummary.published(trains: trains, routes: routes, minimumPersons: 3)
        // Every route is published, so all rides are known: IC 2 = 30 − the other trains, unless one more train goes.
        #expect(kept.trains.map(\.key) == ["IC 1", "TER 4"], "\(kept.trains.map(\.key))")
        #expect(kept.routes.map(\.key) == ["A\tB", "B\tC"] && kept.underK == 1 && kept.complementary == 1)
    }

    @Test func nothingIsLeftOutWhenEveryTrainAndRouteHasKPersons() {
        let trains = [Self.summary("IC 1", rides: 12, persons: 5), Self.summary("TER 3", rides: 7, persons: 4)]
        let routes = [Self.summary("A\tB", rides: 19, persons: 7)]
        let kept = ComfortSummary.published(trains: trains, routes: routes, minimumPersons: 3)
        #expect(kept.trains.count == 2 && kept.routes.count == 1 && kept.underK == 0 && kept.complementary == 0)
    }
}
