import Foundation
import TestSupport

/// `pipeline-bench MODE ARGS…`: one measurement per process, so peak memory is the stage's own.
/// `scripts/bench/bench.sh` runs every mode on fixed inputs and prints the table beside the peers.
/// `BENCH_REPEATS=N` makes `parse` report the best of N runs.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "generate-gpx":
        if arguments.count > 4 {
            try Inputs.writeGPX(
                path: arguments[1], points: Int(arguments[2])!, onSeconds: Int(arguments[3])!, offSeconds: Int(arguments[4])!)
        } else {
            try Inputs.writeGPX(path: arguments[1], points: Int(arguments[2])!)
        }
    case "generate-imu":
        try Inputs.writeIMU(path: arguments[1], rows: Int(arguments[2])!)
    case "parse":
        let repeats = Int(ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "1") ?? 1
        print(try Measurements.parse(Array(arguments.dropFirst(2)), name: arguments[1], repeats: repeats).line)
    case "ingest":
        print(try Measurements.ingest(Array(arguments.dropFirst(3)), storePath: arguments[2], name: arguments[1]).line)
    case "features":
        print(ModeMeasurements.features(name: arguments[1]).line)
    case "features-files":
        print(try ModeMeasurements.featuresFromFiles(Array(arguments.dropFirst(2)), name: arguments[1]).line)
    case "generate-device-day":
        try ModeMeasurements.writeDeviceDay(folder: arguments[1])
    case "device-day":
        print(try ModeMeasurements.deviceDay(folder: arguments[1], modelPath: arguments[2]).line)
    case "generate-days":
        try TripMeasurements.writeDays(path: arguments[1], devices: Int(arguments[2])!)
    case "trips":
        for measurement in try TripMeasurements.run(path: arguments[2], name: arguments[1]) { print(measurement.line) }
    case "sqlite":
        print(try Measurements.sqliteWrites(count: Int(arguments[1])!, storePath: arguments[2]).line)
    default:
        FileHandle.standardError.write(
            Data(
                """
                usage: pipeline-bench generate-gpx FILE POINTS [ON_S OFF_S] | generate-imu FILE ROWS
                       | parse NAME FILE… | ingest NAME STORE FILE… | sqlite ROWS STORE
                       | features NAME | features-files NAME PATH… | generate-device-day FOLDER | device-day FOLDER MODEL
                       | generate-days FILE DEVICES | trips NAME FILE

                """.utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("pipeline-bench: \(error)\n".utf8))
    exit(1)
}
