import Foundation
import TestSupport
import Testing

/// The time-zone boundary file as a user meets it: `pipeline time-zone` looks places up in the
/// shipped one, and a file named on the command line that is not there stops `run` and
/// `trips` before they read anything, unless `--time-zone` gives every device its zone.
@Suite struct TimeZoneFileTests {
    let cli = PipelineCLI()

    @Test func timeZoneLooksPlacesUpInTheShippedFile() throws {
        let folder = try TemporaryFolder()
        // Beijing, and Sovetsk (Kaliningrad) with Panemunė (Lithuania) across the Neman, an hour apart in summer.
        let places = try cli.pipeline(
            ["time-zone", "39.9042,116.4074", "55.084,21.89104", "55.09025,21.90231", "--at", "2024-07-01T12:00:00Z"], in: folder.path)
        #expect(places.status == 0, "\(places.stderr)")
        #expect(
            places.stdout.split(separator: "\n").map(String.init) == [
                "lat,lon,zone,utc_offset", "39.9042,116.4074,Asia/Shanghai,UTC+08:00", "55.084,21.89104,Europe/Kaliningrad,UTC+02:00",
                "55.09025,21.90231,Europe/Vilnius,UTC+03:00"
            ], "\(places.stdout)")
        let outside = try cli.pipeline(["time-zone", "91,0"], in: folder.path)
        #expect(outside.status == 64 && outside.stderr.contains("latitude within ±90"), "\(outside.stderr)")
    }

    @Test func aNamedBoundaryFileThatIsNotThereStopsTheRunBeforeItReadsAnything() throws {
        let folder = try TemporaryFolder()
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 300, latitude: 48.0)]]
        try folder.write("traces/ann/day.gpx", gpx.text)
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--time-zone-boundaries", "zones/tz.bin"], in: folder.path)
        #expect(run.status == 1 && run.stderr.contains("zones/tz.bin: the time-zone boundary file given"), "\(run.stderr)")
        #expect(run.stderr.contains("--time-zone"), "the message names the option that does without it")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "no store is made, nothing is ingested")

        // Every device's zone given: the file is not needed.
        let zoned = try cli.pipeline(
            ["run", "traces", "--out", "out", "--time-zone-boundaries", "zones/tz.bin", "--time-zone", "Europe/Paris"], in: folder.path)
        #expect(zoned.status == 0, "\(zoned.stderr)")
        let trips = try cli.pipeline(
            ["trips", "--store", "out/restricted/pipeline.sqlite", "--out", "out", "--time-zone-boundaries", "zones/tz.bin"],
            in: folder.path)
        #expect(trips.status == 1 && trips.stderr.contains("zones/tz.bin: the time-zone boundary file given"), "\(trips.stderr)")
    }
}
