import MobilityCore
import Testing
@testable import Trips

/// How a movement's fixes are cut into runs of one mode (`TriplegBuilder.runs`), with answers
/// worked by hand: a fix of no known span takes the previous known one, or the next at the start.
@Suite struct TriplegRunsTests {
    static func span(_ mode: Mode, _ start: Double) -> ModeSpan {
        ModeSpan(startSeconds: start, endSeconds: start + 10, mode: mode, source: .gpsRules)
    }

    @Test func unknownFixesTakeTheSpanBeforeThemOrAtTheStartTheNextOne() {
        let car = Self.span(.car, 20), otherCar = Self.span(.car, 30), walk = Self.span(.walk, 50)
        // Fixes 10…17: unknown, unknown, car, another car span, unknown, walk, walk, unknown.
        let spans: [Int: ModeSpan] = [12: car, 13: otherCar, 15: walk, 16: walk]
        var asked = 0
        let runs = TriplegBuilder.runs(10...17) { index in
            asked += 1
            return spans[index]
        }
        #expect(runs.map(\.first) == [10, 15], "the start takes the first car; a second car span is the same run")
        #expect(runs.map(\.span) == [car, walk])
        #expect(asked == 3 + 8, "the start until the first known span, then every fix once")

        let none = TriplegBuilder.runs(3...5) { _ in nil }
        #expect(none.count == 1 && none[0].first == 3 && none[0].span == nil, "no span at all: one run of no mode")
    }
}
