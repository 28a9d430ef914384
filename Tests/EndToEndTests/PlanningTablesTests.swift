import Foundation
import MobilityCore
import Reports
import TestSupport
import Testing

/// The zone OD end to end (`--zones`, `od_zones.csv`, the GeoPackage's `od_zones` layer) on a
/// simulated city split into a west and an east zone at the median staypoint longitude: its
/// whole-day rows are the pairs the test counts itself from `trips.csv` and `staypoints.csv`,
/// its morning-peak rows the trips leaving between 07:00 and 10:00 on Paris's clock (read with
/// Foundation's calendar, not the pipeline's), and a GeoPackage of the same zones made by GDAL
/// gives the same bytes.
@Suite(.serialized) struct PlanningTablesTests {
    let cli = PipelineCLI()

    struct Fixture {
        var folder: TemporaryFolder
        var middleLongitude: Double
        var run: [String: Any]
    }

    /// The city, run once without zones and once with them; made once for the suite's tests.
    nonisolated(unsafe) static let made: Fixture? = try? makeFixture()
    nonisolated(unsafe) static var failure = ""

    static var fixture: Fixture {
        get throws {
            guard let made else { throw PipelineError(.unexpected, "the simulated city could not be run: \(failure)") }
            return made
        }
    }

    static func makeFixture() throws -> Fixture {
        let folder = try TemporaryFolder.forProcess()
        let cli = PipelineCLI()
        let simulate = try cli.pipeline(
            [
                "simulate", "--out", "city", "--devices", "12", "--days", "2", "--seed", "5", "--imu-rate", "0", "--time-zone",
                "Europe/Paris"
            ], in: folder.path)
        guard simulate.status == 0 else { failure = simulate.stderr; throw PipelineError(.unexpected, simulate.stderr) }
        let first = try cli.pipeline(["run", "city", "--out", "out", "--json"], in: folder.path)
        guard [0, 2].contains(first.status) else { failure = first.stderr; throw PipelineError(.unexpected, first.stderr) }
        let stays = try CSVTable.read(path: folder.file("out/restricted/staypoints.csv"))
        let lon = stays.columns.firstIndex(of: "lon")!
        let longitudes = stays.rows.compactMap { $0[lon].flatMap(Double.init) }.sorted()
        let middle = longitudes[longitudes.count / 2]
        func rectangle(_ west: Double, _ east: Double) -> String {
            "[[[\(west),40.0],[\(east),40.0],[\(east),60.0],[\(west),60.0],[\(west),40.0]]]"
        }
        let (minimum, maximum) = (longitudes.first! - 1, longitudes.last! + 1)
        try folder.write(
            "zones.geojson",
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"zone_code":"W","label":"West"},"geometry":{"type":"Polygon","coordinates":\(rectangle(minimum, middle))}},
            {"type":"Feature","properties":{"zone_code":"E","label":"East"},"geometry":{"type":"Polygon","coordinates":\(rectangle(middle, maximum))}},
            {"type":"Feature","properties":{"zone_code":"P","label":"A point"},"geometry":{"type":"Point","coordinates":[2.3,48.8]}}
            ]}
            """)
        // A confusion measured on two other persons: 80 % of walks and bikes right, 90 % of car trips.
        try folder.write(
            "confusion.csv",
            "person,true_mode,predicted_mode,count\ne1,walk,walk,40\ne1,walk,bike,10\ne2,walk,walk,40\ne2,walk,bike,10\n"
                + "e1,bike,bike,20\ne1,bike,walk,5\ne2,bike,bike,20\ne2,bike,walk,5\ne1,car,car,45\ne1,car,bus,5\ne2,car,car,45\ne2,car,bus,5\n"
        )
        let zoned = try cli.pipeline(
            [
                "run", "city", "--out", "out", "--zones", "zones.geojson", "--zone-id", "zone_code", "--zone-name", "label", "--confusion",
                "confusion.csv", "--json"
            ], in: folder.path)
        guard [0, 2].contains(zoned.status) else { failure = zoned.stderr; throw PipelineError(.unexpected, zoned.stderr) }
        let json = try JSONSerialization.jsonObject(with: Data(zoned.stdout.utf8)) as? [String: Any] ?? [:]
        return Fixture(folder: folder, middleLongitude: middle, run: json)
    }

    /// Each trip's pair and band, counted here from the restricted tables.
    func expectedTrips(_ fixture: Fixture) throws -> [(pair: String, band: String, person: String)] {
        let stays = try CSVTable.read(path: fixture.folder.file("out/restricted/staypoints.csv"))
        let (id, lon) = (stays.columns.firstIndex(of: "staypoint_id")!, stays.columns.firstIndex(of: "lon")!)
        var side: [String: String] = [:]
        for row in stays.rows { side[row[id]!] = Double(row[lon]!)! < fixture.middleLongitude ? "W" : "E" }
        let trips = try CSVTable.read(path: fixture.folder.file("out/restricted/trips.csv"))
        let column = { (name: String) in trips.columns.firstIndex(of: name)! }
        var paris = Calendar(identifier: .gregorian)
        paris.timeZone = TimeZone(identifier: "Europe/Paris")!
        return trips.rows.compactMap { row in
            guard let o = row[column("origin_staypoint_id")].flatMap({ side[$0] }),
                let d = row[column("destination_staypoint_id")].flatMap({ side[$0] })
            else { return nil }
            let start = Date(timeIntervalSince1970: Double(row[column("started_unix_s")]!)!)
            let clock = paris.component(.hour, from: start) * 60 + paris.component(.minute, from: start)
            let band = (420..<600).contains(clock) ? "am_peak" : (960..<1140).contains(clock) ? "pm_peak" : "off_peak"
            return (o + ">" + d, band, row[column("device")]!)
        }
    }

    func published(_ path: String) throws -> [String: (trips: Int, persons: Int)] {
        let table = try CSVTable.read(path: path)
        let column = { (name: String) in table.columns.firstIndex(of: name)! }
        var rows: [String: (Int, Int)] = [:]
        for row in table.rows {
            rows[row[column("time_band")]! + " " + row[column("origin_zone_id")]! + ">" + row[column("destination_zone_id")]!] = (
                Int(row[column("trips")]!)!, Int(row[column("persons")]!)!
            )
        }
        return rows
    }

    @Test func zoneRowsAreThePairsCountedIndependentlyWithKPersons() throws {
        let fixture = try Self.fixture
        let summary = try #require(fixture.run["od_zones"] as? [String: Any], "\(fixture.run.keys.sorted())")
        #expect(summary["zones"] as? Int == 2 && summary["dropped_features"] as? Int == 1, "\(summary)")
        let expected = try expectedTrips(fixture)
        let rows = try published(fixture.folder.file("out/od_zones.csv"))
        #expect(rows.values.allSatisfy { $0.persons >= 3 } && rows.keys.contains { $0.hasPrefix("all_day ") }, "\(rows)")
        var byKey: [String: (trips: Int, persons: Set<String>)] = [:]
        for trip in expected {
            for key in ["all_day " + trip.pair, trip.band + " " + trip.pair] {
                byKey[key, default: (0, [])].trips += 1
                byKey[key, default: (0, [])].persons.insert(trip.person)
            }
        }
        for (key, row) in rows {
            let counted = try #require(byKey[key], "\(key) published but counted nowhere")
            #expect(row.trips == counted.trips && row.persons == counted.persons.count, "\(key): \(row) vs \(counted.trips)")
        }
        for (key, counted) in byKey where key.hasPrefix("all_day ") && counted.persons.count >= 3 {
            #expect(rows[key] != nil, "\(key) made by \(counted.persons.count) persons is missing")
        }
        // Every trip is in a published whole-day row, a suppressed pair, outside, or unplaced.
        let trips = try CSVTable.read(path: fixture.folder.file("out/restricted/trips.csv")).rows.count
        let allDay = rows.filter { $0.key.hasPrefix("all_day ") }.values.reduce(0) { $0 + $1.trips }
        #expect(
            allDay + (summary["suppressed_trips"] as? Int ?? -1) + (summary["outside_trips"] as? Int ?? -1)
                + (summary["unplaced_trips"] as? Int ?? -1) == trips, "\(summary)")
        // A pair's band rows, when all are published, add up to its whole day; never one alone is missing.
        for pair in Set(rows.keys.map { $0.split(separator: " ")[1] }) {
            let bands = ["am_peak", "pm_peak", "off_peak"].filter { byKey["\($0) \(pair)"] != nil }
            let missing = bands.filter { rows["\($0) \(pair)"] == nil }
            #expect(missing.count != 1 || rows["all_day \(pair)"] == nil, "\(pair): only \(missing) left out")
            if missing.isEmpty, let whole = rows["all_day \(pair)"] {
                #expect(bands.reduce(0) { $0 + rows["\($1) \(pair)"]!.trips } == whole.trips)
            }
        }
        let report = try String(contentsOfFile: fixture.folder.file("out/report.html"), encoding: .utf8)
        #expect(report.contains("OD by zone (2 zones of zones.geojson)"))
    }

    /// `mode_shares.csv`: its whole-day shares are the modal split's (another code over the
    /// same trips), each inside its interval, and corrected by the confusion given, which it names.
    @Test func modeSharesAreTheModalSplitsWithIntervalsAndTheCorrection() throws {
        let fixture = try Self.fixture
        let shares = try CSVTable.read(path: fixture.folder.file("out/mode_shares.csv"))
        let split = try CSVTable.read(path: fixture.folder.file("out/modal_split.csv"))
        let s = { (name: String) in shares.columns.firstIndex(of: name)! }, m = { (name: String) in split.columns.firstIndex(of: name)! }
        var modal: [String: String] = [:]
        for row in split.rows where row[m("dimension")] == "all" { modal[row[m("travel_mode")]!] = row[m("trip_share")]! }
        let allDay = shares.rows.filter { $0[s("time_band")] == "all_day" }
        #expect(!allDay.isEmpty && shares.rows.allSatisfy { Int($0[s("persons")]!)! >= 3 })
        for row in allDay {
            let mode = row[s("travel_mode")]!
            if let published = modal[mode] { #expect(row[s("trip_share")] == published, "\(mode)") }
            let (share, low, high) = (
                Double(row[s("trip_share")]!)!, Double(row[s("trip_share_low95")]!)!, Double(row[s("trip_share_high95")]!)!
            )
            #expect(low <= share && share <= high && high - low > 0, "\(mode): \(low) \(share) \(high)")
            #expect(row[s("corrected_share")] != nil && row[s("correction")] == "confusion.csv (250 labelled units of 2 persons)")
        }
        let summary = try #require(fixture.run["mode_shares"] as? [String: Any])
        #expect(
            summary["correction"] as? String == "confusion.csv (250 labelled units of 2 persons)" && summary["replicates"] as? Int == 1000)
        let report = try String(contentsOfFile: fixture.folder.file("out/report.html"), encoding: .utf8)
        #expect(report.contains("<h2>Planning tables</h2>") && report.contains("measured on confusion.csv"))
        // The zone pairs as a map: a line per published whole-day pair between two zones, a circle per pair within one.
        let zones = try CSVTable.read(path: fixture.folder.file("out/od_zones.csv"))
        let z = { (name: String) in zones.columns.firstIndex(of: name)! }
        let wholeDay = zones.rows.filter { $0[z("time_band")] == "all_day" }
        let between = wholeDay.filter { $0[z("origin_zone_id")] != $0[z("destination_zone_id")] }.count
        #expect(report.components(separatedBy: "<line x1=").count - 1 >= between && report.contains("Zone pairs over the whole day"))
    }

    @Test func aGeoPackageOfTheSameZonesGivesTheSameTableAndItsLayer() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr") else {
            print("skipped: GDAL's ogr2ogr is not installed (scripts/bootstrap.sh gdal-bin installs it; scripts/test.sh does)")
            return
        }
        let fixture = try Self.fixture
        let folder = fixture.folder
        let made = try OutputSchemaTests.run("/usr/bin/ogr2ogr", ["-f", "GPKG", folder.file("zones.gpkg"), folder.file("zones.geojson")])
        try #require(made.status == 0, "\(made.stderr)")
        let fromGeoJSON = try #require(FileManager.default.contents(atPath: folder.file("out/od_zones.csv")))
        let publish = try cli.pipeline(
            [
                "publish", "--store", "out/pipeline.sqlite", "--out", "out", "--zones", "zones.gpkg", "--zone-id", "zone_code",
                "--zone-name", "label", "--confusion", "confusion.csv", "--json"
            ], in: folder.path)
        try #require(publish.status == 0, "\(publish.stderr)")
        #expect(FileManager.default.contents(atPath: folder.file("out/od_zones.csv")) == fromGeoJSON)
        #expect(publish.stdout.contains("\"od_zones\""), "\(publish.stdout)")
        // The published GeoPackage has the layer: a line for each row between two zones.
        let rows = try CSVTable.read(path: folder.file("out/od_zones.csv"))
        let (o, d) = (rows.columns.firstIndex(of: "origin_zone_id")!, rows.columns.firstIndex(of: "destination_zone_id")!)
        let info = try OutputSchemaTests.run("/usr/bin/ogrinfo", ["-ro", "-so", folder.file("out/pipeline.gpkg"), "od_zones"])
        #expect(info.stdout.contains("Feature Count: \(rows.rows.count)"), "\(info.stdout)")
        let lines = try OutputSchemaTests.run(
            "/usr/bin/ogrinfo",
            ["-ro", "-q", folder.file("out/pipeline.gpkg"), "-sql", "SELECT COUNT(*) AS n FROM od_zones WHERE geom IS NOT NULL"])
        #expect(lines.stdout.contains("n (Integer) = \(rows.rows.filter { $0[o] != $0[d] }.count)"), "\(lines.stdout)")
        // A layer in another reference system is refused, with the command that reprojects it.
        let mercator = try OutputSchemaTests.run(
            "/usr/bin/ogr2ogr", ["-f", "GPKG", "-t_srs", "EPSG:3857", folder.file("zones-3857.gpkg"), folder.file("zones.geojson")])
        try #require(mercator.status == 0, "\(mercator.stderr)")
        let refused = try cli.pipeline(
            [
                "publish", "--store", "out/pipeline.sqlite", "--out", "m-out", "--zones", "zones-3857.gpkg", "--zone-id", "zone_code",
                "--json"
            ],
            in: folder.path)
        #expect(
            refused.status == 1 && refused.stdout.contains("invalid_zone_layer")
                && (refused.stdout + refused.stderr).contains("ogr2ogr -t_srs EPSG:4326"),
            "\(refused.stdout) \(refused.stderr)")
    }

    @Test func aMovedZoneFileChangesNothingAndABadOneStopsTheRunFirst() throws {
        let fixture = try Self.fixture
        let folder = fixture.folder
        try FileManager.default.copyItem(atPath: folder.file("zones.geojson"), toPath: folder.file("renamed-zones.geojson"))
        let again = try cli.pipeline(
            [
                "run", "city", "--out", "out", "--zones", "renamed-zones.geojson", "--zone-id", "zone_code", "--zone-name", "label",
                "--confusion", "confusion.csv", "--json"
            ], in: folder.path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(json["up_to_date"] as? Bool == true && json["od_zones"] is [String: Any], "\(again.stderr)")
        let noId = try cli.pipeline(["run", "city", "--out", "out", "--zones", "zones.geojson", "--json"], in: folder.path)
        #expect(
            noId.status == 1 && noId.stderr.contains("feature 1 has no property id") && noId.stderr.contains("--zone-id"), "\(noId.stderr)")
        let missing = try cli.pipeline(["run", "city", "--out", "out", "--zones", "nowhere.geojson"], in: folder.path)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere.geojson: no such file"), "\(missing.stderr)")
        let band = try cli.pipeline(["run", "city", "--out", "out", "--time-band", "am 7-9"], in: folder.path)
        #expect(band.status == 64 && band.stderr.contains("name HH:MM-HH:MM"), "\(band.stderr)")
        // `publish` at another k than the trip stage published at would audit against margins of that k: refused, naming both.
        let otherK = try cli.pipeline(["publish", "--store", "out/pipeline.sqlite", "--out", "out", "--k", "7"], in: folder.path)
        #expect(
            otherK.status == 64 && otherK.stderr.contains("publish --k 7") && otherK.stderr.contains("published at k = 3"),
            "\(otherK.stderr)")
    }
}
