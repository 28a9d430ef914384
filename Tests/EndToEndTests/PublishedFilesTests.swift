import Foundation
import Ingest
import MobilityCore
import Reports
import Store
import TestSupport
import Testing

/// What leaves the store (`OutputLayout`): the top of the output folder publishes no row of
/// fewer than k persons and names no device, person or input; everything that does is in
/// `restricted/`, through the real binary.
@Suite struct PublishedFilesTests {
    let cli = PipelineCLI()

    /// The files at the top of `folder`, but `restricted/` (the store is in it).
    static func published(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != OutputLayout.restrictedFolderName }.sorted()
    }

    /// Residents of the two hemispheres, for weights.
    static let hemispherePopulation = "zone_id,population\nwest,1000\neast,1000\n"

    /// A zone layer of two zones, west and east of Greenwich.
    static let hemispheres = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"west","name":"West"},"geometry":{"type":"Polygon","coordinates":[[[-180,-85],[0,-85],[0,85],[-180,85],[-180,-85]]]}},
        {"type":"Feature","properties":{"id":"east","name":"East"},"geometry":{"type":"Polygon","coordinates":[[[0,-85],[180,-85],[180,85],[0,85],[0,-85]]]}}
        ]}
        """

    @Test func theBundledTracesPublishNoRowOfFewerThanKPersonsAndNameNobody() throws {
        let folder = try TemporaryFolder()
        let traces = SharedData.projectRoot + "/traces"
        try folder.write("hemispheres.geojson", Self.hemispheres)
        try folder.write("population.csv", Self.hemispherePopulation)
        let run = try cli.pipeline(
            ["run", traces, "--out", "out", "--zones", "hemispheres.geojson", "--population", "population.csv"], in: folder.path)
        #expect(run.status == 2, "the cut-off upload is quarantined: \(run.stderr)")
        let out = folder.file("out")

        let top = try Self.published(out)
        let expected = top.filter {
            OutputLayout.publishedTables.contains($0) || $0 == "report.html" || $0 == "pipeline.gpkg" || $0.hasPrefix("heatmap")
        }
        #expect(top == expected, "only aggregates, the report and the GeoPackage publish: \(Set(top).subtracting(expected).sorted())")
        #expect(Set(OutputLayout.publishedTables).isSubset(of: Set(top)))
        for file in OutputLayout.restrictedFiles.sorted() {
            #expect(FileManager.default.fileExists(atPath: OutputLayout.path(file, in: out)), "\(file) is in restricted/")
        }
        let readme = try String(contentsOfFile: folder.file("out/restricted/README.txt"), encoding: .utf8)
        #expect(readme.contains("identify people"))

        // Every published table counts persons, and every row has k = 3 of them.
        for file in top where file.hasSuffix(".csv") {
            let table = try CSVTable.read(path: (out as NSString).appendingPathComponent(file))
            let persons = try #require(table.columns.firstIndex(of: "persons"), "\(file) says how many persons each row has")
            let few = table.rows.filter { (Int($0[persons] ?? "") ?? 0) < 3 }
            #expect(few.isEmpty, "\(file): rows of fewer than 3 persons: \(few)")
        }

        // A mode's heat map is published only with a cell k persons were in: an empty one would
        // say that fewer than k persons used the mode. The store keeps every map.
        let modeMaps = top.filter { $0.hasPrefix("heatmap-") && $0.hasSuffix(".geojson") }
        #expect(!modeMaps.isEmpty)
        for file in modeMaps {
            let text = try String(contentsOfFile: (out as NSString).appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("\"Polygon\""), "\(file) is published without a cell")
        }
        let stored = try PipelineStore(path: folder.file("out/restricted/pipeline.sqlite")).heatMapSummaries()
        #expect(stored.contains { $0.map != "all" && $0.cells == 0 }, "the bundled traces have a mode no cell of which reaches k")

        // No published byte names a device, a person or an input file.
        let devices = try CSVTable.read(path: folder.file("out/restricted/device_stats.csv"))
        let names = Set(devices.rows.compactMap { $0[devices.columns.firstIndex(of: "device")!] })
        let inputs = Set(
            (FileManager.default.enumerator(atPath: traces)?.allObjects as? [String] ?? [])
                .filter { !$0.hasPrefix(".") }.map { ($0 as NSString).lastPathComponent }.filter { $0.contains(".") })
        #expect(names.count == 8 && inputs.count > 8)
        for file in top {
            let bytes = try #require(FileManager.default.contents(atPath: (out as NSString).appendingPathComponent(file)))
            for name in names.union(inputs) where bytes.range(of: Data(name.utf8)) != nil {
                Issue.record("\(file) names \(name)")
            }
        }
        // The operator's page names them: it is in restricted/.
        let operatorPage = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(names.allSatisfy { operatorPage.contains($0) } && operatorPage.contains("identifies people"))
    }

    /// A simulated city of 20 devices over two days at k = 3 persons: the OD grid still
    /// publishes most of its trips (pairs under k tried again on coarser cells).
    @Test func aCityOfTwentyDevicesStillPublishesAtLeastHalfOfItsTripsOnTheODGrid() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "20", "--days", "2", "--seed", "7", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        let run = try cli.pipeline(["run", "city", "--out", "out", "--json"], in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let trips = try #require(summary["trips"] as? Int)
        let grid = try CSVTable.read(path: folder.file("out/od_grid.csv"))
        let (count, persons) = (grid.columns.firstIndex(of: "trips")!, grid.columns.firstIndex(of: "persons")!)
        let published = grid.rows.reduce(0) { $0 + (Int($1[count] ?? "") ?? 0) }
        #expect(grid.rows.allSatisfy { (Int($0[persons] ?? "") ?? 0) >= 3 })
        #expect(trips > 100 && Double(published) >= 0.5 * Double(trips), "\(published) of \(trips) trips published")
        let said = try #require(summary["od_grid"] as? [String: Any])
        #expect(said["published_trips"] as? Int == published)
        print("od_grid.csv publishes \(published) of \(trips) trips of a 20-device city at k = 3")
    }

    /// The same city with a 3 × 3 layer of zones over its fixes: nine home zones of few persons
    /// each: `co2e.csv` still publishes the whole panel's rows (before, it published no row at
    /// all), and the zones' rows only where they can be protected, or none of them.
    @Test func co2eOfACityOfManyHomeZonesKeepsTheWholePanelsRows() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "20", "--days", "2", "--seed", "7", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        var (latitudes, longitudes) = ([Double](), [Double]())
        let files = FileManager.default.enumerator(atPath: folder.file("city"))!.compactMap { $0 as? String }.filter {
            $0.hasSuffix(".gpx")
        }
        for file in files {
            let text = try String(contentsOfFile: folder.file("city/" + file), encoding: .utf8)
            for match in text.matches(of: /lat="([-0-9.]+)" lon="([-0-9.]+)"/) {
                latitudes.append(Double(match.1)!)
                longitudes.append(Double(match.2)!)
            }
        }
        let (south, west) = (latitudes.min()! - 0.001, longitudes.min()! - 0.001)
        let (dLat, dLon) = ((latitudes.max()! + 0.001 - south) / 3, (longitudes.max()! + 0.001 - west) / 3)
        var features: [String] = []
        for i in 0..<3 {
            for j in 0..<3 {
                let (s, w) = (south + Double(i) * dLat, west + Double(j) * dLon)
                let ring = [(w, s), (w + dLon, s), (w + dLon, s + dLat), (w, s + dLat), (w, s)].map { "[\($0.0), \($0.1)]" }
                features.append(
                    #"{"type":"Feature","properties":{"id":"z\#(i)\#(j)","name":"zone \#(i)\#(j)"},"geometry":{"type":"Polygon","coordinates":[["#
                        + ring.joined(separator: ",") + "]]}}")
            }
        }
        try folder.write("zones.geojson", #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
        let run = try cli.pipeline(["run", "city", "--out", "out", "--zones", "zones.geojson", "--json"], in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let said = try #require(summary["co2e"] as? [String: Any])
        let co2e = try CSVTable.read(path: folder.file("out/co2e.csv"))
        let (zone, persons) = (co2e.columns.firstIndex(of: "home_zone_id")!, co2e.columns.firstIndex(of: "persons")!)
        // The panel's rows are always published; the zones' only where they can be protected
        // (here it depends on which modes the legs get), and every row is of k persons or more.
        #expect(co2e.rows.filter { $0[zone] == "all" }.count >= 5, "\(co2e.rows)")
        #expect(co2e.rows.allSatisfy { (Int($0[persons] ?? "") ?? 0) >= 3 }, "\(co2e.rows)")
        if said["zone_rows_left_out"] as? Bool == true { #expect(co2e.rows.allSatisfy { $0[zone] == "all" }) }
    }

    /// Two persons' walks, k = 3: every total of the run is theirs alone, so the published page
    /// withholds the overview's and the inputs' counts and the time span, and says why, and no
    /// table's line says how many trips it left out; the operator's page keeps them.
    @Test func aRunOfFewerThanKPersonsPublishesNoTotal() throws {
        let folder = try TemporaryFolder()
        for (person, latitude) in [("ann", 48.0), ("ben", 48.2)] {
            var gpx = GPXBuilder()
            gpx.tracks = [[GPXBuilder.walk(count: 900, latitude: latitude)]]
            try folder.write("traces/\(person)/day.gpx", gpx.text)
        }
        let run = try cli.pipeline(["run", "traces", "--out", "out"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let published = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        let restricted = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        #expect(published.contains("fewer than k = 3 persons") && !published.contains("GPS fixes") && !published.contains("Data from"))
        #expect(!published.contains("<th>format</th>"), "no files by format")
        #expect(restricted.contains("GPS fixes") && restricted.contains("Data from"))
        let tripCount = #/\b\d+ trips\b/#
        #expect(published.firstMatch(of: tripCount) == nil, "no count of the two persons' trips on the published page")
        #expect(published.contains("What this table left out, and of how many trips: not shown, fewer than k persons"))
        #expect(restricted.firstMatch(of: tripCount) != nil, "the operator's page says what each table left out")
    }
}
