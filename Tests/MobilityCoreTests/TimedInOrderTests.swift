import MobilityCore
import Testing

/// `timedInOrder`: fixes with a time in time order, a stable sort, the array as it is when it
/// already is.
@Suite struct TimedInOrderTests {
    func fix(_ seconds: Double?, _ latitude: Double) -> PositionFix {
        PositionFix(time: seconds.map { Timestamp(secondsSince1970: $0) }, latitudeDegrees: latitude, longitudeDegrees: 2)
    }

    @Test func inOrderItIsTheArrayOtherwiseAStableSortWithoutTheUntimed() {
        let ordered = [fix(1, 1), fix(2, 2), fix(2, 3), fix(5, 4)]
        #expect(ordered.timedInOrder == ordered)
        let shuffled = [fix(5, 4), fix(2, 2), fix(nil, 9), fix(1, 1), fix(2, 3)]
        #expect(shuffled.timedInOrder == ordered, "ties keep their order; a fix without a time is left out")
        #expect([PositionFix]().timedInOrder.isEmpty)
    }
}
