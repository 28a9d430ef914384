import Foundation
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// `pipeline export` on a store made by the real ingest and trip stages: every value reads back
/// exactly as SQLite holds it.
@Suite struct TableExportTests {
    /// A store with fixes, geofences (one named with a comma, quotes and a non-ASCII letter)
    /// and the trip tables.
    func makeStore(_ folder: TemporaryFolder) throws -> String {
        var gpx = GPXBuilder()
        gpx.tracks = [[TripsCommandTests.commute()]]
        try folder.write("traces/ana/commute.gpx", gpx.text)
        try folder.write("traces/zones.csv", "id,name,kind,lat,lon,radius_m\nhome,\"Café \"\"Le Zinc\"\", Paris\",home,48,2,100\n")
        var options = IngestOptions(paths: [folder.file("traces")], storePath: folder.file("out/pipeline.sqlite"))
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        _ = try TripsRun(storePath: folder.file("out/pipeline.sqlite"), reportsFolder: folder.file("out")).run(
            progress: ProgressReporter(quiet: true))
        return folder.file("out/pipeline.sqlite")
    }

    /// RFC 4180 fields, telling a quoted empty field (`""`) from an empty one (nil).
    static func records(_ text: String) -> [[String?]] {
        var records: [[String?]] = [], record: [String?] = [], field = "", quoted = false, wasQuoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if characters.first == "\"" { field.unicodeScalars.append(characters.removeFirst()) } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
                wasQuoted = true
            } else if scalar == "," || scalar == "\n" {
                record.append(field.isEmpty && !wasQuoted ? nil : field)
                field = ""
                wasQuoted = false
                if scalar == "\n" { records.append(record); record = [] }
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        return records
    }

    /// A long text (a leg's line) written as it is read a few bytes at a time gives the field a
    /// text read whole gives: quoted when it holds a comma, quote or line end, or is empty.
    @Test func aTextReadInBlocksIsTheFieldOfTheWholeText() throws {
        let texts = [
            #"{"type":"LineString","coordinates":[[2.35,48.85],[2.36,48.86]]}"#, "plain", "", "a,b", "line\nend", #""""#,
            "Café, \"Le Zinc\""
        ]
        for text in texts {
            var whole: [UInt8] = []
            ExportCSV.appendText(text, to: &whole)
            let bytes = Array(text.utf8)
            for block in [1, 2, 3, 7, 64] {
                let stored = BlockText(count: bytes.count) { buffer, offset in
                    bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + buffer.count])) }
                }
                var (streamed, flushes) = ([UInt8](), 0)
                try ExportCSV.appendText(stored, blockBytes: block, to: &streamed) { _ in flushes += 1 }
                #expect(streamed == whole, "\(text) in blocks of \(block)")
                #expect(text.utf8.allSatisfy { $0 < 0x80 } ? flushes == (bytes.count + block - 1) / block : flushes == 1)
            }
        }
    }

    @Test func everyValueReadsBackExactlyAsSQLiteHoldsIt() throws {
        let folder = try TemporaryFolder()
        let storePath = try makeStore(folder)
        let summary = try TableExport(storePath: storePath, folder: folder.file("export")).run(progress: ProgressReporter(quiet: true))
        let store = try PipelineStore(path: storePath)
        let tables = try store.storedTables()
        #expect(Set(summary.tables.keys) == Set(tables.map(\.name)))
        #expect((summary.tables["fixes"] ?? 0) > 700 && (summary.tables["staypoints"] ?? 0) == 2)

        var values = 0
        for table in tables {
            let records = Self.records(try String(contentsOfFile: folder.file("export/\(table.name).csv"), encoding: .utf8))
            #expect(records.first == table.columns.map(\.name))
            var stored: [[StoredValue]] = []
            try store.forEachRow(of: table) { stored.append($0) }
            #expect(records.count - 1 == stored.count, "\(table.name)")
            for (record, row) in zip(records.dropFirst(), stored) {
                for (field, value) in zip(record, row) {
                    values += 1
                    switch value {
                    case .null: #expect(field == nil, "\(table.name)")
                    case .integer(let integer): #expect(field == String(integer), "\(table.name)")
                    case .real(let real): // glibc's strtod, not Swift's formatter, reads the text back
                        #expect(field.map { strtod($0, nil).bitPattern } == real.bitPattern, "\(table.name): \(field ?? "nil") vs \(real)")
                    case .text(let text): #expect(field == text, "\(table.name)")
                    case .blob: Issue.record("\(table.name) holds a blob")
                    }
                }
            }
        }
        #expect(values > 10_000)
        let geofences = Self.records(try String(contentsOfFile: folder.file("export/geofences.csv"), encoding: .utf8))
        #expect(geofences.contains { $0.contains("Café \"Le Zinc\", Paris") })
    }

    @Test func schemaDeclaresEveryColumnAndASecondExportIsByteIdentical() throws {
        let folder = try TemporaryFolder()
        let storePath = try makeStore(folder)
        var export = TableExport(storePath: storePath, folder: folder.file("export"))
        export.tables = ["staypoints", "fixes"]
        _ = try export.run(progress: ProgressReporter(quiet: true))
        let first = try Data(contentsOf: URL(fileURLWithPath: folder.file("export/staypoints.csv")))
        _ = try export.run(progress: ProgressReporter(quiet: true))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("export/staypoints.csv"))) == first)
        #expect(!FileManager.default.fileExists(atPath: folder.file("export/trips.csv")))

        let schema =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("export/schema.json"))))
            as! [String: Any]
        let tables = schema["tables"] as! [[String: Any]]
        #expect(tables.map { $0["name"] as! String } == ["fixes", "staypoints"])
        let staypoints = tables[1]
        #expect(staypoints["primary_key"] as? [String] == ["id"] && staypoints["rows"] as? Int == 2)
        let fields = (staypoints["spark_schema"] as! [String: Any])["fields"] as! [[String: Any]]
        let types = Dictionary(uniqueKeysWithValues: fields.map { ($0["name"] as! String, $0["type"] as! String) })
        #expect(types["id"] == "long" && types["device"] == "string" && types["lat_deg"] == "double" && types["fixes"] == "long")
        let header = String(decoding: first, as: UTF8.self).split(separator: "\n")[0].split(separator: ",").map(String.init)
        #expect(header == fields.map { $0["name"] as! String })
    }

    @Test func anUnknownTableIsRefusedWithTheStoresTables() throws {
        let folder = try TemporaryFolder()
        var export = TableExport(storePath: try makeStore(folder), folder: folder.file("export"))
        export.tables = ["stays"]
        #expect {
            _ = try export.run(progress: ProgressReporter(quiet: true))
        } throws: { error in
            "\(error)".contains("no table stays") && "\(error)".contains("staypoints")
        }
    }

    @Test func emptyTextIsQuotedNullIsEmptyAndAMismatchIsRefused() {
        let cases: [(StoredValue, ExportColumnType)] = [
            (.text(""), .string), (.null, .string), (.text("a\r\nb"), .string), (.real(-0.0), .double),
            (.real(.infinity), .double), (.real(1e-5), .double), (.integer(3), .double), (.integer(-7), .long)
        ]
        var text: [UInt8] = []
        for (value, type) in cases {
            text.append(UInt8(ascii: "|"))
            #expect(ExportCSV.append(value, as: type, to: &text))
        }
        #expect(String(decoding: text, as: UTF8.self) == "|\"\"||\"a\r\nb\"|-0.0|Inf|1e-05|3.0|-7")
        #expect(!ExportCSV.append(.text("7"), as: .long, to: &text) && !ExportCSV.append(.real(1.5), as: .long, to: &text))
    }
}
