import Foundation
import GRDBSQLite
import MobilityCore
import Reports
import TestSupport
import Testing

/// The outputs' one set of conventions (`OutputSchema`) and the GeoPackage, through the real
/// binary on the bundled traces and on a simulated city.
@Suite(.serialized) struct OutputSchemaTests {
    let cli = PipelineCLI()

    /// `pipeline run` on the bundled traces and on a simulated city (6 devices, a day, no IMU,
    /// k = 1), each into its own output folder; made once for the suite's tests.
    nonisolated(unsafe) static let folder = try! TemporaryFolder.forProcess() // kept for the process, removed at its exit; only read
    static let runs: (bundled: String, city: String) = {
        let cli = PipelineCLI()
        let bundled = folder.file("bundled")
        // Two zones, west and east of Greenwich, so od_zones.csv is written too.
        _ = try! folder.write("hemispheres.geojson", PublishedFilesTests.hemispheres)
        _ = try! folder.write("population.csv", PublishedFilesTests.hemispherePopulation)
        _ = try! cli.pipeline(
            [
                "run", SharedData.projectRoot + "/traces", "--out", bundled, "--zones", "hemispheres.geojson", "--population",
                "population.csv"
            ], in: folder.path)
        _ = try! cli.pipeline(
            ["simulate", "--out", "city", "--devices", "6", "--days", "1", "--seed", "11", "--imu-rate", "0"], in: folder.path)
        // k = 1 here, so the OD grid and every heat map publish rows for the layers to hold.
        _ = try! folder.write("k1.yaml", "privacy:\n  k: 1\n")
        _ = try! cli.pipeline(
            [
                "run", "city", "--out", "city-out", "--config", "k1.yaml", "--allow-identifying-k", "--zones", "hemispheres.geojson",
                "--population", "population.csv"
            ],
            in: folder.path)
        return (bundled, folder.file("city-out"))
    }()

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test func everyFileHasTheSchemasColumnsWhateverTheData() throws {
        for folder in [Self.runs.bundled, Self.runs.city] {
            for schema in OutputSchema.runFiles {
                let path = OutputLayout.path(schema.file, in: folder)
                let table = try CSVTable.read(path: path)
                #expect(table.columns == schema.names, "\(path)")
            }
        }
        // The two data sets had different modes: the per-mode columns are there in both.
        let modes = { (folder: String) in
            let legs = try CSVTable.read(path: OutputLayout.path("triplegs.csv", in: folder))
            return Set(legs.rows.compactMap { $0[legs.columns.firstIndex(of: "travel_mode")!] })
        }
        #expect(try modes(Self.runs.bundled) != modes(Self.runs.city))
    }

    /// What the schema calls an id of a table (`idOf`, which a distributed run renumbers) holds
    /// ids of that table's rows, in every file of both runs; and every integer `…_id` column is
    /// one.
    @Test func everyIDColumnNamesRowsOfTheTableItSays() throws {
        let tables = [
            "staypoints": "staypoints.csv", "locations": "locations.csv", "triplegs": "triplegs.csv", "trips": "trips.csv",
            "dwells": "dwells.csv", "rides": "rides.csv"
        ]
        var checked = 0
        for folder in [Self.runs.bundled, Self.runs.city] {
            func ids(_ table: String) throws -> Set<String> {
                let path = OutputLayout.path(tables[table]!, in: folder)
                guard FileManager.default.fileExists(atPath: path) else { return [] }
                let csv = try CSVTable.read(path: path)
                let own = csv.columns.firstIndex(of: String(table.dropLast()) + "_id")!
                return Set(csv.rows.compactMap { $0[own] })
            }
            for schema in OutputSchema.runFiles {
                let path = OutputLayout.path(schema.file, in: folder)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let csv = try CSVTable.read(path: path)
                for (index, column) in schema.columns.enumerated() where column.name.hasSuffix("_id") && column.type == .integer {
                    let table = try #require(column.idOf, "\(schema.file): \(column.name) is an id of no table")
                    let known = try ids(table)
                    let values = Set(csv.rows.compactMap { $0[index] })
                    #expect(
                        values.isSubset(of: known),
                        "\(schema.file): \(column.name) holds \(values.subtracting(known).sorted().prefix(3)), not \(table) ids")
                    checked += values.count
                }
            }
        }
        #expect(checked > 100)
        #expect(OutputSchema.trips.columns.first { $0.name == "origin_location_id" }?.idOf == "locations")
        #expect(OutputSchema.triplegs.columns.first { $0.name == "tripleg_id" }?.idOf == "triplegs")
        #expect(OutputSchema.triplegs.columns.first { $0.name == "geofence_id" }?.idOf == nil)
    }

    @Test func everyTimeColumnHasMillisecondsAndItsUnixTwin() throws {
        let iso = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        for schema in OutputSchema.runFiles {
            let table = try CSVTable.read(path: OutputLayout.path(schema.file, in: Self.runs.bundled))
            for (index, column) in schema.columns.enumerated() where column.type == .datetime {
                let twin = String(column.name.dropLast(3)) + "_unix_s"
                #expect(schema.names.contains(twin), "\(schema.file).\(column.name) has no \(twin)")
                for row in table.rows {
                    guard let text = row[index] else { continue }
                    #expect(text.wholeMatch(of: iso) != nil, "\(schema.file).\(column.name): \(text)")
                    let unix = row[schema.names.firstIndex(of: twin)!].flatMap(Double.init)
                    #expect(unix.map { ISO8601.formatMillis(Timestamp(secondsSince1970: $0)) } == text, "\(schema.file).\(twin)")
                }
            }
        }
    }

    /// SQLite's own keyword list (`sqlite3_keyword_check`), which holds every SQL-92 reserved
    /// word SQLite parses; pandas' attributes are checked in scripts/peers/tests with pandas itself.
    @Test func noColumnIsAnSQLKeyword() {
        #expect(sqlite3_keyword_check("end", 3) != 0 && sqlite3_keyword_check("map", 3) == 0) // the check itself
        for schema in OutputSchema.runFiles + [OutputSchema.features] {
            for name in schema.names {
                #expect(sqlite3_keyword_check(name, Int32(name.utf8.count)) == 0, "\(schema.file).\(name) is an SQL keyword")
            }
        }
    }

    @Test func theSchemaPageIsTheCodes() throws {
        let readme = try String(contentsOfFile: SharedData.projectRoot + "/docs/output-schema.md", encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- output-schema:begin -->\n")),
            end = try #require(readme.range(of: "<!-- output-schema:end -->"))
        let page = String(readme[begin.upperBound..<end.lowerBound])
        #expect(
            page == OutputSchema.markdown(),
            "docs/output-schema.md differs from the code: paste the output of `pipeline schema` between its markers")
        let printed = try cli.pipeline(["schema"], in: SharedData.projectRoot)
        #expect(printed.status == 0 && printed.stdout == OutputSchema.markdown())
    }

    /// GDAL opens `pipeline.gpkg`: every layer, with as many features as its CSV has rows,
    /// every geometry valid (GEOS through OGR's SQLite dialect), and GDAL's own validator
    /// (`validate_gpkg.py`, the GeoPackage requirements it checks) finds nothing.
    @Test func gdalOpensTheGeoPackage() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ogrinfo") else {
            print("skipped: GDAL's ogrinfo is not installed (scripts/bootstrap.sh gdal-bin python3-gdal installs it; scripts/test.sh does)")
            return
        }
        for folder in [Self.runs.bundled, Self.runs.city] {
            // Two files (OutputLayout): the published layers, and those that identify people.
            let (published, gpkg) = (folder + "/pipeline.gpkg", folder + "/restricted/pipeline.gpkg")
            var counts: [String: Int] = [:], fileOf: [String: String] = [:]
            for file in [published, gpkg] {
                let info = try Self.run("/usr/bin/ogrinfo", ["-ro", "-so", "-al", file])
                #expect(info.status == 0 && !info.stderr.contains("ERROR"), "\(info.stderr)")
                var name = ""
                for line in info.stdout.split(separator: "\n") {
                    if line.hasPrefix("Layer name: ") { name = String(line.dropFirst(12)); fileOf[name] = file }
                    if line.hasPrefix("Feature Count: ") { counts[name] = Int(line.dropFirst(15)) }
                }
            }
            #expect(
                fileOf.filter { $0.value == published }.keys.allSatisfy { $0.hasPrefix("heatmap_") || $0 == "od_grid" || $0 == "od_zones" },
                "the published file has only the heat maps and the OD tables: \(fileOf)")
            var expected: [String: Int] = [:]
            for (layer, file) in [
                ("staypoints", "staypoints.csv"), ("locations", "locations.csv"), ("dwells", "dwells.csv"),
                ("triplegs", "triplegs.csv"), ("trips", "trips.csv"), ("rides", "rides.csv"), ("od_grid", "od_grid.csv"),
                ("od_zones", "od_zones.csv"),
                ("person_days", "person_days.csv"), ("untracked", "untracked.csv"), ("tours", "tours.csv")
            ] {
                expected[layer] = try CSVTable.read(path: OutputLayout.path(file, in: folder)).rows.count
            }
            let heat = try CSVTable.read(path: folder + "/heatmap.csv")
            for row in heat.rows { expected["heatmap_" + row[0]!, default: 0] += 1 }
            for png in try FileManager.default.contentsOfDirectory(atPath: folder) where png.hasPrefix("heatmap-") && png.hasSuffix(".png")
            {
                expected["heatmap_" + png.dropFirst(8).dropLast(4), default: 0] += 0 // an empty map is an empty layer
            }
            expected["heatmap_all", default: 0] += 0
            for (layer, rows) in expected {
                #expect(counts[layer] == rows, "\(gpkg): \(layer) has \(counts[layer] ?? -1) features, its CSV \(rows) rows")
            }
            #expect((counts["geofences"] ?? 0) > 0 && counts.count == expected.count + 1, "\(counts.keys.sorted())")
            #expect((counts["triplegs"] ?? 0) > 0 && (counts["heatmap_all"] ?? 0) > 0)
            if folder == Self.runs.city { #expect((counts["od_grid"] ?? 0) > 0) }

            for layer in counts.keys where !["rides", "person_days", "untracked", "tours"].contains(layer) {
                let sql = "SELECT COUNT(*) AS bad FROM \"\(layer)\" WHERE geom IS NOT NULL AND NOT ST_IsValid(geom)"
                let valid = try Self.run("/usr/bin/ogrinfo", ["-ro", "-q", fileOf[layer] ?? gpkg, "-dialect", "SQLite", "-sql", sql])
                #expect(valid.status == 0 && valid.stdout.contains("bad (Integer) = 0"), "\(layer): \(valid.stdout) \(valid.stderr)")
            }
            let validator = "/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py"
            for file in [published, gpkg] where FileManager.default.fileExists(atPath: validator) {
                let checked = try Self.run("/usr/bin/python3", [validator, "-k", file])
                #expect(
                    checked.status == 0 && checked.stdout.isEmpty && checked.stderr.isEmpty, "\(file): \(checked.stdout)\(checked.stderr)")
            }
            // Same ids and columns as the CSV: a leg's id, mode and start, read back through OGR.
            let legs = try CSVTable.read(path: OutputLayout.path("triplegs.csv", in: folder))
            let first = legs.rows[0]
            let feature = try Self.run(
                "/usr/bin/ogrinfo", ["-ro", "-q", gpkg, "-sql", "SELECT tripleg_id, travel_mode, started_at FROM triplegs WHERE fid = 1"])
            #expect(
                feature.stdout.contains("tripleg_id (Integer64) = \(first[0]!)")
                    && feature.stdout.contains("travel_mode (String) = \(first[legs.columns.firstIndex(of: "travel_mode")!]!)"),
                "\(feature.stdout)")
            // OGR prints a DateTime as 2024/05/06 07:02:50+00 (milliseconds when not zero).
            let shown = first[legs.columns.firstIndex(of: "started_at")!]!.prefix(19).replacingOccurrences(of: "-", with: "/")
                .replacingOccurrences(of: "T", with: " ")
            #expect(feature.stdout.contains("started_at (DateTime) = " + shown), "\(feature.stdout)")
            try expectLegLinesAsTheGeoJSON(gpkg: gpkg, folder: folder, legs: legs)
        }
    }

    /// Legs' lines read back through OGR (the first, the last, one between) have the points of
    /// `triplegs.geojson`, and OGR finds the extent the GeoPackageBinary header and the R-tree
    /// give them: the encoding checked by an independent reader.
    func expectLegLinesAsTheGeoJSON(gpkg: String, folder: String, legs: CSVTable) throws {
        let geojson =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: OutputLayout.path("triplegs.geojson", in: folder)))) as! [String: Any]
        var lines: [Int: [[Double]]] = [:]
        for feature in geojson["features"] as! [[String: Any]] {
            let id = (feature["properties"] as! [String: Any])["tripleg_id"] as! Int
            lines[id] = (feature["geometry"] as! [String: Any])["coordinates"] as? [[Double]]
        }
        for fid in Set([1, legs.rows.count / 2, legs.rows.count]) {
            let id = Int(legs.rows[fid - 1][0]!)!
            let expected = try #require(lines[id], "tripleg \(id) is in triplegs.geojson")
            let shown = try Self.run(
                "/usr/bin/ogrinfo",
                [
                    "-ro", "-q", gpkg, "-dialect", "SQLite", "-sql",
                    "SELECT tripleg_id, ST_AsText(geom) AS wkt, ST_MinX(geom) AS x0, ST_MaxX(geom) AS x1, "
                        + "ST_MinY(geom) AS y0, ST_MaxY(geom) AS y1 FROM triplegs WHERE fid = \(fid)"
                ]
            ).stdout
            func field(_ name: String) -> String? {
                shown.split(separator: "\n").first { $0.contains(" \(name) (") }.flatMap {
                    $0.split(separator: " = ", maxSplits: 1).last.map(String.init)
                }
            }
            #expect(field("tripleg_id") == String(id), "\(shown)")
            let wkt = try #require(field("wkt"), "\(shown.prefix(500))")
            let numbers = wkt.drop { $0 != "(" }.dropFirst().dropLast().split { $0 == " " || $0 == "," }.compactMap { Double($0) }
            #expect(numbers == expected.flatMap { $0 }, "tripleg \(id): \(wkt.prefix(200))")
            let box = ["x0", "x1", "y0", "y1"].map { field($0).flatMap(Double.init) }
            let (longitudes, latitudes) = (expected.map { $0[0] }, expected.map { $0[1] })
            #expect(box == [longitudes.min(), longitudes.max(), latitudes.min(), latitudes.max()], "tripleg \(id): \(box)")
        }
    }

    /// Two cities 9,000 km apart (a walker in each, k = 1): a heat-map image per city, the
    /// biggest first, each at a street scale, every one in the report; a GeoJSON per mode.
    @Test func twoCitiesGiveAHeatMapImageEach() throws {
        let folder = try TemporaryFolder()
        for (name, latitude, longitude, count) in [("paris", 48.85, 2.35, 900), ("beijing", 39.91, 116.31, 1500)] {
            var gpx = GPXBuilder()
            gpx.tracks = [[GPXBuilder.walk(count: count, latitude: latitude, longitude: longitude)]]
            try folder.write("in/\(name)/walk.gpx", gpx.text)
        }
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        let run = try cli.pipeline(["run", "in", "--out", "out", "--config", "k1.yaml", "--allow-identifying-k"], in: folder.path)
        #expect([0, 2].contains(run.status), "\(run.stderr)")
        let pngs = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).filter { $0.hasSuffix(".png") }.sorted()
        #expect(pngs.contains("heatmap.png") && pngs.contains("heatmap-region-2.png") && !pngs.contains("heatmap-region-3.png"), "\(pngs)")
        let html = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(html.contains("alt=\"heat map all\"") && html.contains("alt=\"heat map all, region 2\""))
        let cells = try CSVTable.read(path: folder.file("out/heatmap.csv"))
        let lat = cells.columns.firstIndex(of: "center_lat_deg")!
        #expect(Set(cells.rows.compactMap { $0[lat].flatMap(Double.init).map { $0 > 45 } }) == [true, false], "cells in both cities")
        for map in ["all"] + OutputSchema.modeNames.dropLast()
        where FileManager.default.fileExists(atPath: folder.file("out/" + HeatMapFiles.imageName(map))) {
            #expect(FileManager.default.fileExists(atPath: folder.file("out/" + HeatMapFiles.geoJSONName(map))), "\(map)")
        }
        // Back to one city: the second region's images go.
        try FileManager.default.removeItem(atPath: folder.file("in/paris"))
        _ = try cli.pipeline(
            ["run", "in", "--out", "out", "--config", "k1.yaml", "--allow-identifying-k", "--prune-missing"], in: folder.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).filter { $0.contains("-region-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aRunThatChangedNothingLeavesTheGeoPackageAlone() throws {
        let gpkg = Self.runs.bundled + "/pipeline.gpkg"
        let before = try FileManager.default.attributesOfItem(atPath: gpkg)[.modificationDate] as? Date
        // As the run was made.
        let zones = ["--zones", Self.folder.file("hemispheres.geojson"), "--population", Self.folder.file("population.csv")]
        let again = try cli.pipeline(["run", SharedData.projectRoot + "/traces", "--out", Self.runs.bundled] + zones, in: Self.runs.bundled)
        #expect(again.stderr.contains("nothing changed since the last run"))
        #expect(try FileManager.default.attributesOfItem(atPath: gpkg)[.modificationDate] as? Date == before)
        try FileManager.default.removeItem(atPath: gpkg)
        let missing = try cli.pipeline(
            ["run", SharedData.projectRoot + "/traces", "--out", Self.runs.bundled] + zones, in: Self.runs.bundled)
        #expect(
            !missing.stderr.contains("nothing changed") && FileManager.default.fileExists(atPath: gpkg),
            "a missing GeoPackage is written again")
    }
}
