import Foundation
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
        let before = try String(contentsOfFile: folder.file("device/locations.csv"), encoding: .utf8)
        let expected = try String(contentsOfFile: folder.file("dataset/locations.csv"), encoding: .utf8)
        #expect(before != expected, "the two scopes must differ for this test to mean anything")

        let pass = try runs.cli.pipeline(["locations", "--store", "device/pipeline.sqlite", "--out", "relocated", "--config", "dataset.yaml",
                                          "--json"], in: folder.path)
        #expect(pass.status == 0, "\(pass.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(pass.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(summary["scope"] as? String == "dataset" && (summary["unclustered"] as? Int ?? 0) > 0, "\(summary)")
        #expect(try String(contentsOfFile: folder.file("relocated/locations.csv"), encoding: .utf8) == expected)

        // The store's staypoints and trips now carry the single run's location ids.
        for store in ["device", "dataset"] {
            let export = try runs.cli.pipeline(["export", "--store", "\(store)/pipeline.sqlite", "--out", "export-\(store)",
                                                "--table", "staypoints", "--table", "trips", "--table", "locations"], in: folder.path)
            #expect(export.status == 0, "\(export.stderr)")
        }
        for table in ["staypoints.csv", "trips.csv", "locations.csv"] {
            let relocated = try String(contentsOfFile: folder.file("export-device/\(table)"), encoding: .utf8)
            #expect(relocated == (try String(contentsOfFile: folder.file("export-dataset/\(table)"), encoding: .utf8)), "\(table)")
        }
    }

    @Test func aMissingStoreIsAnError() throws {
        let folder = try TemporaryFolder()
        let outcome = try runs.cli.pipeline(["locations", "--store", "none.sqlite", "--out", "x"], in: folder.path)
        #expect(outcome.status == 1 && outcome.stderr.contains("no store at none.sqlite"))
    }
}
