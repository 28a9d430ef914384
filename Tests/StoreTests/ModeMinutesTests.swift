import Foundation
import GRDB
import MobilityCore
@testable import Store
import TestSupport
import Testing

/// `modeMinutes` counts each trace's windows per mode in one pass along (device, trace,
/// start) and multiplies by the trace's hop: the shortest positive step between window
/// starts, else (one window) its length.
@Suite struct ModeMinutesTests {
    @Test func eachTraceCountsItsWindowsTimesItsHop() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("pipeline.sqlite"))
        func window(_ device: String, _ trace: String, _ start: Double, _ length: Double, _ mode: Mode) -> PipelineStore.ModeWindowRow {
            .init(
                device: device, trace: trace, startSeconds: start, endSeconds: start + length, mode: mode, rawMode: mode, probability: 0.9,
                decidedBy: "model")
        }
        try store.replaceModeWindows([
            // 5 s hop (10 s windows, 50 % overlap), modes interleaved: walk 3, bus 2.
            window("a", "a.csv", 0, 10, .walk), window("a", "a.csv", 5, 10, .bus), window("a", "a.csv", 10, 10, .walk),
            window("a", "a.csv", 15, 10, .bus), window("a", "a.csv", 20, 10, .walk),
            // One window: its length is the hop.
            window("b", "b.csv", 100, 8, .car),
            // Same device, a second trace with a 2 s hop.
            window("a", "a2.csv", 0, 4, .bike), window("a", "a2.csv", 2, 4, .bike), window("a", "a2.csv", 6, 4, .bike)
        ])
        let minutes = try store.database.read { try PipelineStore.modeMinutes($0) }
        let expected: [String: [String: Double]] = [
            "a.csv": ["walk": 15.0 / 60, "bus": 10.0 / 60], "b.csv": ["car": 8.0 / 60],
            "a2.csv": ["bike": 6.0 / 60]
        ]
        #expect(minutes == expected)
    }

    @Test func aStoreWithoutWindowsHasNoMinutes() throws {
        let folder = try TemporaryFolder()
        let store = try PipelineStore(path: folder.file("pipeline.sqlite"))
        #expect(try store.database.read { try PipelineStore.modeMinutes($0) }.isEmpty)
    }
}
