import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing
import ZIPFoundation

@Suite struct IMUDialectTests {
    let t0 = 1_700_000_000.0

    func rows(_ count: Int, _ body: (Int) -> String) -> String {
        (0..<count).map(body).joined(separator: "\n") + "\n"
    }

    @Test func genericWithUnixSecondsGyroAndLabels() throws {
        let folder = try TemporaryFolder()
        let text =
            "time,ax,ay,az,gx,gy,gz,label\n"
            + rows(100) { i in
                "\(t0 + Double(i) * 0.02),0.1,0.2,9.8,0.01,0.02,0.03,\(i < 60 ? "walking" : "Still")"
            }
        let (result, _) = try ingestFile(try folder.write("phone.csv", text))
        #expect(result.format == .imuCSV && result.dialect == "generic")
        #expect(result.imuStreams.map(\.sensor) == [.accelerometer, .gyroscope])
        #expect(result.imuStreams.allSatisfy { $0.samples == 100 })
        let rate = try #require(result.imuStreams.first?.rateHz)
        #expect(abs(rate - 50) < 1e-6)
        #expect(result.first?.secondsSince1970 == t0)
        #expect(result.labels.map(\.mode) == [.walk, .still])
        #expect(abs((result.labels.first.map { $0.start.seconds(until: $0.end) } ?? 0) - 59 * 0.02) < 1e-6)
    }

    @Test func timeUnitsFromTheColumnNameOrTheMagnitude() throws {
        let folder = try TemporaryFolder()
        let ms = try folder.write("ms.csv", "timestamp_ms,ax,ay,az\n1700000000000,0,0,9.8\n1700000000020,0,0,9.8\n")
        let ns = try folder.write("ns.csv", "t,acc_x,acc_y,acc_z\n1700000000000000000,0,0,9.8\n1700000000020000000,0,0,9.8\n")
        let iso = try folder.write("iso.csv", "datetime,ax,ay,az\n2023-11-14T22:13:20Z,0,0,9.8\n2023-11-14T22:13:20.020Z,0,0,9.8\n")
        for path in [ms, ns, iso] {
            let (result, _) = try ingestFile(path)
            #expect(result.first?.secondsSince1970 == t0, "\(path)")
            #expect(abs((result.imuStreams.first?.rateHz ?? 0) - 50) < 1e-3, "\(path)")
        }
    }

    @Test func accelerationInGIsConvertedToSI() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("g.csv", "time,ax (g),ay (g),az (g)\n\(t0),0,0,1\n")
        let mapping = try #require(IMUDialect.mapping(headerLine: "time,ax (g),ay (g),az (g)", fileName: path))
        let collector = IMUCollector()
        try TableIMUReader(path: path, mapping: mapping).read(visitor: collector)
        #expect(collector.samples[.accelerometer]?.first?.z == standardGravity)
    }

    @Test func labelledResearchRecordings() throws {
        let folder = try TemporaryFolder()
        let text =
            "x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label\n"
            + rows(10) { i in
                "3.1,0.9,-9.3,-0.002,-0.009,0.041,\(1_657_534_605_376 + i / 2),\(i < 4 ? "SEATED" : "WALKING")"
            }
        let (result, _) = try ingestFile(try folder.write("s01_01_sp.csv", text))
        #expect(result.dialect == "labelled_research")
        #expect(result.imuStreams.map(\.samples) == [10, 10])
        #expect(result.imuStreams.first?.duplicateTimes == 5, "duplicate milliseconds are kept and counted")
        #expect(result.labels.map(\.rawName) == ["SEATED", "WALKING"])
        #expect(result.labels.map(\.mode) == [.still, .walk])
    }

    @Test func phyphoxExportsNeedTheirStartTime() throws {
        let folder = try TemporaryFolder()
        let header = #""Time (s)","Acceleration x (m/s^2)","Acceleration y (m/s^2)","Acceleration z (m/s^2)""#
        let text = header + "\n" + rows(5) { i in "\(Double(i) * 0.01),0.1,0.2,9.81" }
        let path = try folder.write("Accelerometer.csv", text)
        // Seconds since the experiment began would land in 1970: a clear error naming the option.
        let error = try #require(throws: InputError.self) { try ingestFile(path) }
        #expect(error.code == .noData && error.message.contains("5 implausible_time") && error.message.contains("start="))
        let start = try ColumnMappingSpec(text: "time=1:s; start=2023-11-14T22:13:20Z; acc=2,3,4")
        let (result, _) = try ingestFile(path, columns: start)
        #expect(result.imuStreams.map(\.sensor) == [.accelerometer] && result.imuStreams[0].samples == 5)
        #expect(result.first?.secondsSince1970 == t0)
        #expect(abs((result.imuStreams[0].rateHz ?? 0) - 100) < 1e-3)
    }

    func writeSensorLogger(in folder: TemporaryFolder, under name: String) throws {
        let ns = Int64(t0 * 1e9)
        let sensorRows = rows(20) { i in "\(ns + Int64(i) * 10_000_000),\(Double(i) * 0.01),0.3,0.2,0.1" }
        try folder.write("\(name)/Metadata.csv", "version,device name,recording time\n3,pixel,2023-11-14\n")
        try folder.write("\(name)/Accelerometer.csv", "time,seconds_elapsed,z,y,x\n" + sensorRows)
        try folder.write("\(name)/TotalAcceleration.csv", "time,seconds_elapsed,z,y,x\n" + sensorRows)
        try folder.write("\(name)/Gyroscope.csv", "time,seconds_elapsed,z,y,x\n" + sensorRows)
        try folder.write("\(name)/Magnetometer.csv", "time,seconds_elapsed,z,y,x\n" + sensorRows)
        try folder.write(
            "\(name)/Location.csv",
            "time,seconds_elapsed,bearingAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,bearing,altitude,longitude,latitude\n"
                + rows(3) { i in "\(ns + Int64(i) * 1_000_000_000),\(i),10,1,5,8,1.2,90,35,2.0,\(48 + Double(i) * 1e-5)" })
    }

    @Test func sensorLoggerFolder() throws {
        let folder = try TemporaryFolder()
        try writeSensorLogger(in: folder, under: "ride")
        let (result, sink) = try ingestFile(folder.file("ride"), root: folder.path)
        #expect(result.format == .sensorLogger)
        #expect(result.imuStreams.map(\.sensor) == [.accelerometer, .gyroscope, .linearAcceleration])
        #expect(result.imuStreams.allSatisfy { $0.samples == 20 })
        #expect(result.otherSensors == ["magnetometer": 20])
        #expect(sink.fixes.count == 3 && sink.fixes[0].accuracyMeters == 8 && sink.fixes[0].speedMetersPerSecond == 1.2)
        #expect(result.device == "ride")
    }

    @Test func sensorLoggerZipAxesAreReorderedFromZYX() throws {
        let folder = try TemporaryFolder()
        try writeSensorLogger(in: folder, under: "export")
        let zip = folder.file("export.zip")
        try FileManager.default.zipItem(at: URL(fileURLWithPath: folder.file("export")), to: URL(fileURLWithPath: zip))
        try FileManager.default.removeItem(atPath: folder.file("export"))
        let (result, _) = try ingestFile(zip)
        #expect(result.format == .sensorLogger && result.imuSamples == 60)
        let mapping = try #require(IMUDialect.mapping(headerLine: "time,seconds_elapsed,z,y,x", fileName: "Gyroscope.csv"))
        #expect(mapping.streams.first?.columns == [4, 3, 2])
        #expect(FileManager.default.fileExists(atPath: zip), "the user's zip is left as it was")
    }

    @Test func androidEventLogsKeepFourStreamsAndCountTheRest() throws {
        let folder = try TemporaryFolder()
        let text = """
            6,,0.0,0.0,0.0,0.0,0.0
            63,android.sensor.magnetic_field,21.18,-49.37,-15.24
            69,android.sensor.accelerometer,-1.19,9.53,-1.99
            80,android.sensor.gyroscope,-0.32,-7.4E-4,-0.12
            90,android.sensor.accelerometer,-1.20,9.52,-1.98
            95,android.sensor.gravity,0.1,9.7,0.2
            99,android.sensor.linear_acceleration,0.1,0.2,0.3
            120,sound,54.2
            130,android.sensor.accelerometer,-1.21,nan,-1.97

            """
        let path = try folder.write("sensorfile_alice_Walking_1480485018989.csv", text)
        let (result, _) = try ingestFile(path)
        #expect(result.format == .androidEventLog)
        #expect(result.imuStreams.map(\.samples) == [2, 1, 1, 1])
        #expect(result.otherSensors == ["(unnamed)": 1, "android.sensor.magnetic_field": 1, "sound": 1])
        #expect(result.dropped.counts == [.notANumber: 1])
        #expect(result.first?.secondsSince1970 == 1_480_485_018.989 + 0.069)
    }

    @Test func explicitMappingForAnUnknownLogger() throws {
        let folder = try TemporaryFolder()
        let text = "stamp\tX\tY\tZ\tmotion\n" + rows(4) { i in "\(Double(i) * 10)\t0\t0\t1\tbike" }
        let path = try folder.write("odd.tsv", text)
        #expect(throws: InputError.self) { _ = try ingestFile(path) }
        let spec = try ColumnMappingSpec(text: "delimiter=tab; time=stamp:ms; start=2023-11-14T22:13:20Z; acc=X,Y,Z:g; label=motion")
        let (result, _) = try ingestFile(path, columns: spec)
        #expect(result.dialect == "explicit" && result.imuSamples == 4)
        #expect(abs((result.imuStreams[0].rateHz ?? 0) - 100) < 1e-3)
        #expect(result.first?.secondsSince1970 == t0 && result.labels.first?.mode == .bike)
    }

    @Test func explicitMappingWithSpacesAndAFixedRate() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("raw.txt", rows(50) { _ in "  0.01   0.02   9.81" })
        let spec = try ColumnMappingSpec(text: "delimiter=space\nheader=0\nrate=25 # Hz\nstart=1700000000\nacc=1,2,3")
        let (result, _) = try ingestFile(path, columns: spec)
        #expect(result.imuSamples == 50 && abs((result.imuStreams[0].rateHz ?? 0) - 25) < 1e-4)
        #expect(result.first?.secondsSince1970 == t0)
    }

    @Test func badMappingTextIsReportedBeforeReading() {
        let thrown1 = #expect(throws: PipelineError.self) { try ColumnMappingSpec(text: "acc=1,2,3") }
        #expect(thrown1?.code == .invalidColumnMapping)
        let thrown2 = #expect(throws: PipelineError.self) { try ColumnMappingSpec(text: "time=t; colour=red; acc=1,2,3") }
        #expect(thrown2?.code == .invalidColumnMapping)
    }

    @Test func anUnknownHeaderNamesTheColumnsItSaw() throws {
        let folder = try TemporaryFolder()
        #expect(
            try FormatDetector().detect(path: try folder.write("subjects.csv", "subject_id,age\n1,30\n")) == nil,
            "a table that is not sensor data is skipped")
        let path = try folder.write("mystery.csv", "time,foo,bar,baz\n1,2,3,4\n")
        #expect {
            _ = try ingestFile(path)
        } throws: { error in
            let error = error as? InputError
            return error?.code == .badHeader && error?.line == 1 && error?.message.contains("[time, foo, bar, baz]") == true
        }
    }

    @Test func gzippedIMUFilesReadLikePlainOnes() throws {
        let folder = try TemporaryFolder()
        let text = "time,ax,ay,az\n" + rows(30) { i in "\(t0 + Double(i)),0,0,9.8" }
        let (result, _) = try ingestFile(try folder.writeGzip("a.csv.gz", text))
        #expect(result.imuSamples == 30)
    }

    @Test func badRowsAreCountedNotFatal() throws {
        let folder = try TemporaryFolder()
        let text = "time,ax,ay,az\n\(t0),0,0,9.8\n\(t0 + 1),x,0,9.8\n\(t0 + 2),0,0\n\(t0 - 1),0,0,9.8\nbad,0,0,9.8\n\(t0 + 3),0,0,9.8\n"
        let (result, _) = try ingestFile(try folder.write("a.csv", text))
        #expect(result.imuSamples == 2)
        #expect(result.dropped.counts == [.notANumber: 1, .malformedRow: 1, .timeBackwards: 1, .invalidTime: 1])
        #expect(result.dropped.firstLine[.notANumber] == 3 && result.dropped.firstLine[.timeBackwards] == 5)
    }

    @Test func loggerStyleNamesWithKeywordsAndUnits() throws {
        let folder = try TemporaryFolder()
        let header =
            "loggingTime(txt),accelerometerAccelerationX(G),accelerometerAccelerationY(G),accelerometerAccelerationZ(G),gyroRotationX(rad/s),gyroRotationY(rad/s),gyroRotationZ(rad/s)"
        let text = header + "\n" + rows(3) { i in "2023-11-14 22:13:2\(i).000 +0000,0,0,-1,0.1,0,0" }
        let (result, _) = try ingestFile(try folder.write("sensorlog.csv", text))
        #expect(result.imuStreams.map(\.sensor) == [.accelerometer, .gyroscope])
        #expect(result.first?.secondsSince1970 == t0 && abs((result.imuStreams[0].rateHz ?? 0) - 1) < 1e-9)
        let collector = IMUCollector()
        let mapping = try #require(IMUDialect.mapping(headerLine: header, fileName: "sensorlog.csv"))
        try TableIMUReader(path: folder.file("sensorlog.csv"), mapping: mapping).read(visitor: collector)
        #expect(collector.samples[.accelerometer]?.first?.z == -standardGravity)
    }

    @Test func bareAxesTakeTheSensorFromTheFileName() throws {
        let folder = try TemporaryFolder()
        let text = "time,x,y,z\n" + rows(4) { i in "\(t0 + Double(i)),0.1,0.2,0.3" }
        #expect(try ingestFile(try folder.write("Gyroscope.csv", text)).0.imuStreams.map(\.sensor) == [.gyroscope])
        #expect(try ingestFile(try folder.write("accel.csv", text)).0.imuStreams.map(\.sensor) == [.accelerometer])
        #expect(throws: InputError.self) { _ = try ingestFile(try folder.write("mystery.csv", text)) }
    }

    @Test func semicolonFilesWithDecimalCommas() throws {
        let folder = try TemporaryFolder()
        let text = "time;ax;ay;az\n" + rows(3) { i in "\(Int(t0) + i);0,5;-1,25;9,81" }
        let collector = IMUCollector()
        let mapping = try #require(IMUDialect.mapping(headerLine: "time;ax;ay;az", fileName: "eu.csv"))
        try TableIMUReader(path: try folder.write("eu.csv", text), mapping: mapping).read(visitor: collector)
        #expect(collector.samples[.accelerometer]?.map(\.y) == [-1.25, -1.25, -1.25])
        #expect(collector.rejected.isEmpty)
    }

    /// WISDM 2019 as it comes: no header, a `;` ending every row, activity letters. A mapping's
    /// `labels=` says what the letters mean; a letter it leaves out stays as written (unknown).
    @Test func aHeaderlessTableWithRowTerminatorsAndLabelCodes() throws {
        let folder = try TemporaryFolder()
        let text = rows(4) { i in "1609,\(i < 2 ? "A" : "F"),4183088857\(i),-1.6,-12.0,0.13;" }
        let spec = try ColumnMappingSpec(text: "header=0; rate=20; start=2019-01-01T00:00:00Z; acc=4,5,6; label=2; labels=A:walk,D:still")
        let mapping = try spec.mapping(headerLine: "", path: "wisdm.txt")
        #expect(mapping.labelNames == ["A": "walk", "D": "still"])
        let collector = IMUCollector()
        try TableIMUReader(path: try folder.write("wisdm.txt", text), mapping: mapping).read(visitor: collector)
        #expect(collector.rejected.isEmpty && collector.samples[.accelerometer]?.map(\.z) == [0.13, 0.13, 0.13, 0.13])
        #expect(collector.labels.map(\.0) == ["walk", "F"])
        let thrown3 = #expect(throws: PipelineError.self) {
            _ = try ColumnMappingSpec(text: "acc=1,2,3; rate=20; start=2019-01-01T00:00:00Z; label=2; labels=A:wlak").mapping(
                headerLine: "", path: "x")
        }
        #expect(thrown3?.code == .invalidColumnMapping)
        let thrown4 = #expect(throws: PipelineError.self) {
            _ = try ColumnMappingSpec(text: "acc=1,2,3; rate=20; start=2019-01-01T00:00:00Z; labels=A:walk").mapping(
                headerLine: "", path: "x")
        }
        #expect(thrown4?.code == .invalidColumnMapping)
    }
}
