import Foundation
import MobilityCore
import TestSupport
import Testing

/// `pipeline locations`: the pass over every staypoint of a store that a distributed run makes
/// when locations are clustered across devices. On a store whose locations were clustered per
/// device, it must give what a single run clustering across devices gives.
@Suite(.serialized) struct LocationsCommandTests {
    let runs = RunCommandTests()

    @Test func reclusteringAStoreAcrossDevicesGivesTheSingleRunsLocations() throws {
        let folder = try TemporaryFolder()
        try runs.simulate(folder, devices: 6, imu: false)
        // A minimum of 3 staypoints leaves some staypoints in no location (DBSCAN noise).
        try "trips:\n  locations:\n    scope: dataset\n    minimum_staypoints: 3\n    epsilon_meters: 150\n"
            .write(toFile: folder.file("dataset.yaml"), atomically: true, encoding: .utf8)
        let (perDevice, _) = try runs.run(folder, out: "device")
        let (acrossDevices, _) = try runs.run(folder, out: "dataset", ["--config", "dataset.yaml"])
        #expect(perDevice.status == 2 && acrossDevices.status == 2, "one input is quarantined on purpose")
        let before = try String(contentsOfFile: folder.file("device/restricted/locations.csv"), encoding: .utf8)
        let expected = try String(contentsOfFile: folder.file("dataset/restricted/locations.csv"), encoding: .utf8)
        #expect(before != expected, "the two scopes must differ for this test to mean anything")

        let pass = try runs.cli.pipeline(
            [
                "locations", "--store", "device/pipeline.sqlite", "--out", "relocated", "--config", "dataset.yaml",
                "--json"
            ], in: folder.path)
        #expect(pass.status == 0, "\(pass.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(pass.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(summary["scope"] as? String == "dataset" && (summary["unclustered"] as? Int ?? 0) > 0, "\(summary)")
        #expect(try String(contentsOfFile: folder.file("relocated/restricted/locations.csv"), encoding: .utf8) == expected)

        // The store's staypoints and trips now carry the single run's location ids.
        for store in ["device", "dataset"] {
            let export = try runs.cli.pipeline(
                [
                    "export", "--store", "\(store)/pipeline.sqlite", "--out", "export-\(store)",
                    "--table", "staypoints", "--table", "trips", "--table", "locations"
                ], in: folder.path)
            #expect(export.status == 0, "\(export.stderr)")
        }
        for table in ["staypoints.csv", "trips.csv", "locations.csv"] {
            let relocated = try String(contentsOfFile: folder.file("export-device/\(table)"), encoding: .utf8)
            #expect(relocated == (try String(contentsOfFile: folder.file("export-dataset/\(table)"), encoding: .utf8)), "\(table)")
        }

        // The distributed run's way: two tiles split at the median longitude, each with the
        // other's staypoints as its halo (wider than 2ε: allowed), links per tile, then joined.
        let staypoints = try CSVTable.read(path: folder.file("export-device/staypoints.csv"))
        let at = try ["id", "lat_deg", "lon_deg"].map { name in try #require(staypoints.columns.firstIndex(of: name)) }
        let (id, lat, lon) = (at[0], at[1], at[2])
        let median = staypoints.rows.map { Double($0[lon]!)! }.sorted()[staypoints.rows.count / 2]
        var points = "tile,id,lat_deg,lon_deg,owned\n"
        for tile in ["west", "east"] {
            for row in staypoints.rows {
                let owned = (Double(row[lon]!)! < median) == (tile == "west")
                points += "\(tile),\(row[id]!),\(row[lat]!),\(row[lon]!),\(owned ? 1 : 0)\n"
            }
        }
        try points.write(toFile: folder.file("points.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.file("links"), withIntermediateDirectories: true)
        let step = try runs.cli.pipeline(
            [
                "locations", "--tile-points", "points.csv", "--links-out", "links/part-00000.csv",
                "--config", "dataset.yaml", "--json"
            ], in: folder.path)
        #expect(step.status == 0, "\(step.stderr)")
        let tiles = try JSONSerialization.jsonObject(with: Data(step.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(tiles["tiles"] as? Int == 2 && tiles["staypoints"] as? Int == staypoints.rows.count, "\(tiles)")
        let joined = try runs.cli.pipeline(
            [
                "locations", "--store", "device/pipeline.sqlite", "--out", "tiled", "--links", "links",
                "--config", "dataset.yaml"
            ], in: folder.path)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try String(contentsOfFile: folder.file("tiled/restricted/locations.csv"), encoding: .utf8) == expected)
    }

    @Test func aBadTilePointNamesItsFileAndLine() throws {
        let folder = try TemporaryFolder()
        try "tile,id,lat_deg,lon_deg,owned\na,1,48.1,11.5,1\na,2,north,11.5,1\n"
            .write(toFile: folder.file("points.csv"), atomically: true, encoding: .utf8)
        let outcome = try runs.cli.pipeline(["locations", "--tile-points", "points.csv", "--links-out", "links.csv"], in: folder.path)
        #expect(outcome.status != 0 && outcome.stderr.contains("points.csv:3: lat_deg is north, not a number"), "\(outcome.stderr)")
        let half = try runs.cli.pipeline(["locations", "--tile-points", "points.csv"], in: folder.path)
        #expect(half.status != 0 && half.stderr.contains("--tile-points and --links-out together"), "\(half.stderr)")
    }

    @Test func aMissingStoreIsAnError() throws {
        let folder = try TemporaryFolder()
        let outcome = try runs.cli.pipeline(["locations", "--store", "none.sqlite", "--out", "x"], in: folder.path)
        #expect(outcome.status == 1 && outcome.stderr.contains("no store at none.sqlite"))
    }
}
