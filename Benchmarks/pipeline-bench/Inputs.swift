import Foundation
import MobilityCore

/// Fixed, generated benchmark inputs: the same bytes on every machine and every run.
enum Inputs {
    /// A Garmin-style GPX track with elevation, time and TrackPointExtension hr/cad, about
    /// 190 bytes per point (1 Hz cycling around a loop). With `offSeconds`, the logger records
    /// only on the move: after every `onSeconds` of fixes it is off for `offSeconds` (parked,
    /// where it wakes on motion), so the track has gaps and no stays.
    static func writeGPX(path: String, points: Int, onSeconds: Int = Int.max, offSeconds: Int = 0) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        fputs(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n", file)
        fputs(
            #"<gpx version="1.1" creator="pipeline-bench" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">"#
                + "\n<trk><name>bench</name><trkseg>\n", file)
        let start = 1_700_000_000.0
        for i in 0..<points {
            let angle = Double(i) / 600 * 2 * .pi
            let lat = 48.85 + 0.01 * sin(angle), lon = 2.35 + 0.015 * cos(angle)
            let time = ISO8601.format(Timestamp(secondsSince1970: start + Double(i + i / onSeconds * offSeconds)))
            let line = String(
                format:
                    #"<trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%@</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>%d</gpxtpx:hr><gpxtpx:cad>%d</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>"#,
                lat, lon, 35 + 5 * sin(angle * 3), time, 120 + i % 40, 80 + i % 15)
            fputs(line + "\n", file)
        }
        fputs("</trkseg></trk>\n</gpx>\n", file)
    }

    /// A generic 50 Hz 6-axis IMU CSV (`time,ax,ay,az,gx,gy,gz`, Unix seconds).
    static func writeIMU(path: String, rows: Int) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        fputs("time,ax,ay,az,gx,gy,gz\n", file)
        let start = 1_700_000_000.0
        for i in 0..<rows {
            let t = Double(i) / 50
            let step = sin(2 * .pi * 2 * t)
            fputs(
                String(
                    format: "%.3f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f\n", start + t, 0.3 * step, 0.1 * step, 9.81 + 1.5 * step,
                    0.05 * step, 0.02 * step, 0.01 * step), file)
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
