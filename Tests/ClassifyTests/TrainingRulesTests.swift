@testable import Classify
import Features
import MobilityCore
import Testing

@Suite struct TrainingRulesTests {
    @Test func everyGroupGetsTheSameTotalWeight() {
        let groups = ["a", "a", "a", "b", "c", "c"]
        let weights = SampleWeights.balanced(groups: groups)
        // 6 windows in 3 groups: each group weighs 2 in total, a window of a 1/3 · 2.
        #expect(weights.enumerated().allSatisfy { abs($0.element - [2.0 / 3, 2.0 / 3, 2.0 / 3, 2, 1, 1][$0.offset]) < 1e-12 })
        #expect(abs(weights.reduce(0, +) - Double(groups.count)) < 1e-12)
        #expect(SampleWeights.balanced(groups: [Int]()).isEmpty)
    }

    @Test func modesWeighAlikeAndWithinAModeEveryDevice() {
        // "walk" from phones a (3 windows) and b (1); "bus" from phone a alone (2). 6 windows,
        // 2 modes: each mode weighs 3 in total; walk's 3 splits 1.5 per phone.
        let modes = ["walk", "walk", "walk", "walk", "bus", "bus"], phones = ["a", "a", "a", "b", "a", "a"]
        let weights = SampleWeights.balanced(classes: modes, within: phones)
        let expected = [0.5, 0.5, 0.5, 1.5, 1.5, 1.5]
        #expect(zip(weights, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(weights)")
        #expect(SampleWeights.balanced(classes: [Int](), within: [Int]()).isEmpty)
    }

    @Test func aFeatureSomeDeviceLacksIsNotUsable() {
        // Columns: two motion features and one GPS feature. Phone "a" never has column 1 (no
        // gyroscope); "b" has it in 3 of 4 windows; "c" has GPS only and so votes on column 2 alone.
        let nan = Double.nan
        let rows: [(String, [Double])] = [
            ("a", [1, nan, nan]), ("a", [1, nan, nan]),
            ("b", [1, 2, nan]), ("b", [1, 2, nan]), ("b", [1, 2, nan]), ("b", [1, nan, nan]),
            ("c", [nan, nan, 5]), ("c", [nan, nan, 5])
        ]
        let usable = FeatureAvailability.usableColumns(values: rows.flatMap(\.1), devices: rows.map(\.0), kinds: [true, true, false])
        #expect(usable == [true, false, true])
        let withoutA = FeatureAvailability.usableColumns(
            values: rows.dropFirst(2).flatMap(\.1), devices: rows.dropFirst(2).map(\.0),
            kinds: [true, true, false])
        #expect(withoutA == [true, true, true])
        let strict = FeatureAvailability.usableColumns(
            values: rows.dropFirst(2).flatMap(\.1), devices: rows.dropFirst(2).map(\.0),
            kinds: [true, true, false], minimumShare: 0.9)
        #expect(strict == [true, false, true])
    }

    @Test func theTrainerLeavesOutTheGyroscopeWhenOnePhoneHasNone() throws {
        var table = SyntheticWindows.table(devices: ["a", "b"], secondsPerMode: 30)
        let gyro = FeatureSchema.names.indices.filter { FeatureSchema.names[$0].hasPrefix("gyro_") }
        for row in table.windows.indices where table.windows[row].device == "b" {
            for column in gyro { table.values[row * FeatureTable.columns + column] = .nan }
        }
        let model = try ModeTrainer().train(table, window: .init(), provenance: SyntheticWindows.provenance)
        #expect(gyro.allSatisfy { !model.standardizer.present[$0] })
        #expect(model.standardizer.present[FeatureSchema.index(of: "acc_mag_std_mps2")!])
        let full = try ModeTrainer().train(
            SyntheticWindows.table(devices: ["a", "b"], secondsPerMode: 30), window: .init(),
            provenance: SyntheticWindows.provenance)
        #expect(full.standardizer.present[FeatureSchema.index(of: "gyro_mag_std_radps")!])
    }
}
