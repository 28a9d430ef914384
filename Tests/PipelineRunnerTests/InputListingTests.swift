import Foundation
import Ingest
import MobilityCore
import PipelineRunner
import Store
import TestSupport
import Testing

/// `pipeline inputs` names the device and format `ingest` then stores, for every file it reads.
@Suite struct InputListingTests {
    static let plt = """
        Geolife trajectory\r\nWGS 84\r\nAltitude is in Feet\r\nReserved 3\r\n0,2,255,My Track,0,0,2,8421376\r\n0\r
        39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\r
        39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\r

        """

    /// A folder mixing every way a device is found: folder, GeoLife user, manifest, file name,
    /// plus shared tables, a file that is not a trace and one no reader knows.
    func makeTraces(_ folder: TemporaryFolder) throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[Array(TripsCommandTests.commute().prefix(50))]]
        try folder.write("traces/ana/monday.gpx", gpx.text)
        var tuesday = GPXBuilder() // other content: a byte-identical copy would be read once (IdentityTests)
        tuesday.tracks = [[Array(TripsCommandTests.commute().prefix(40))]]
        try folder.write("traces/ana/tuesday.gpx", tuesday.text)
        try folder.write("traces/geolife/017/Trajectory/20081023025304.plt", Self.plt)
        try folder.write("traces/manifest.csv", "path,device,mode\nshared/ride.gpx,carol,bike\n")
        try folder.write("traces/shared/ride.gpx", gpx.text)
        try folder.write("traces/loose.gpx", gpx.text)
        try folder.write("traces/zones.csv", "id,name,kind,lat,lon,radius_m\nhome,Home,home,48,2,100\n")
        try folder.write("traces/README.md", "# notes\n")
        try folder.write("traces/mystery.csv", "foo;bar\n1;2\n")
        try folder.write("traces/ana/empty.gpx", "") // quarantined only when read
    }

    @Test func everyIngestedFileHasTheListedDeviceAndFormat() throws {
        let folder = try TemporaryFolder()
        try makeTraces(folder)
        let entries = try InputListing(paths: [folder.file("traces")]).run()
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) })
        #expect(byPath.values.first { $0.path.hasSuffix("ana/monday.gpx") }?.device == "ana")
        #expect(byPath.values.first { $0.path.hasSuffix("017/Trajectory/20081023025304.plt") }?.device == "017")
        let ride = byPath.values.first { $0.path.hasSuffix("shared/ride.gpx") }
        #expect(ride?.device == "carol" && ride?.deviceSource == "manifest" && ride?.mode == "bike")
        #expect(byPath.values.first { $0.path.hasSuffix("loose.gpx") }?.device == "loose")
        let zones = byPath.values.first { $0.path.hasSuffix("zones.csv") }
        #expect(zones?.format == "geofences_csv" && zones?.perDevice == false)
        #expect(byPath.values.first { $0.path.hasSuffix("README.md") }?.note?.hasPrefix("skipped") == true)
        let mystery = byPath.values.first { $0.path.hasSuffix("mystery.csv") }
        #expect(mystery?.format == nil && mystery?.note?.contains("names no time or sensor column") == true)
        #expect(entries.allSatisfy { $0.bytes > 0 || $0.path.hasSuffix("empty.gpx") })

        var options = IngestOptions(paths: [folder.file("traces")], storePath: folder.file("out/pipeline.sqlite"))
        options.reportsFolder = folder.file("out")
        _ = try IngestRun(options: options, progress: ProgressReporter(quiet: true)).run()
        let stored = try PipelineStore(path: folder.file("out/pipeline.sqlite")).rows(
            "SELECT path, device, format, status FROM input_files")
        #expect(stored.count == entries.filter { $0.note?.hasPrefix("skipped") != true }.count, "every file not skipped is recorded")
        #expect(stored.count == 8 && stored.contains { $0["status"] == "quarantined" })
        for row in stored {
            let path = row["path"]!!, entry = byPath[path]
            #expect(entry != nil, "\(path) is listed")
            if row["status"] == "ingested" {
                #expect(entry?.format == row["format"]!, "\(path)")
                if entry?.perDevice == true { #expect(entry?.device == row["device"]!, "\(path)") }
                #expect(entry?.note == nil)
            } else { // found unreadable when listed, or malformed only when read (then listed with its format)
                #expect(entry?.note?.hasPrefix("quarantined") == true || entry?.format == row["format"]!, "\(path): \(row["status"]!!)")
            }
        }
    }

    @Test func aNamePatternNamesTheDevice() throws {
        let folder = try TemporaryFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[Array(TripsCommandTests.commute().prefix(20))]]
        try folder.write("in/trip_bob_walk_01.gpx", gpx.text)
        var listing = InputListing(paths: [folder.file("in")])
        listing.namePattern = #"trip_(?<device>[^_]+)_(?<mode>[^_]+)_\d+"#
        let entry = try listing.run().first
        #expect(entry?.device == "bob" && entry?.mode == "walk" && entry?.deviceSource == "name_pattern")
    }

    @Test func aManifestIngestWouldQuarantineIsListedSo() throws {
        let folder = try TemporaryFolder()
        try folder.write("in/manifest.csv", "foo,bar\n1,2\n")
        let entry = try InputListing(paths: [folder.file("in")]).run().first
        #expect(entry?.format == nil && entry?.note?.hasPrefix("quarantined: bad_header") == true)
    }
}
