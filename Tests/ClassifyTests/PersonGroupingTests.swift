@testable import Classify
import Features
import MobilityCore
import Testing

/// Cross-validation and intervals by person: one person's two phones are one group.
@Suite struct PersonGroupingTests {
    static func windows(_ devices: [(trace: String, device: String)], each: Int = 10) -> [WindowInfo] {
        devices.flatMap { trace, device in
            (0..<each).map {
                WindowInfo(
                    trace: trace, device: device, start: Timestamp(secondsSince1970: Double($0) * 5),
                    end: Timestamp(secondsSince1970: Double($0) * 5 + 5))
            }
        }
    }

    @Test func onePersonsTwoPhonesAreNeverSplitAcrossFolds() {
        let windows = Self.windows([("a1.csv", "ann-phone"), ("a2.csv", "ann-watch"), ("b.csv", "ben"), ("c.csv", "cat"), ("d.csv", "dan")])
        let persons = ["a1.csv": "ann", "a2.csv": "ann"]
        for seed in UInt64(1)...20 {
            let byPerson = GroupedCrossValidation(groupBy: .person, folds: 4, seed: seed, persons: persons)
            let (folds, groups) = byPerson.assign(windows)
            #expect(folds[0] == folds[10], "seed \(seed): ann's phone and watch are in one fold")
            #expect(groups.flatMap { $0 }.sorted() == ["ann", "ben", "cat", "dan"])
        }
        // By device, the two are groups of their own, which is why person is the default.
        #expect(GroupedCrossValidation(groupBy: .device, folds: 5, persons: persons).assign(windows).groups.count == 5)
        #expect(GroupedCrossValidation().groupBy == .person)
    }

    @Test func withoutNamedPersonsEachDeviceIsOne() {
        let windows = Self.windows([("a1.csv", "ann-phone"), ("a2.csv", "ann-watch"), ("b.csv", "ben")])
        #expect(
            GroupedCrossValidation(groupBy: .person, folds: 3).assign(windows).groups.flatMap { $0 }.sorted() == [
                "ann-phone", "ann-watch", "ben"
            ])
    }

    @Test func intervalsResampleAPersonsDevicesTogether() {
        // Ann's phone is always right, her watch always wrong; Ben is right. Resampling persons
        // keeps her two devices together: no replicate is all right (Ann half wrong in every draw of her).
        var outcomes: [WindowOutcome] = []
        for (device, person, right) in [("ann-phone", "ann", true), ("ann-watch", "ann", false), ("ben", nil, true)]
            as [(String, String?, Bool)]
        {
            for _ in 0..<50 {
                var outcome = WindowOutcome(
                    trace: device, device: device, truth: .walk, smoothed: right ? .walk : .car, raw: .walk,
                    baseline: .walk, baselineRaw: .walk, source: .model)
                outcome.person = person
                outcomes.append(outcome)
            }
        }
        let accuracy = GroupBootstrap(replicates: 400).intervals(outcomes, \.smoothed).accuracy!
        // Draws are {ann, ann}: 0.5, {ann, ben}: 0.67, {ben, ben}: 1.0; by device a draw of two right devices would give 1.0 too, but also {watch, watch}: 0.
        #expect(accuracy.lower >= 0.5 - 1e-9 && accuracy.upper <= 1 + 1e-9, "\(accuracy)")
        // Resampled as three independent devices, draws of the watch alone reach below a half.
        let byDevice = GroupBootstrap(replicates: 400).intervals(
            outcomes.map {
                var o = $0; o.person = nil; return o
            }, \.smoothed
        ).accuracy!
        #expect(byDevice.lower < 0.5, "\(byDevice)")
    }

    @Test func timeAgreementWeighsLegsByTheirSecondsAndResamplesPersons() throws {
        let items: [(group: String, seconds: Double, right: Bool)] = [("ann", 100, true), ("ann", 300, false), ("ben", 600, true)]
        let (share, interval) = GroupBootstrap(replicates: 400).agreement(items)
        #expect(abs(share - 0.7) < 1e-12, "700 of 1,000 s right")
        let bounds = try #require(interval)
        // Draws: {ann, ann} 0.25, {ann, ben} 0.7, {ben, ben} 1.0.
        #expect(abs(bounds.lower - 0.25) < 1e-9 && abs(bounds.upper - 1) < 1e-9, "\(bounds)")
        #expect(GroupBootstrap().agreement([("ann", 10, true)]).interval == nil, "one person gives no spread")
    }
}
