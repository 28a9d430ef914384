import Foundation
import GRDB
import PipelineRunner
import Store
import TestSupport
import Testing

/// `pipeline publish --reduced`: the formulas over a distributed run's reductions, on
/// reductions with known answers written as the Spark job's reducers write them (numbers in
/// Java's or Python's shortest round-trip text, "" for an empty string, an empty field for NULL). The Spark tests
/// (spark/tests) compare the whole path with a single run byte for byte.
@Suite struct ReducedTablesTests {
    let cli = PipelineCLI()

    func write(_ folder: TemporaryFolder, _ table: String, _ text: String) throws {
        try folder.write("reduced/\(table)/part-00000-1a2b-c000.csv", text)
        try folder.write("reduced/\(table)/_SUCCESS", "")
    }

    @Test func publishAppliesTheFormulasToTheReductions() throws {
        let folder = try TemporaryFolder()
        try write(
            folder, "od_groups",
            """
            origin_geofence_id,destination_geofence_id,trips,devices,persons,durations_s,distances_m,main_modes
            home,work,3,4,3,600.0 900.0 1200.0,1000.0 2500.0 3000.0,car walk car
            ,work,2,2,2,6.0E2 1.2E3,1.5E3 2.5E3,bus bus
            ,home,4,3,3,6.0E2 1.2E3 9.0E2 9.0E2,1.5E3 2.5E3 2.5E3 2.5E3,bus bus bus bus

            """)
        try write(
            folder, "od_mode_groups",
            """
            origin_geofence_id,destination_geofence_id,main_mode,trips,persons
            home,work,car,2,2
            home,work,walk,1,1
            ,work,bus,2,2
            ,home,bus,4,3

            """)
        try write(
            folder, "modal_totals",
            """
            dimension,dimension_value,travel_mode,trips,distance_m,duration_s,persons
            all,all,car,2,3500.0,1500.0,4
            all,all,walk,1,1000.0,500.0,3
            hour,08,car,2,3500.0,1500.0,4

            """)
        try write(folder, "heatmaps", "heat_map,cell_m,min_devices,filter\nall,100.0,3,\"\"\n")
        try write(
            folder, "heat_cells",
            """
            heat_map,cell_id,fixes,devices,persons,dwell_s
            all,100m:5:7,40,4,3,120.5
            all,100m:5:8,10,3,2,0.0

            """)
        let classes = "class_very_comfortable,class_comfortable,class_medium,class_uncomfortable,class_very_uncomfortable"
        let ratings =
            "cleanliness_sum,cleanliness_n,odours_temperature_sum,odours_temperature_n,crowding_sum,crowding_n,service_sum,service_n"
        try write(
            folder, "train_comfort_groups",
            """
            train,rides,measured_rides,devices,persons,nmvs,a_vs_mps2,\(classes),\(ratings),noise_db_sum,noise_n,departure_delays_s,arrival_delays_s
            TER 1,5,4,3,3,1.0 2.0 3.0 4.0,0.1 0.2 0.3 0.4,1,1,2,0,0,7,2,0,0,3,1,8,2,130.0,2,-60.0 0.0 60.0 120.0,""

            """)
        try write(
            folder, "route_comfort_groups",
            """
            from_station,to_station,rides,measured_rides,devices,persons,nmvs,a_vs_mps2,\(classes),\(ratings),noise_db_sum,noise_n,departure_delays_s,arrival_delays_s

            """)
        try RunCommandTests().simulate(folder, devices: 2, imu: false)
        let run = try cli.pipeline(["run", "traces", "--out", "run"], in: folder.path)
        #expect([0, 2].contains(run.status), "\(run.stderr)")
        let publish = try cli.pipeline(
            ["publish", "--store", "run/pipeline.sqlite", "--out", "run", "--reduced", "reduced"], in: folder.path)
        try #require(publish.status == 0, "\(publish.stderr)")
        // The Spark job copies the store as one file: publish's writes are in it, not left in a WAL.
        let wal = (try? FileManager.default.attributesOfItem(atPath: folder.file("run/restricted/pipeline.sqlite-wal"))[.size] as? Int) ?? 0
        #expect(wal == 0, "publish left \(wal) bytes in pipeline.sqlite-wal")

        // At k = 3: the pair of 2 persons is suppressed. The hand-made reductions do not add up (the
        // OD groups' bus trips are in no modal-split row), which the audit of both tables together
        // takes as given: whatever it publishes has k persons, and the formulas hold on it.
        let od = try readCSV(folder.file("run/od_matrix.csv"))
        #expect(!od.contains { $0["destination_name"] == "work" && $0["origin_name"] == "(no geofence)" }, "\(od)")
        #expect(od.allSatisfy { Int($0["persons"] ?? "") ?? 0 >= 3 })
        for row in od where row["origin_name"] == "home" {
            #expect(
                row["trips"] == "3" && row["devices"] == "4" && row["median_duration_s"] == "900.0" && row["median_distance_m"] == "2500.0")
            #expect(row["share_walk"] == "", "one person's walk is left out of the row")
        }
        for row in od where row["origin_name"] == "(no geofence)" {
            #expect(row["destination_name"] == "home" && row["median_duration_s"] == "900.0" && row["share_bus"] == "1.0000")
        }
        let split = try readCSV(folder.file("run/modal_split.csv"))
        #expect(split.allSatisfy { Int($0["persons"] ?? "") ?? 0 >= 3 })
        for row in split where row["dimension"] == "all" {
            let (trips, share) = (Double(row["trips"]!)!, row["trip_share"]!)
            #expect(share == String(format: "%.4f", trips / 3), "of the 3 trips in all: \(row)")
        }
        // With k = 1 every row stands, in Mode order within a key, with its shares.
        let open = try cli.pipeline(
            ["publish", "--store", "run/pipeline.sqlite", "--out", "run", "--reduced", "reduced", "--k", "1", "--allow-identifying-k"],
            in: folder.path)
        try #require(open.status == 0, "\(open.stderr)")
        let all = try readCSV(folder.file("run/modal_split.csv"))
        #expect(
            all.map { "\($0["dimension"]!) \($0["travel_mode"]!) \($0["trip_share"]!) \($0["distance_share"]!)" }
                == ["all walk 0.3333 0.2222", "all car 0.6667 0.7778", "hour car 1.0000 1.0000"], "rows in Mode order within a key")
        let pairs = try readCSV(folder.file("run/od_matrix.csv"))
        let home = try #require(pairs.first { $0["origin_name"] == "home" })
        #expect(
            home["share_car"] == "0.6667" && home["share_walk"] == "0.3333" && home["share_bus"] == "0.0000"
                && home["share_other"] == "0.0000")
        #expect(pairs.count == 3)

        let cells = try readCSV(folder.file("run/heatmap.csv"))
        #expect(cells.map { $0["cell_id"] } == ["100m:5:7"], "k = 3 persons keeps one of the two cells")
        let store = try PipelineStore(path: folder.file("run/restricted/pipeline.sqlite"))
        #expect(try store.rows("SELECT suppressed_cells FROM heatmaps WHERE map = 'all'").first?["suppressed_cells"] == "1")

        let train = try #require(try readCSV(folder.file("run/train_comfort.csv")).first)
        // Type 7: the 0.95 quantile of 1, 2, 3, 4 is 3 + 0.85 = 3.85; delays' median of four is the mean of the middle two.
        #expect(train["nmv_median"] == "2.50" && train["nmv_p95"] == "3.85" && train["a_v_median_mps2"] == "0.250")
        #expect(train["share_medium"] == "0.500" && train["cleanliness_mean"] == "3.50" && train["service_n"] == "2")
        #expect(train["noise_db_mean"] == "65.0" && train["departure_delay_median_s"] == "30" && train["arrival_delay_median_s"] == "")
        #expect(try readCSV(folder.file("run/route_comfort.csv")).isEmpty)

        try write(folder, "modal_totals", "dimension,dimension_value,travel_mode,trips,distance_m,duration_s\nall,all,car,two,1.0,1.0\n")
        let bad = try cli.pipeline(["publish", "--store", "run/pipeline.sqlite", "--out", "run", "--reduced", "reduced"], in: folder.path)
        #expect(
            bad.status != 0 && bad.stderr.contains("modal_totals/part-00000-1a2b-c000.csv:2: trips is two, not an integer"), "\(bad.stderr)"
        )

        try FileManager.default.removeItem(atPath: folder.file("reduced/od_groups"))
        let missing = try cli.pipeline(
            ["publish", "--store", "run/pipeline.sqlite", "--out", "run", "--reduced", "reduced"], in: folder.path)
        #expect(
            missing.status != 0 && missing.stderr.contains("reduced/od_groups") && missing.stderr.contains("od_groups is missing"),
            "\(missing.stderr)")
    }

    /// `pipeline publish --tables`: a distributed run without --csv keeps the per-device
    /// tables' CSVs out of the output folder; od_grid.csv and pipeline.gpkg are drawn from
    /// the folder given, and equal what the same run wrote with them beside it.
    @Test func publishDrawsTheODGridAndGeoPackageFromTheTablesFolder() throws {
        let folder = try TemporaryFolder()
        try RunCommandTests().simulate(folder, devices: 4, imu: false)
        let run = try cli.pipeline(["run", "traces", "--out", "run"], in: folder.path)
        #expect([0, 2].contains(run.status), "\(run.stderr)")
        let grid = try String(contentsOfFile: folder.file("run/od_grid.csv"), encoding: .utf8)
        let layers = try Self.layers(folder.file("run/restricted/pipeline.gpkg"))
        #expect((layers["trips"]?.count ?? 0) > 0 && (layers["staypoints"]?.count ?? 0) > 0)

        let printed = try cli.pipeline(["schema", "--json"], in: folder.path)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [[String: Any]])
        let perDevice = files.filter { $0["per_device"] as? Bool == true }.compactMap { $0["file"] as? String }
        #expect(
            perDevice == ["modes.csv", "staypoints.csv", "dwells.csv", "triplegs.csv", "trips.csv", "rides.csv", "stops.csv", "events.csv"])
        try FileManager.default.createDirectory(atPath: folder.file("tables"), withIntermediateDirectories: true)
        for name in perDevice where FileManager.default.fileExists(atPath: folder.file("run/restricted/" + name)) {
            try FileManager.default.moveItem(atPath: folder.file("run/restricted/" + name), toPath: folder.file("tables/" + name))
        }
        for name in ["od_grid.csv", "pipeline.gpkg", "restricted/pipeline.gpkg"] {
            try FileManager.default.removeItem(atPath: folder.file("run/" + name))
        }

        let publish = try cli.pipeline(["publish", "--store", "run/pipeline.sqlite", "--out", "run", "--tables", "tables"], in: folder.path)
        try #require(publish.status == 0, "\(publish.stderr)")
        #expect(try String(contentsOfFile: folder.file("run/od_grid.csv"), encoding: .utf8) == grid)
        #expect(try Self.layers(folder.file("run/restricted/pipeline.gpkg")) == layers)
        #expect(!FileManager.default.fileExists(atPath: folder.file("run/restricted/trips.csv")), "publish writes no per-device table")
        let report = try String(contentsOfFile: folder.file("run/report.html"), encoding: .utf8)
        #expect(
            report.contains("(restricted/parquet/trips, restricted/parquet/triplegs, restricted/triplegs.geojson)")
                && !report.contains("trips.csv"),
            "the report points at the Parquet datasets, not at CSVs that are not there")
    }

    /// Every layer's rows of a GeoPackage, as text, by layer name.
    static func layers(_ path: String) throws -> [String: [[String]]] {
        try DatabaseQueue(path: path).read { db in
            var found: [String: [[String]]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT table_name FROM gpkg_contents") {
                found[name] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\" ORDER BY fid").map { row in
                    row.databaseValues.map { "\($0)" }
                }
            }
            return found
        }
    }
}
