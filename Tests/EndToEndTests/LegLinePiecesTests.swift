import Foundation
import GRDB
import MobilityCore
import PipelineRunner
import Reports
import Store
import TestSupport
import Testing

/// A leg's line written in pieces, as a year-long leg is, to the GeoPackage
/// (`GeoPackageOutput.wholeLineBytes`, `GeoPackageWriter.LineStringPieces`) and to trackintel's
/// `triplegs.csv` (`writeTrackintel(wholeLineBytes:)`): read from the store a block at a time
/// through SQLite's incremental I/O, it gives the file a line read whole gives.
@Suite struct LegLinePiecesTests {
    /// The simulated city's run (OutputSchemaTests: 6 devices, a day) is copied and its
    /// restricted GeoPackage written again with every line of more than 64 bytes in pieces read
    /// 7 bytes at a time, so the key and numbers are cut at every place: every table's rows and
    /// every R-tree are those of the run's own file.
    @Test func linesInPiecesGiveTheFileOfLinesReadWhole() throws {
        let folder = try TemporaryFolder()
        let copy = folder.file("city-out")
        try FileManager.default.copyItem(atPath: OutputSchemaTests.runs.city, toPath: copy)
        let original = OutputLayout.path(GeoPackageOutput.fileName, in: OutputLayout.restricted(in: OutputSchemaTests.runs.city))
        let written = OutputLayout.path(GeoPackageOutput.fileName, in: OutputLayout.restricted(in: copy))
        try FileManager.default.removeItem(atPath: written)

        let store = try PipelineStore(path: StoreLocation.path(in: copy))
        var output = GeoPackageOutput(folder: copy)
        (output.wholeLineBytes, output.lineBlockBytes) = (64, 7)
        try output.write(legLines: { [store] in try store.withTriplegLines($0) }, geofences: try store.geofences()) {
            try store.storedHeatMapNames()
        }
        #expect(try Normaliser.rows(written) == Normaliser.rows(original))
        let (lines, pieces, boxes) = try Self.lines(written)
        #expect(lines > 20 && pieces == lines, "\(pieces) of \(lines) legs' lines are longer than 64 bytes of text")
        #expect(boxes == (try Self.lines(original)).boxes)
    }

    /// The city's store exported for trackintel with every line of more than 64 bytes in pieces
    /// read 7 bytes at a time, the file flushed between points: the same five files, byte for byte.
    @Test func trackintelLinesInPiecesAreTheWholeLinesWKT() throws {
        let folder = try TemporaryFolder()
        let copy = folder.file("city-out")
        try FileManager.default.copyItem(atPath: OutputSchemaTests.runs.city, toPath: copy)
        let store = try PipelineStore(path: StoreLocation.path(in: copy))
        for name in ["whole", "pieces"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        }
        let whole = try store.writeTrackintel(to: folder.file("whole"))
        let pieces = try store.writeTrackintel(to: folder.file("pieces"), wholeLineBytes: 64, lineBlockBytes: 7)
        #expect(whole == pieces && (whole["triplegs.csv"] ?? 0) > 20, "\(whole)")
        for name in PipelineStore.trackintelFileNames {
            let (a, b) = (
                FileManager.default.contents(atPath: folder.file("whole/" + name)),
                FileManager.default.contents(atPath: folder.file("pieces/" + name))
            )
            #expect(a != nil && a == b, "\(name)")
        }
        let legs = try CSVTable.read(path: folder.file("pieces/triplegs.csv"))
        let geom = try #require(legs.columns.firstIndex(of: "geom"))
        #expect(legs.rows.allSatisfy { $0[geom]?.hasPrefix("LINESTRING (") == true && $0[geom]?.hasSuffix(")") == true })
    }

    /// The legs with a line, those whose stored text is longer than 64 bytes, and the R-tree.
    static func lines(_ gpkg: String) throws -> (lines: Int, pieces: Int, boxes: [String]) {
        let database = try DatabaseQueue(path: gpkg)
        return try database.read { db in
            let lines = try Int.fetchOne(db, sql: "SELECT COUNT(geom) FROM triplegs") ?? 0
            // Each stored line has at least two points: its text is longer than 64 bytes.
            let pieces = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM triplegs WHERE length(geom) > 49 + 16 * 2") ?? 0
            let boxes = try Row.fetchAll(db, sql: "SELECT * FROM rtree_triplegs_geom ORDER BY id").map(\.description)
            return (lines, pieces, boxes)
        }
    }

    /// The store's lookup: a leg's text read in blocks is its row's text; an id with no leg, nil.
    @Test func theStoresLookupReadsALegsTextAndNothingForNoLeg() throws {
        let folder = try TemporaryFolder()
        let copy = folder.file("city-out")
        try FileManager.default.copyItem(atPath: OutputSchemaTests.runs.city, toPath: copy)
        let path = StoreLocation.path(in: copy)
        let texts = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, geometry_geojson FROM triplegs ORDER BY id").map { ($0[0] as Int64, $0[1] as String?) }
        }
        #expect(texts.count > 20)
        let store = try PipelineStore(path: path)
        try store.withTriplegLines { line in
            // Backwards, then an id past the last, then forwards: one handle moved between rows.
            for (id, text) in texts.reversed() + [(texts.last!.0 + 1000, nil)] + texts {
                let source = try line(id)
                #expect((source == nil) == (text == nil), "tripleg \(id)")
                guard let source, let text else { continue }
                var bytes = [UInt8](repeating: 0, count: source.count)
                try bytes.withUnsafeMutableBytes { all in
                    var offset = 0
                    while offset < all.count {
                        let piece = UnsafeMutableRawBufferPointer(rebasing: all[offset..<min(all.count, offset + 1000)])
                        try source.read(piece, offset)
                        offset += piece.count
                    }
                }
                #expect(bytes == Array(text.utf8), "tripleg \(id)")
            }
        }
    }
}
