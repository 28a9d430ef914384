import Foundation
@testable import Ingest
import MobilityCore
import TestSupport
import Testing

/// Plain tables of positions in each header family: detected from the header, read with the
/// same fixes whatever the time's shape, the person taken from a user_id column.
@Suite struct PositionTableTests {
    /// 2024-05-01T08:00:00Z.
    static let start = 1_714_550_400.0

    func read(_ folder: TemporaryFolder, _ name: String, _ text: String) throws -> (IngestResult, [PositionFix]) {
        let path = try folder.write(name, text)
        let format = try #require(try FormatDetector().detect(path: path))
        #expect(format.kind == .positionCSV, "\(name) is a position table")
        let sink = FixCollector()
        let result = try Ingestor(devices: DeviceResolver()).ingest(
            DiscoveredInput(path: path, root: folder.path), format: format, into: sink)
        return (result, sink.fixes)
    }

    @Test(arguments: [
        ("generic.csv", "time,lat,lon,accuracy,elevation\n1714550400,52.37,4.9,5,1\n1714550401,52.3701,4.9001,NaN,2\n"),
        (
            "ms.csv",
            "timestamp_ms;latitude;longitude;horizontalAccuracy;altitude\n1714550400000;52.37;4.9;5;1\n1714550401000;52.3701;4.9001;;2\n"
        ),
        (
            "iso.tsv",
            "datetime\tlat\tlng\taccuracy_m\tele\n2024-05-01T10:00:00+02:00\t52.37\t4.9\t5\t1\n2024-05-01 08:00:01Z\t52.3701\t4.9001\tnan\t2\n"
        ),
        (
            "trackintel.csv",
            "id,user_id,tracked_at,accuracy,longitude,latitude,elevation\n0,7,2024-05-01 08:00:00.000+00:00,5.0,4.9,52.37,1\n1,7,2024-05-01 08:00:01.000+00:00,,4.9001,52.3701,2\n"
        ),
        (
            "wkt.csv",
            "user_id,tracked_at,geom,accuracy,elevation\n7,2024-05-01T08:00:00Z,POINT (4.9 52.37),5,1\n7,2024-05-01T08:00:01Z,\"SRID=4326;POINT Z (4.9001 52.3701 2)\",,2\n"
        )
    ])
    func everyFamilyGivesTheSameFixes(name: String, text: String) throws {
        let folder = try TemporaryFolder()
        let (result, fixes) = try read(folder, name, text)
        #expect(result.fixesKept == 2 && result.dropped.total == 0, "\(result.dropped)")
        #expect(fixes.map { $0.time?.secondsSince1970 } == [Self.start, Self.start + 1])
        #expect(fixes.map(\.latitudeDegrees) == [52.37, 52.3701] && fixes.map(\.longitudeDegrees) == [4.9, 4.9001])
        #expect(fixes.map(\.accuracyMeters) == [5, nil], "an empty or NaN accuracy is missing")
        #expect(fixes.map(\.elevationMeters) == [1, 2])
        if text.contains("user_id") {
            #expect(result.identity?.person == "7" && result.identity?.personSource == "table_column")
            #expect(result.identity?.device == (name as NSString).deletingPathExtension, "the device stays the file's")
        }
    }

    @Test func aPhyphoxLocationFileAloneHasRelativeTimesAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "Location.csv",
            "\"Time (s)\",\"Latitude (°)\",\"Longitude (°)\",\"Height (m)\",\"Velocity (m/s)\",\"Direction (°)\",\"Horizontal Accuracy (m)\",\"Vertical Accuracy (m)\"\n"
                + "1.2E0,52.37,4.9,NaN,NaN,NaN,NaN,NaN\n2.2E0,52.3701,4.9001,1,1,1,4,4\n")
        #expect(try FormatDetector().detect(path: path)?.kind == .positionCSV)
        #expect(throws: InputError.self) { // seconds since the start, without the start: nothing plausible
            try Ingestor(devices: DeviceResolver()).ingest(
                DiscoveredInput(path: path, root: folder.path), format: .positionTable(startSeconds: nil, spec: nil), into: DiscardingSink()
            )
        }
        let sink = FixCollector()
        let result = try Ingestor(devices: DeviceResolver()).ingest(
            DiscoveredInput(path: path, root: folder.path),
            format: .positionTable(startSeconds: Self.start, spec: nil), into: sink)
        #expect(result.fixesKept == 2 && sink.fixes.map { $0.time?.secondsSince1970 } == [Self.start + 1.2, Self.start + 2.2])
    }

    @Test func localTimesWithoutAnOffsetTakeTheFilesUTCOffset() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("local.csv", "time,lat,lon\n2024-05-01 10:00:00,52.37,4.9\n2024-05-01T10:00:01+02:00,52.37,4.9\n")
        let spec = try ColumnMappingSpec(text: "files=local.csv; utc_offset=+02:00")
        let format = try #require(try FormatDetector().detect(path: path, mapping: .given(spec)))
        let sink = FixCollector()
        _ = try Ingestor(devices: DeviceResolver()).ingest(DiscoveredInput(path: path, root: folder.path), format: format, into: sink)
        #expect(
            sink.fixes.map { $0.time?.secondsSince1970 } == [Self.start, Self.start + 1],
            "10:00 at +02:00 is 08:00Z; a stated offset stands")
        #expect(format.userMapping == "utc_offset=+02:00")
    }

    /// (A mapping with columns does replace detection for every table it names, a label table
    /// too: that is what `files=` says.)
    @Test func aBroadGlobNeverReadsAManifestOrALabelTableWithAStart() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("manifest.csv", "path,device\na.txt,x\n")
        let labels = try folder.write("labels.csv", "device,start,end,mode\nx,2024-05-01T08:00:00Z,2024-05-01T09:00:00Z,walk\n")
        let table = try ColumnMappingSpec(text: "files=*.csv; delimiter=space; header=0; dt=4:ms; start=2024-05-01T08:00:00Z; acc=1,2,3")
        let start = try ColumnMappingSpec(text: "files=*.csv; start=2024-05-01T08:00:00Z")
        for spec in [table, start] {
            #expect(try FormatDetector().detect(path: manifest, mapping: .given(spec))?.kind == .manifest)
            #expect(try FormatDetector().detect(path: manifest, mapping: .fallback(spec))?.kind == .manifest)
        }
        #expect(
            try FormatDetector().detect(path: labels, mapping: .given(start))?.kind == .labelsCSV, "a start leaves a label table as it is")
    }

    @Test func aTableOfTwoPeopleIsAnErrorThatSaysHowToSplitIt() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "all.csv", "user_id,tracked_at,latitude,longitude\n1,2024-05-01T08:00:00Z,52.37,4.9\n2,2024-05-01T08:00:01Z,52.37,4.9\n")
        #expect {
            try Ingestor(devices: DeviceResolver()).ingest(
                DiscoveredInput(path: path, root: folder.path), format: .positionTable(startSeconds: nil, spec: nil), into: DiscardingSink()
            )
        } throws: { error in
            let error = error as? InputError
            return error?.line == 3 && error?.message.contains("more than one person (user_id 1 in the first row, 2 here)") == true
        }
    }

    @Test func aWKTPointIsLongitudeThenLatitude() {
        #expect(PositionTableReader.point(wkt: "POINT (4.9 52.37)")! == (52.37, 4.9))
        #expect(PositionTableReader.point(wkt: "point(4.9 52.37)")! == (52.37, 4.9))
        #expect(PositionTableReader.point(wkt: "LINESTRING (4.9 52.37, 5 52)") == nil)
        #expect(PositionTableReader.point(wkt: "POINT EMPTY") == nil)
    }

    /// A phone's own activity recognition beside its fixes (the Helsinki TrafficSense export's
    /// `activity_1`): runs of one activity, kept apart from the labels, which are truth.
    @Test func anActivityColumnIsAMotionSourceNotALabel() throws {
        let folder = try TemporaryFolder()
        let text =
            "time,lat,lng,accuracy,activity_1,activity_1_conf\n"
            + "1714550400,60.17,24.94,10,STILL,80\n1714550430,60.17,24.94,10,IN_VEHICLE,60\n1714550460,60.171,24.95,10,IN_VEHICLE,70\n"
            + "1714550490,60.172,24.96,10,WALKING,90\n"
        let (result, fixes) = try read(folder, "phone.csv", text)
        #expect(fixes.count == 4 && result.labels.isEmpty, "activities are never truth labels")
        #expect(result.activities.map(\.rawName) == ["STILL", "IN_VEHICLE", "WALKING"])
        #expect(
            result.activities.map(\.mode) == [.still, .vehicle, .walk]
                && result.activities.allSatisfy { $0.source == "activity_recognition" })
        #expect(
            result.activities[1].start.secondsSince1970 == Self.start + 30 && result.activities[1].end.secondsSince1970 == Self.start + 60)
    }
}
