import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// The heat-map stage reads a device's fixes from the store a piece at a time when the store
/// holds them in time order, and the pieces are then the sorted track cut up; when it does
/// not (a device's files out of order), the store says so, and the stage takes back what the
/// pieces counted and reads the track whole.
@Suite struct TrackPiecesTests {
    @Test func piecesAreTheSortedTrackOrNothing() throws {
        let folder = try TemporaryFolder()
        let base = Timestamp(secondsSince1970: 1_714_982_400) // 2024-05-06 08:00 UTC
        func write(_ path: String, startHour: Double, count: Int) throws {
            var builder = GPXBuilder()
            builder.tracks = [[GPXBuilder.walk(count: count, start: base.adding(seconds: startHour * 3_600), intervalSeconds: 2)]]
            _ = try folder.write(path, Data(builder.text.utf8))
        }
        // A device whose files follow one another in their order, and one whose second file comes first.
        try write("traces/inorder/a.gpx", startHour: 0, count: 700)
        try write("traces/inorder/b.gpx", startHour: 1, count: 500)
        try write("traces/outoforder/a.gpx", startHour: 1, count: 700)
        try write("traces/outoforder/b.gpx", startHour: 0, count: 500)
        let storePath = folder.file("pipeline.sqlite")
        var options = IngestOptions(paths: [folder.file("traces")], storePath: storePath)
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        let store = try PipelineStore(path: storePath)
        #expect(try store.trackNames() == ["inorder", "outoforder"])

        let sorted = DeviceTrack(device: "inorder", points: try store.trackPoints(named: "inorder")).points.array
        #expect(sorted.count == 1_200)
        for pieceSize in [1, 333, 1_200, 5_000] {
            var pieces: [[TrackPoint]] = []
            #expect(try store.forEachTrackPiece(named: "inorder", pieceSize: pieceSize) { pieces.append($0) })
            #expect(pieces.flatMap { $0 } == sorted && pieces.dropLast().allSatisfy { $0.count == pieceSize })
        }
        var given = 0
        #expect(try !store.forEachTrackPiece(named: "outoforder", pieceSize: 100) { given += $0.count })
        #expect(given == 700, "the first file's pieces, before the second file's first fix goes back in time")

        // Both devices hold the same positions (each file walks north from one place), so their
        // own cells count the same fixes, whichever way the stage read them.
        _ = try TripsRun(storePath: storePath, reportsFolder: folder.file("out")).run(progress: ProgressReporter(quiet: true))
        var heatMap = HeatMapRun(storePath: storePath, reportsFolder: folder.file("out"))
        heatMap.keepDeviceCells = true
        let summary = try heatMap.run(progress: ProgressReporter(quiet: true))
        #expect(summary.fixes == 2_400)
        let cells = try store.heatMapDeviceCells().filter { $0.map == "all" }
        let byDevice = Dictionary(grouping: cells, by: \.device).mapValues { $0.map { "\($0.cellID) \($0.fixes)" }.sorted() }
        #expect(byDevice["inorder"] == byDevice["outoforder"] && byDevice["inorder"]?.isEmpty == false)
        #expect(cells.map(\.fixes).reduce(0, +) == 2_400)
    }
}
