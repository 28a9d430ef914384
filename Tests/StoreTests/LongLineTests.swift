import Foundation
import GRDB
import MobilityCore
import Store
import TestSupport
import Testing

/// A leg's line longer than `PipelineStore.longLineBytes` is written into its row in pieces, as a
/// BLOB of its text's bytes (SQLite builds a TEXT value's row whole in memory): every reader of
/// the store gives it as the text it is, and a shorter line stays TEXT.
@Suite struct LongLineTests {
    static func line(points: Int, last: String = "") -> String {
        #"{"type":"LineString","coordinates":["# + (0..<points).map { "[2.\($0),48.\($0)]" }.joined(separator: ",") + last + "]}"
    }

    static func leg(_ id: Int, _ line: SpooledText) -> TripResultRows.Tripleg {
        TripResultRows.Tripleg(
            id: id, device: "d", tripID: nil, startSeconds: Double(id) * 100, endSeconds: Double(id) * 100 + 50, durationSeconds: 50,
            distanceMeters: 10, mode: "walk", modeSource: "rules", fixes: 3, previousStaypointID: nil, nextStaypointID: nil,
            geometryGeoJSON: line)
    }

    @Test func aLongLineIsStoredInPiecesAndReadAsItsText() throws {
        let folder = try TemporaryFolder()
        let spool = try TextSpool(directory: folder.path)
        // Longer than the spool's blocks (1 MiB), with a character of two bytes at its end.
        let long = Self.line(points: 60_000, last: ",[2.0,48.0]]é")
        var writer = TextSpool.Writer(spool)
        writer.write(long)
        let spooled = writer.end()
        let short = Self.line(points: 2)
        let texts = [1: short, 2: long, 3: Self.line(points: 40)]
        var rows = TripResultRows()
        rows.triplegs = [Self.leg(1, .inMemory(short)), Self.leg(2, .spooled(spool, spooled)), Self.leg(3, .inMemory(texts[3]!))]

        let store = try PipelineStore(path: folder.file("pipeline.sqlite"))
        try store.replaceTripResults(rows, longLineBytes: 500)
        let stored = try DatabaseQueue(path: folder.file("pipeline.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT id, typeof(geometry_geojson), CAST(geometry_geojson AS TEXT) FROM triplegs ORDER BY id")
                .map { ($0[0] as Int, $0[1] as String, $0[2] as String) }
        }
        #expect(stored.map(\.0) == [1, 2, 3])
        #expect(stored.map(\.1) == ["text", "blob", "blob"], "longer than 500 bytes: a blob")
        #expect(stored.allSatisfy { texts[$0.0] == $0.2 }, "the text's bytes, whichever way it was stored")

        // The lookups the GeoPackage and trackintel's export read, and the rows every CSV export reads.
        try store.withTriplegLines { line in
            for (id, text) in texts {
                let source = try #require(try line(Int64(id)))
                #expect(try source.bytes() == Array(text.utf8), "tripleg \(id)")
            }
        }
        let table = try #require(try store.storedTables().first { $0.name == "triplegs" })
        var exported: [String] = []
        try store.forEachRow(of: table) { _, long in
            exported.append(String(decoding: try long?.text?.bytes() ?? [], as: UTF8.self))
        }
        #expect(exported == [short, long, texts[3]!])

        // Written again, all as text: the same texts (a re-run replaces the rows).
        try store.replaceTripResults(rows)
        let again = try DatabaseQueue(path: folder.file("pipeline.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT typeof(geometry_geojson), geometry_geojson FROM triplegs ORDER BY id")
                .map { ($0[0] as String, $0[1] as String) }
        }
        #expect(again.map(\.0) == ["text", "text", "text"] && again.map(\.1) == [short, long, texts[3]!])
    }
}
