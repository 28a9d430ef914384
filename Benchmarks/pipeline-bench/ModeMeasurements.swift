import Classify
import Features
import Foundation
import MobilityCore
import PipelineRunner
import Simulate
import TestSupport

/// The feature and classification stages: window-channels per second on a fixed synthetic
/// recording, and a device-day from files to smoothed modes.
enum ModeMeasurements {
    /// Six hours of 50 Hz accelerometer and gyroscope (still, walk and car in turn), held in
    /// memory, so only the feature computation is timed; the best of three runs.
    static func features(name: String) -> Measurement {
        let imu = SyntheticIMU()
        var streams: [IMUSensor: [IMUSample]] = [:]
        for (index, motion) in [SyntheticIMU.Motion.still, .walk, .car].enumerated() {
            for (sensor, samples) in imu.streams(motion, seconds: 7200, start: 1_700_000_000 + Double(index) * 7200) {
                streams[sensor, default: []] += samples
            }
        }
        let recording = Recording(trace: "bench", device: "bench", streams: streams)
        let extractor = WindowFeatureExtractor()
        var (table, seconds) = Measurements.time { extractor.extract(recording) }
        for _ in 0..<2 { seconds = min(seconds, Measurements.time { extractor.extract(recording) }.1) }
        let channels = Double(FeatureSchema.Channel.allCases.count)
        return Measurement(
            name: name, seconds: seconds,
            units: [("windows", Double(table.count)), ("window-channels", Double(table.count) * channels)],
            peakRSSMegabytes: Measurements.peakRSSMegabytes())
    }

    /// Writes a device-day into `folder/phone/`: a 50 Hz 6-axis IMU CSV of 24 h (4.32 M rows:
    /// still at night and at work, walks and drives between, with the simulator's phone
    /// signals) and a 1 Hz GPX track of the same day.
    static func writeDeviceDay(folder: String) throws {
        let device = (folder as NSString).appendingPathComponent("phone")
        try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
        let plan: [(Mode, Double, Double)] = [ // mode, hours, GPS speed m/s
            (.still, 7.5, 0), (.walk, 0.25, 1.4), (.car, 0.5, 12), (.walk, 0.1, 1.4), (.still, 8, 0),
            (.walk, 0.15, 1.4), (.car, 0.6, 11), (.walk, 0.2, 1.4), (.still, 6.7, 0)
        ]
        guard let csv = fopen((device as NSString).appendingPathComponent("imu.csv"), "w"),
            let gpx = fopen((device as NSString).appendingPathComponent("track.gpx"), "w")
        else {
            throw BenchError("cannot write into \(device)")
        }
        defer { fclose(csv); fclose(gpx) }
        fputs("time,ax,ay,az,gx,gy,gz\n", csv)
        fputs(
            #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="pipeline-bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
                + "\n", gpx)
        var start = 1_700_000_000.0, north = 0.0
        var motion = PhoneMotion(rateHz: 50, seed: 1)
        for (mode, hours, speed) in plan {
            for sample in 0..<Int(hours * 3600 * motion.rateHz) {
                let (a, w) = motion.next(mode)
                let time = start + Double(sample) / motion.rateHz
                fputs(String(format: "%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", time, a.0, a.1, a.2, w.0, w.1, w.2), csv)
            }
            for second in 0..<Int(hours * 3600) {
                north += speed
                let time = ISO8601.format(Timestamp(secondsSince1970: start + Double(second)))
                fputs(String(format: "<trkpt lat=\"%.7f\" lon=\"2.3500000\"><time>%@</time></trkpt>\n", 48.85 + north / 111_195, time), gpx)
            }
            start += hours * 3600
        }
        fputs("</trkseg></trk></gpx>\n", gpx)
    }

    /// Reading the device-day's files, features, the model and smoothing, end to end.
    static func deviceDay(folder: String, modelPath: String) throws -> Measurement {
        let model = try ModeModel.load(path: modelPath)
        let ((windows, modes), seconds) = try Measurements.time { () -> (Int, [Mode]) in
            let output = try FeatureRun(loader: RecordingLoader(), window: model.window).run(
                [folder], progress: ProgressReporter(quiet: true))
            return (output.table.count, ModePredictor(model: model).predict(output.table).modes)
        }
        let minutes = Dictionary(grouping: modes, by: { $0 }).mapValues { Double($0.count) * model.window.hopSeconds / 60 }
        let name =
            "device-day csv+gpx to smoothed modes ("
            + minutes.sorted { $0.key < $1.key }
            .map { String(format: "%@ %.0f min", $0.key.rawValue, $0.value) }.joined(separator: ", ") + ")"
        return Measurement(
            name: name, seconds: seconds, units: [("windows", Double(windows))],
            peakRSSMegabytes: Measurements.peakRSSMegabytes())
    }

    /// Reading real event logs and computing their features.
    static func featuresFromFiles(_ paths: [String], name: String) throws -> Measurement {
        let (output, seconds) = try Measurements.time {
            try FeatureRun(loader: RecordingLoader(), window: WindowParameters()).run(paths, progress: ProgressReporter(quiet: true))
        }
        let channels = Double(FeatureSchema.Channel.allCases.count)
        return Measurement(
            name: name, seconds: seconds,
            units: [("windows", Double(output.table.count)), ("window-channels", Double(output.table.count) * channels)],
            peakRSSMegabytes: Measurements.peakRSSMegabytes())
    }
}
