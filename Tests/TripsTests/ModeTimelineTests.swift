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

    /// Windows held as `ModeWindows` (starts, one length, a mode and decider each) answer every
    /// instant as the same windows held as spans: of one length, with some ends of their own, and
    /// given out of order (then held as sorted spans).
    @Test func windowsHeldCompactlyAnswerAsTheirSpans() {
        var g = SeededGenerator(seed: 55)
        let modes: [Mode] = [.walk, .bike, .car, .bus, .train]
        let deciders: [Decider] = [.gpsRules, .gpsLegModel, .rules]
        for variant in 0..<3 {
            var starts: [Timestamp] = [], time = 1_700_000_000.0
            for _ in 0..<2_000 {
                time += Double.random(in: 0..<1, using: &g) < 0.01 ? Double.random(in: 30...400, using: &g) : 2.5
                starts.append(Timestamp(secondsSince1970: time))
            }
            if variant == 2 { starts.swapAt(10, 11) } // out of order
            let ends = variant == 1 ? starts.map { $0.adding(seconds: Double.random(in: 1...9, using: &g)) } : nil
            let (windowModes, windowSources) = (
                starts.map { _ in modes.randomElement(using: &g)! }, starts.map { _ in deciders.randomElement(using: &g)! }
            )
            let windows = ModeWindows(starts: starts, ends: ends, lengthSeconds: 5, modes: windowModes, sources: windowSources)
            // The same windows as spans, made here, not read from `windows`.
            let spans = starts.indices.map { index in
                ModeSpan(
                    startSeconds: starts[index].secondsSince1970,
                    endSeconds: ends?[index].secondsSince1970 ?? starts[index].secondsSince1970 + 5, mode: windowModes[index],
                    source: windowSources[index])
            }
            #expect(Array(windows) == spans)
            let stored = [Self.span(time - 100, time - 50, .boat)]
            let compact = ModeTimeline([.spans(stored), .windows(windows)])
            let whole = ModeTimeline(layers: [stored, spans])
            var lookups = 0
            for instant in stride(from: starts[0].secondsSince1970 - 10, through: time + 20, by: 0.37) {
                #expect(compact.span(at: instant) == whole.span(at: instant))
                lookups += 1
            }
            #expect(lookups > 10_000)
        }
    }
}
