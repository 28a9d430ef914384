import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// The readers on real traces recorded by others (`../shared/data`), against counts made
/// independently of the readers (plain text scans).
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
struct RealDataTests {
    /// The whole text of a file, gunzipped when needed, decoded leniently.
    func text(_ path: String) throws -> String {
        var lines: [String] = []
        try LineReader(path: path).forEachLine { line, _ in
            lines.append(String(decoding: line, as: UTF8.self))
            return true
        }
        return lines.joined(separator: "\n")
    }

    /// Occurrences of an opening tag, with or without attributes, outside comments.
    func count(_ tag: String, in xml: String) -> Int {
        let stripped = xml.replacingOccurrences(of: "<!--[\\s\\S]*?-->", with: "", options: .regularExpression)
        return stripped.components(separatedBy: "<\(tag)>").count - 1 + stripped.components(separatedBy: "<\(tag) ").count - 1
            + stripped.components(separatedBy: "<\(tag)/>").count - 1
    }

    @Test func everyGPXFileIngestsWithTheRightCountsOrIsQuarantinedWithALine() throws {
        let files = SharedData.files(under: "gpx").filter { ["gpx", "xml"].contains(FormatDetector.familyExtension($0)) }
        #expect(files.count >= 50)
        for path in files {
            let xml = try text(path)
            do {
                let (result, sink) = try ingestFile(path)
                let summary = try #require(result.gpx)
                #expect(summary.tracks == count("trk", in: xml), "\(path)")
                #expect(summary.segments == count("trkseg", in: xml), "\(path)")
                #expect(summary.trackPoints == count("trkpt", in: xml), "\(path)")
                #expect(summary.routePoints == count("rtept", in: xml), "\(path)")
                #expect(summary.waypoints == count("wpt", in: xml), "\(path)")
                #expect(result.recordsRead == summary.trackPoints + summary.routePoints + summary.waypoints, "\(path)")
                #expect(sink.fixes.count + sink.waypoints.count + result.dropped.total == result.recordsRead, "\(path)")
            } catch let error as InputError where error.code == .noData {
                // gpxgo's and gpxpy's files whose every point is dated 1901: quarantined with the reason and the option that keeps them.
                #expect(error.message.contains("implausible_time") && error.message.contains("--earliest-time 1900-01-01"), "\(error)")
                var historical = CleaningParameters()
                historical.earliestTime = "1900-01-01"
                let (result, sink) = try ingestFile(path, cleaning: historical)
                #expect(sink.fixes.count > 0 && result.dropped.counts[.implausibleTime] == nil, "\(path): \(result.dropped)")
            } catch let error as InputError {
                #expect(path.hasSuffix("badcharacter.xml"), "only badcharacter.xml is malformed: \(error)")
                #expect(error.code == .malformedXML && error.line == 1, "\(error)")
            }
        }
    }

    @Test func wptErrorDropsTheLatitude91PointAndCountsIt() throws {
        let (result, sink) = try ingestFile(SharedData.path("gpx/CoreGPX/wptError.gpx"))
        #expect(result.dropped.counts[.invalidCoordinate] == 2, "the lat 91 waypoint and the lon 180.877 track point")
        #expect(result.dropped.firstLine[.invalidCoordinate] == 3)
        #expect(sink.waypoints.isEmpty && sink.fixes.count == 1)
    }

    @Test func garminExtensionsAndGzipFromRealExports() throws {
        let (garmin, garminFixes) = try ingestFile(SharedData.path("gpx/georust_gpx/garmin-activity.gpx"))
        #expect(garmin.gpx?.trackPoints == garminFixes.fixes.count)
        #expect(garminFixes.fixes.contains { $0.heartRateBpm != nil })
        let (undeclared, sink) = try ingestFile(SharedData.path("gpx/gpxjs/test.gpx"))
        #expect(undeclared.gpx?.trackPoints == 205)
        #expect(sink.fixes.first?.heartRateBpm == 164, "ns3: prefix is undeclared")
        let (route, _) = try ingestFile(SharedData.path("gpx/gpxgo/graphhopper.gpx.gz"))
        #expect(route.gpx?.routePoints == 22 && route.dropped.total == 0)
    }

    @Test func everyTMDFileHasPerSensorCountsThatMatchTheFile() throws {
        let files = SharedData.files(under: "imu/tmd/raw", extensions: ["csv"])
        #expect(files.count >= 80)
        let kept = [
            "android.sensor.accelerometer": IMUSensor.accelerometer, "android.sensor.gyroscope": .gyroscope,
            "android.sensor.gravity": .gravity, "android.sensor.linear_acceleration": .linearAcceleration
        ]
        for path in files {
            var rows: [String: Int] = [:]
            for line in try text(path).split(separator: "\n") {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count >= 2 else { continue }
                let name = fields[1].isEmpty ? "(unnamed)" : String(fields[1])
                rows[name, default: 0] += 1
            }
            let (result, _) = try ingestFile(path)
            #expect(result.format == .androidEventLog, "\(path)")
            for (name, sensor) in kept {
                let stream = result.imuStreams.first { $0.sensor == sensor }
                #expect((stream?.samples ?? 0) + (stream?.droppedSamples ?? 0) == rows[name] ?? 0, "\(path) \(name)")
            }
            for (name, count) in rows where kept[name] == nil {
                #expect(result.otherSensors[name] == count, "\(path) \(name)")
            }
        }
    }

    @Test func everyGeoTecINITRecordingIngestsEveryRow() throws {
        let files = SharedData.files(under: "imu/GeoTecINIT_sp-sw-har/DATA", extensions: ["csv"])
            .filter { ($0 as NSString).lastPathComponent.range(of: #"^s\d+_\d+_s[pw]\.csv$"#, options: .regularExpression) != nil }
        #expect(files.count >= 60)
        for path in files {
            let dataRows = try text(path).split(separator: "\n").count - 1
            let (result, _) = try ingestFile(path, root: SharedData.path("imu/GeoTecINIT_sp-sw-har/DATA"))
            #expect(result.dialect == "labelled_research", "\(path)")
            #expect(result.imuStreams.map(\.sensor) == [.accelerometer, .gyroscope], "\(path)")
            for stream in result.imuStreams {
                #expect(stream.samples + stream.droppedSamples == dataRows, "\(path)")
            }
            #expect(result.labels.allSatisfy { $0.mode != nil }, "\(path): every label maps to a mode")
            #expect(result.device.hasPrefix("s0"), "\(path): the subject folder names the device")
        }
    }
}

/// The fast scanner and expat must agree on every real GPX file: same points, values, lines.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
struct GPXScannerAgreementTests {
    func read(_ path: String, fast: Bool) -> (GPXSummary?, GPXCollector, String?) {
        var reader = GPXReader(path: path)
        reader.allowsFastScanner = fast
        let collector = GPXCollector()
        do {
            return (try reader.read(visitor: collector), collector, nil)
        } catch let error as InputError {
            return (nil, collector, "\(error.code) line \(error.line ?? 0)")
        } catch {
            return (nil, collector, "\(error)")
        }
    }

    @Test func scannerAndExpatAgreeOnEveryRealFile() {
        for path in SharedData.files(under: "gpx").filter({ ["gpx", "xml"].contains(FormatDetector.familyExtension($0)) }) {
            let (fastSummary, fast, fastError) = read(path, fast: true)
            let (slowSummary, slow, slowError) = read(path, fast: false)
            #expect(fastSummary == slowSummary, "\(path)")
            #expect(fastError == slowError, "\(path)")
            #expect(fast.fixes.map(\.0) == slow.fixes.map(\.0), "\(path)")
            #expect(fast.fixes.map(\.1) == slow.fixes.map(\.1), "\(path): same track, segment and line")
            #expect(fast.waypoints == slow.waypoints, "\(path)")
            #expect(fast.rejected.map(\.0) == slow.rejected.map(\.0), "\(path)")
        }
    }
}
