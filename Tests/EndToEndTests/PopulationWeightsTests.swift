import Foundation
import MobilityCore
import Reports
import TestSupport
import Testing

/// Expansion weights end to end (`--population`, `--person-attributes`, `person_weights.csv`,
/// the weighted columns): a simulated city of 24 residents, six per commute mode, is the
/// population; the panel is its six car commuters and three of each other mode, so car
/// commuters are over-represented twice. The population table gives each of two zones its
/// residents (from the simulator's homes, ×1,000) and their commute modes; the panel's persons
/// give theirs. Weighted, the panel's modal split must come back to the population's.
@Suite(.serialized) struct PopulationWeightsTests {
    let cli = PipelineCLI()
    static let centreLongitude = 2.3522
    static let modes = ["walk", "bike", "car", "train"] // the simulator's commute modes by turn

    @Test func weightsMeetTheZonesAndBringThePanelsModalSplitBackToThePopulations() throws {
        let folder = try TemporaryFolder()
        let simulate = try cli.pipeline(
            ["simulate", "--out", "city", "--devices", "24", "--days", "2", "--seed", "17", "--imu-rate", "0"], in: folder.path)
        try #require(simulate.status == 0, "\(simulate.stderr)")
        try folder.write("k1.yaml", "privacy:\n  k: 1\n")
        try folder.write("zones.geojson", Self.zones)

        // The population: each resident's home zone (the simulator's home geofences) and commute.
        let fences = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("city/geofences.geojson"))))
                as? [String: Any])
        var zoneOf: [String: String] = [:]
        for feature in fences["features"] as? [[String: Any]] ?? [] {
            guard let id = feature["id"] as? String, id.hasPrefix("home-"),
                let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double]
            else { continue }
            zoneOf[String(id.dropFirst(5))] = point[0] < Self.centreLongitude ? "west" : "east"
        }
        let devices = (1...24).map { String(format: "phone-%02d", $0) }
        #expect(Set(zoneOf.keys) == Set(devices))
        func commute(_ device: String) -> String { Self.modes[(Int(device.suffix(2))! - 1) % 4] }
        var rows = ["zone_id,population," + Self.modes.map { "commute:\($0)" }.joined(separator: ",")]
        for zone in ["west", "east"] {
            let residents = devices.filter { zoneOf[$0] == zone }
            rows.append(
                "\(zone),\(residents.count * 1000),"
                    + Self.modes.map { m in String(residents.filter { commute($0) == m }.count * 1000) }
                    .joined(separator: ","))
        }
        try folder.write("population.csv", rows.joined(separator: "\n") + "\n")

        // The panel: every car commuter, three of each other mode.
        let panel = devices.filter { commute($0) == "car" || Int($0.suffix(2))! <= 12 }
        #expect(panel.count == 15 && panel.filter { commute($0) == "car" }.count == 6)
        let files = FileManager.default
        try files.createDirectory(atPath: folder.file("panel"), withIntermediateDirectories: true)
        for device in panel { try files.copyItem(atPath: folder.file("city/" + device), toPath: folder.file("panel/" + device)) }
        for name in ["geofences.geojson", "stations.csv"] {
            try files.copyItem(atPath: folder.file("city/" + name), toPath: folder.file("panel/" + name))
        }
        try folder.write("attributes.csv", "person,commute\n" + panel.map { "\($0),\(commute($0))\n" }.joined())

        let options = ["--config", "k1.yaml", "--allow-identifying-k", "--zones", "zones.geojson", "--json"]
        let population = try cli.pipeline(["run", "city", "--out", "population"] + options, in: folder.path)
        try #require([0, 2].contains(population.status), "\(population.stderr)")
        let weighted = try cli.pipeline(
            ["run", "panel", "--out", "panel-out", "--population", "population.csv", "--person-attributes", "attributes.csv"] + options,
            in: folder.path)
        try #require([0, 2].contains(weighted.status), "\(weighted.stderr)")

        // Weights per zone sum to its population within 0.5 %, and the raking says it converged.
        let weights = try CSVTable.read(path: folder.file("panel-out/restricted/person_weights.csv"))
        let w = { (name: String) in weights.columns.firstIndex(of: name)! }
        var sums: [String: Double] = [:]
        for row in weights.rows { sums[row[w("home_zone_id")] ?? "-", default: 0] += row[w("weight")].flatMap(Double.init) ?? 0 }
        for zone in ["west", "east"] {
            let residents = Double(devices.filter { zoneOf[$0] == zone }.count * 1000)
            #expect(abs(sums[zone, default: 0] / residents - 1) <= 0.005, "\(zone): \(sums[zone, default: 0]) vs \(residents)")
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(weighted.stdout.utf8)) as? [String: Any])
        let summary = try #require(json["weights"] as? [String: Any], "\(json.keys.sorted())")
        #expect(summary["converged"] as? Bool == true && summary["weighted"] as? Int == 15, "\(summary)")

        // The panel's whole-day modal split, unweighted and weighted, against the population's.
        func shares(_ path: String, _ column: String) throws -> [String: Double] {
            let table = try CSVTable.read(path: path)
            let c = { (name: String) in table.columns.firstIndex(of: name)! }
            var shares: [String: Double] = [:]
            for row in table.rows where row[c("time_band")] == "all_day" { shares[row[c("travel_mode")]!] = Double(row[c(column)]!)! }
            return shares
        }
        let truth = try shares(folder.file("population/mode_shares.csv"), "trip_share")
        let raw = try shares(folder.file("panel-out/mode_shares.csv"), "trip_share")
        let expanded = try shares(folder.file("panel-out/mode_shares.csv"), "share_weighted")
        func error(_ shares: [String: Double]) -> Double {
            Set(truth.keys).union(shares.keys).reduce(0) { $0 + abs((shares[$1] ?? 0) - (truth[$1] ?? 0)) }
        }
        print(
            "panel over-representing car commuters twice: modal split error (sum of absolute share differences to the population's) "
                + "unweighted \(error(raw)), weighted \(error(expanded)); population \(truth), panel \(raw), weighted \(expanded)")
        #expect(error(expanded) <= error(raw) / 3, "weighted \(error(expanded)) vs unweighted \(error(raw))")
        // k keeps counting persons: the weighted columns never change which rows are published.
        #expect(Set(raw.keys) == Set(expanded.keys))

        // The same categories carried by the inputs' manifest, a row per device's files, give
        // the same weights: picked up by themselves, and given as --person-attributes.
        try files.copyItem(atPath: folder.file("panel"), toPath: folder.file("manifested"))
        try folder.write(
            "manifested/manifest.csv",
            "path,device,person,commute\n" + panel.map { "\($0)/*,\($0),\($0),\(commute($0))\n" }.joined())
        for (out, given) in [("manifested-out", [String]()), ("given-out", ["--person-attributes", "manifested/manifest.csv"])] {
            let manifested = try cli.pipeline(
                ["run", "manifested", "--out", out, "--population", "population.csv"] + given + options, in: folder.path)
            try #require([0, 2].contains(manifested.status), "\(manifested.stderr)")
            #expect(
                FileManager.default.contents(atPath: folder.file(out + "/restricted/person_weights.csv"))
                    == FileManager.default.contents(atPath: folder.file("panel-out/restricted/person_weights.csv")), "\(out)")
            #expect(
                manifested.stderr.contains("weights: each person's commute from the manifest") == given.isEmpty,
                "\(out): \(manifested.stderr)")
        }

        // The travel diary's persons carry the same weights.
        let diary = try cli.pipeline(
            ["export", "--store", "panel-out/pipeline.sqlite", "--format", "diary", "--out", "diary"], in: folder.path)
        try #require(diary.status == 0, "\(diary.stderr)")
        let persons = try CSVTable.read(path: folder.file("diary/persons.csv"))
        let d = { (name: String) in persons.columns.firstIndex(of: name)! }
        let byPerson = Dictionary(uniqueKeysWithValues: weights.rows.map { ($0[w("person")]!, $0[w("weight")]) })
        #expect(persons.rows.count == 15 && persons.rows.allSatisfy { $0[d("weight")] != nil })
        for row in persons.rows { #expect(row[d("weight")] == byPerson[row[d("person")]!] ?? nil, "\(row)") }
    }

    /// One person is the only car owner of a population that owns nine cars in ten: raked, they
    /// stand for 90 % of it. The run warns, names them in --json, person_weights.csv and the
    /// operator's page, and the published page says only that there are such weights.
    /// A population nobody's home lies in: the tables are not weighted (no weighted columns of
    /// 0 %), and the report says --population was given but nobody could be weighted, not "give
    /// --population".
    @Test func aPopulationNobodyCouldBeWeightedToIsSaidSo() throws {
        let folder = try TemporaryFolder()
        try folder.write("hemispheres.geojson", PublishedFilesTests.hemispheres)
        try folder.write("population.csv", "zone_id,population\nwest,1000\n")
        let run = try cli.pipeline(
            [
                "run", SharedData.projectRoot + "/traces", "--out", "out", "--zones", "hemispheres.geojson", "--population",
                "population.csv", "--json"
            ], in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")
        #expect(run.stderr.contains("weights: 0 of 8 persons weighted"), "\(run.stderr)")
        let shares = try CSVTable.read(path: folder.file("out/mode_shares.csv"))
        let weighted = try #require(shares.columns.firstIndex(of: "share_weighted"))
        #expect(!shares.rows.isEmpty && shares.rows.allSatisfy { $0[weighted] == nil }, "no weighted share where nobody is weighted")
        let page = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(page.contains("Not weighted: --population was given, but no person could be weighted to it"))
        #expect(!page.contains("give --population") && !page.contains("Weighted: each person expanded"))
    }

    @Test func anImplausibleWeightIsNamedForTheOperatorOnly() throws {
        let folder = try TemporaryFolder()
        try folder.write("hemispheres.geojson", PublishedFilesTests.hemispheres)
        try folder.write("population.csv", "zone_id,population,car:yes,car:no\nwest,1000,900,100\neast,1000,900,100\n")
        let phones = (1...8).map { String(format: "phone-%02d", $0) }
        try folder.write("attributes.csv", "person,car\n" + phones.map { "\($0),\($0 == "phone-01" ? "yes" : "no")\n" }.joined())
        let run = try cli.pipeline(
            [
                "run", SharedData.projectRoot + "/traces", "--out", "out", "--zones", "hemispheres.geojson", "--population",
                "population.csv",
                "--person-attributes", "attributes.csv", "--json"
            ], in: folder.path)
        try #require([0, 2].contains(run.status), "\(run.stderr)")
        #expect(run.stderr.contains("warning: weights: 1 of 8 weighted persons has an implausible weight"), "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let implausible = try #require((json["weights"] as? [String: Any])?["implausible"] as? [[String: Any]])
        #expect(implausible.map { $0["person"] as? String } == ["phone-01"], "\(implausible)")
        #expect((implausible.first?["reason"] as? String ?? "").contains("of the 1000 residents represented"), "\(implausible)")
        let weights = try CSVTable.read(path: folder.file("out/restricted/person_weights.csv"))
        let (person, reason) = (weights.columns.firstIndex(of: "person")!, weights.columns.firstIndex(of: "implausible_weight")!)
        #expect(weights.rows.filter { $0[reason] != nil }.map { $0[person] } == ["phone-01"])
        let operatorPage = try String(contentsOfFile: folder.file("out/restricted/report.html"), encoding: .utf8)
        let publishedPage = try String(contentsOfFile: folder.file("out/report.html"), encoding: .utf8)
        #expect(operatorPage.contains("1 of the weighted persons has an implausible weight") && operatorPage.contains("<td>phone-01</td>"))
        #expect(publishedPage.contains("Some persons' weights are implausible") && !publishedPage.contains("phone-01"))
        // A re-run that finds nothing changed warns again, and --json names them again.
        let again = try cli.pipeline(
            [
                "run", SharedData.projectRoot + "/traces", "--out", "out", "--zones", "hemispheres.geojson", "--population",
                "population.csv",
                "--person-attributes", "attributes.csv", "--json"
            ], in: folder.path)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(second["up_to_date"] as? Bool == true, "\(again.stderr)")
        #expect(again.stderr.contains("warning: weights: 1 of 8 weighted persons has an implausible weight"), "\(again.stderr)")
        #expect(((second["weights"] as? [String: Any])?["implausible"] as? [[String: Any]])?.count == 1)
    }

    @Test func aPopulationWithoutZonesOrABadOneStopsTheRunAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        try folder.write("traces/empty.gpx", "<gpx version=\"1.1\"></gpx>")
        try folder.write("population.csv", "zone,people\nwest,3\n")
        try folder.write("zones.geojson", Self.zones)
        let noZones = try cli.pipeline(["run", "traces", "--out", "out", "--population", "population.csv"], in: folder.path)
        #expect(noZones.status == 1 && noZones.stderr.contains("give --zones too"), "\(noZones.stderr)")
        let badHeader = try cli.pipeline(
            ["run", "traces", "--out", "out", "--population", "population.csv", "--zones", "zones.geojson"], in: folder.path)
        #expect(badHeader.status == 1 && badHeader.stderr.contains("population.csv:1: the header should have zone_id and population"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/restricted/pipeline.sqlite")), "stopped before any work")
    }

    static let zones = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"west"},"geometry":{"type":"Polygon","coordinates":[[[-10,40],[2.3522,40],[2.3522,60],[-10,60],[-10,40]]]}},
        {"type":"Feature","properties":{"id":"east"},"geometry":{"type":"Polygon","coordinates":[[[2.3522,40],[20,40],[20,60],[2.3522,60],[2.3522,40]]]}}
        ]}
        """
}
