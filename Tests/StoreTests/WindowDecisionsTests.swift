import Foundation
import MobilityCore
import Store
import TestSupport
import Testing

/// `windowDecisions()` counts the windows by what decided them and their mode in one pass;
/// the answer is the one `GROUP BY decided_by, mode ORDER BY 1, 2` gives.
@Suite struct WindowDecisionsTests {
    @Test func countsEveryPairOnceInByteOrderHoweverTheWindowsInterleave() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("pipeline.sqlite"))
        // Two devices, pairs interleaved so that runs of one pair alternate; "Model" sorts
        // before "model" in byte order, and "rule" after both.
        let pattern: [(String, Mode)] = [
            ("model", .walk), ("model", .walk), ("rule", .still), ("model", .bus), ("Model", .walk),
            ("model", .walk), ("rule", .still), ("model", .bus), ("model", .bus)
        ]
        var rows: [PipelineStore.ModeWindowRow] = []
        for device in ["a", "b"] {
            for (index, (decidedBy, mode)) in pattern.enumerated() {
                rows.append(
                    .init(
                        device: device, trace: "t", startSeconds: Double(index) * 5, endSeconds: Double(index) * 5 + 5,
                        mode: mode, rawMode: mode, probability: 0.9, decidedBy: decidedBy))
            }
        }
        try store.replaceModeWindows(rows)
        let counted = try store.windowDecisions().map { "\($0.decidedBy) \($0.mode) \($0.count)" }
        #expect(counted == ["Model walk 2", "model bus 6", "model walk 6", "rule still 4"])
    }

    @Test func aStoreWithoutWindowsHasNoDecisions() throws {
        let folder = try TemporaryFolder()
        #expect(try PipelineStore(path: folder.file("pipeline.sqlite")).windowDecisions().isEmpty)
    }
}
