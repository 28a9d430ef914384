import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// An IMU table read ahead (`TableIMUReader.readsAhead`: parsed on a second thread) tells its
/// visitor exactly what the one-thread read tells, in the same order with the same lines.
@Suite struct IMUReadAheadTests {
    /// Every call, in order, with the numbers' bits.
    final class Log: IMUTallyVisitor {
        var events: [String] = []
        var stopAfterSamples = Int.max

        func sample(_ sample: IMUSample, sensor: IMUSensor, line: Int) throws {
            if events.count >= stopAfterSamples { throw InputError(.malformedRecord, "stopped", path: "x", line: line) }
            events.append(
                "sample \(sensor) \(line) \(sample.time.secondsSince1970.bitPattern) \(sample.x.bitPattern) \(sample.y.bitPattern) \(sample.z.bitPattern)"
            )
        }
        func otherSensor(_ name: String, line: Int) { events.append("other \(name) \(line)") }
        func labelRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {
            events.append("label \(name) \(start.secondsSince1970) \(end.secondsSince1970) \(line)")
        }
        func fix(_ fix: PositionFix, line: Int) throws { events.append("fix \(line)") }
        func rejectedRow(_ reason: DropReason, line: Int, sensor: IMUSensor?) {
            events.append("rejected \(reason) \(line) \(sensor.map { "\($0)" } ?? "-")")
        }
        func timeWithoutOffset(line: Int) { events.append("no offset \(line)") }
        func addRows(_ count: Int) { events.append("rows \(count)") }
        func addOtherSensor(_ name: String, rows: Int) { events.append("other sensor \(name) \(rows)") }
    }

    func read(_ path: String, ahead: Bool, stopAfter: Int = .max) throws -> (rows: Int?, error: String?, events: [String]) {
        guard case .imuTable(let mapping)? = try FormatDetector().detect(path: path) else {
            throw InputError(.unknownFormat, "not an IMU table", path: path)
        }
        var reader = TableIMUReader(path: path, mapping: mapping)
        reader.readsAhead = ahead
        let log = Log()
        log.stopAfterSamples = stopAfter
        do {
            return (try reader.read(visitor: log), nil, log.events)
        } catch {
            return (nil, "\(error)", log.events)
        }
    }

    /// Many blocks of rows, with rows dropped for each reason, label runs, decimal commas and
    /// a gzip file.
    @Test func theSameCallsInTheSameOrder() throws {
        let folder = try TemporaryFolder()
        var text = "time,ax,ay,az,gx,gy,gz,label\n"
        for i in 0..<30_000 {
            let time = 1_700_000_000 + Double(i) * 0.01
            switch i % 997 {
            case 13: text += "\(time),0.1,0.2\n" // too few fields
            case 14: text += "\(time),0.1,x,9.8,0.01,0.02,0.03,walking\n" // not a number
            case 15: text += "soon,0.1,0.2,9.8,0.01,0.02,0.03,walking\n" // no time
            case 16: text += "\n"
            default: text += "\(time),0.\(i % 10),0.2,9.8,0.01,-0.02,1e-3,\(i / 4_000 % 2 == 0 ? "walking" : "Still")\r\n"
            }
        }
        let plain = try folder.write("phone.csv", text)
        let zipped = try folder.writeGzip("phone.csv.gz", text)
        let iso = try folder.write(
            "iso.csv",
            "datetime;ax;ay;az\n"
                + (0..<9_000).map {
                    "2023-11-14T22:\(13 + $0 / 6_000):\(10 + $0 / 100 % 50).\(String(format: "%02d", $0 % 100))0;0,5;0;9,8\n"
                }
                .joined())
        for path in [plain, zipped, iso] {
            let one = try read(path, ahead: false), two = try read(path, ahead: true)
            #expect(one.error == nil && one.rows == two.rows, "\(path)")
            #expect(one.events.count > 8_000 && one.events == two.events, "\(path)")
            #expect(one.events.contains { $0.hasPrefix("rejected") } || path == iso, "\(path)")
            #expect(one.events.contains { $0.hasPrefix("label") } || path == iso, "\(path)")
        }
    }

    /// The visitor's error stops the read at the same sample, with the same calls before it.
    @Test func theVisitorsErrorStopsTheReadAhead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "phone.csv", "time,ax,ay,az\n" + (0..<50_000).map { "\(1_700_000_000 + Double($0) * 0.02),0,0,9.8\n" }.joined())
        let one = try read(path, ahead: false, stopAfter: 20_000), two = try read(path, ahead: true, stopAfter: 20_000)
        #expect(one.error != nil && one.error == two.error)
        #expect(one.events.count == 20_000 && one.events == two.events)
    }

    /// A reader's error (a line past the longest allowed) comes after the rows before it.
    @Test func theReadersErrorComesAfterTheRowsBeforeIt() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<20_000).map { "\(1_700_000_000 + Double($0) * 0.02),0,0,9.8\n" }.joined()
        let path = try folder.write("phone.csv", "time,ax,ay,az\n" + rows + String(repeating: "9", count: 3 << 20) + "\n")
        let one = try read(path, ahead: false), two = try read(path, ahead: true)
        #expect(one.error != nil && one.error == two.error)
        #expect(one.events.count == 20_000 && one.events == two.events)
    }

    /// A phone's export of several sensor files: a Sensor Logger folder, and the real phyphox
    /// exports in `../shared/data/imu/phyphox-cycling` when they are there.
    @Test func phoneExportsReadAheadTheSame() throws {
        let folder = try TemporaryFolder()
        let ns = Int64(1_700_000_000) * 1_000_000_000
        let rows = (0..<6_000).map { "\(ns + Int64($0) * 10_000_000),\(Double($0) * 0.01),0.3,0.2,0.1\n" }.joined()
        try folder.write("ride/Metadata.csv", "version,device name,recording time\n3,pixel,2023-11-14\n")
        for sensor in ["Accelerometer", "Gyroscope", "Gravity", "Magnetometer"] {
            try folder.write("ride/\(sensor).csv", "time,seconds_elapsed,z,y,x\n" + rows)
        }
        func log(_ read: (Bool, Log) throws -> String?) throws -> [String] {
            let one = Log(), two = Log()
            let phones = (try read(false, one), try read(true, two))
            #expect(phones.0 == phones.1)
            #expect(one.events == two.events)
            return one.events
        }
        let events = try log { ahead, visitor in
            var reader = SensorLoggerReader(path: folder.file("ride"), zipped: false)
            reader.readsAhead = ahead
            return try reader.read(visitor: visitor)
        }
        #expect(events.filter { $0.hasPrefix("sample") }.count == 18_000)
        guard SharedData.isAvailable else { return }
        let exports = Set(
            SharedData.files(under: "imu/phyphox-cycling").compactMap { path -> String? in
                let parts = path.components(separatedBy: "/phyphox-cycling/")
                guard parts.count == 2, let top = parts[1].split(separator: "/").first, parts[1].contains("/") else { return nil }
                return parts[0] + "/phyphox-cycling/" + top
            })
        #expect(!exports.isEmpty)
        for export in exports.sorted() {
            let phyphox = try log { ahead, visitor in
                // These exports lost their meta/time.csv: a start is given, as a user would.
                var reader = PhyphoxReader(path: export, zipped: false, startSeconds: 1_591_000_000)
                reader.readsAhead = ahead
                return try reader.read(visitor: visitor)
            }
            #expect(phyphox.count > 1_000, "\(export)")
        }
    }

    /// The real recordings in `../shared/data/imu` that are tables.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func realRecordings() throws {
        var compared = 0
        for path in SharedData.files(under: "imu") where ["csv", "txt"].contains(FormatDetector.familyExtension(path)) {
            guard case .imuTable? = try? FormatDetector().detect(path: path) else { continue }
            let one = try read(path, ahead: false), two = try read(path, ahead: true)
            #expect(one.rows == two.rows && one.error == two.error && one.events == two.events, "\(path)")
            compared += 1
            if compared == 40 { break }
        }
        print("IMU tables read ahead and in turn, the same: \(compared)")
        #expect(compared >= 10, "\(compared) tables compared")
    }
}
