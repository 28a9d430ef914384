import MobilityCore
import Testing
import Trips

/// `ModeTimeline.span(at:)`: the first layer covering an instant decides; within it, the span
/// whose middle is nearest, the earlier on a tie.
@Suite struct ModeTimelineTests {
    static func span(_ start: Double, _ end: Double, _ mode: Mode, _ source: Decider = .model) -> ModeSpan {
        ModeSpan(startSeconds: start, endSeconds: end, mode: mode, source: source)
    }

    @Test func theNearestCoveringSpanOfTheFirstLayerThatHasOneDecides() {
        // Windows of 10 s every 5 s (overlapping by half), given out of order; a gap from 30 to 40 s.
        let windows = [Self.span(5, 15, .bike), Self.span(0, 10, .walk), Self.span(10, 20, .car), Self.span(40, 50, .bus)]
        let rules = [Self.span(0, 100, .train, .rules)]
        let timeline = ModeTimeline(layers: [windows, rules])
        #expect(timeline.span(at: 1)?.mode == .walk) // only the first window covers it
        #expect(timeline.span(at: 9)?.mode == .bike) // middles 5 and 10: 10 is nearer
        #expect(timeline.span(at: 12.4)?.mode == .bike) // middles 10 and 15: 10 nearer
        #expect(timeline.span(at: 12.5)?.mode == .bike) // a tie between 10 and 15: the earlier
        #expect(timeline.span(at: 12.6)?.mode == .car)
        #expect(timeline.span(at: 20)?.mode == .car) // its end is covered
        #expect(timeline.span(at: 25)?.mode == .train && timeline.span(at: 25)?.source == .rules) // the next layer
        #expect(timeline.span(at: 45)?.mode == .bus)
        #expect(timeline.span(at: 101) == nil && ModeTimeline.empty.span(at: 1) == nil)
    }
}
