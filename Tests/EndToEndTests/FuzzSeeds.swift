import Foundation
import MobilityCore
import TestSupport

/// Small valid inputs of every format `pipeline run` reads, the seeds the mutation fuzzer
/// starts from, and its mutations. Seeded, so every case can be made again from its number.
enum FuzzSeeds {
    static let start = 1_700_000_000.0

    /// File name (with its format's extension) → content.
    static func all() -> [(name: String, bytes: [UInt8])] {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 400, intervalSeconds: 1, stepMeters: 1.4)]]
        let imu =
            "time,ax,ay,az,gx,gy,gz\n"
            + (0..<1500).map { i in
                let t = start + Double(i) * 0.02, s = sin(Double(i) * 0.25)
                return "\(t),\(0.3 * s),\(0.2 * s),\(9.8 + 2 * s),0.01,0.02,\(0.1 * s)"
            }.joined(separator: "\n") + "\n"
        let android =
            (0..<600).map { i in
                i % 3 == 2
                    ? "\(i * 20),android.sensor.gyroscope,0.01,0.02,0.03"
                    : "\(i * 20),android.sensor.accelerometer,0.1,\(sin(Double(i))),9.8"
            }.joined(separator: "\n") + "\n"
        let plt =
            "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"
            + (0..<200).map { i in
                "39.9\(1000 + i),116.3\(1000 + i),0,492,39765.\(i + 10000),2008-11-14,\(String(format: "%02d:%02d:%02d", 8, i / 60, i % 60))"
            }
            .joined(separator: "\n") + "\n"
        return [
            ("walk.gpx", Array(gpx.text.utf8)),
            ("phone.csv", Array(imu.utf8)),
            ("sensorfile_u1_Walking_1700000000000.csv", Array(android.utf8)),
            ("track.plt", Array(plt.utf8)),
            (
                "geofences.geojson",
                Array(
                    #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"home","name":"Home","kind":"home","radius_m":80},"geometry":{"type":"Point","coordinates":[2.0,48.0]}},{"type":"Feature","properties":{"id":"park","name":"Park","kind":"zone"},"geometry":{"type":"Polygon","coordinates":[[[2.0,48.004],[2.001,48.004],[2.001,48.006],[2.0,48.006],[2.0,48.004]]]}}]}"#
                        .utf8)
            ),
            (
                "stations.csv",
                Array("id,name,kind,lat,lon,radius_m\nst-a,Alpha,station,48.0,2.0,100\nst-b,Beta,station,48.005,2.0,100\n".utf8)
            ),
            (
                "checkins.csv",
                Array(
                    "device,train,from_station,to_station,checkin_time,cleanliness,noise_db,comment\nfuzz,TER 1,st-a,st-b,2023-11-14T22:13:30Z,4,61.5,=HYPERLINK(\"x\")\n"
                        .utf8)
            ),
            ("labels.csv", Array("device,start,end,mode\nfuzz,2023-11-14T22:13:20Z,2023-11-14T22:20:00Z,walk\n".utf8))
        ]
    }

    /// Tokens that broke readers before: far and corrupt dates, extreme and special numbers,
    /// formula payloads, separators, markup, a NUL.
    static let tokens: [[UInt8]] = [
        "9999-12-31T23:59:59Z", "1901-12-13T20:45:52Z", "1970-01-01T00:00:00Z", "2108-02-07T06:28:16Z", "253402300799000",
        "1e308", "-1e308", "1e20", "nan", "inf", "-0", "0", "99999999999999999999", ",", ";", "\n", "\r\n", "\"", "'",
        "<", ">", "</trkpt>", "<trkpt lat=\"91\" lon=\"2\"><time>2060-01-01T00:00:00Z</time></trkpt>", "&bogus;",
        "=HYPERLINK(\"http://x\")", "@SUM(A1)", "\u{0}", "é", String(repeating: "9", count: 300)
    ].map { Array($0.utf8) }

    /// One to four mutations: truncation, a token inserted, a range deleted or repeated, a
    /// number replaced by a token, bytes flipped.
    static func mutate(_ original: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var data = original
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !data.isEmpty {
            let position = Int.random(in: 0..<data.count, using: &generator)
            let length = min(data.count - position, Int.random(in: 1...64, using: &generator))
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: data.removeSubrange(position...)
            case 1: data.insert(contentsOf: tokens.randomElement(using: &generator)!, at: position)
            case 2: data.removeSubrange(position..<(position + length))
            case 3: data.insert(contentsOf: data[position..<(position + length)], at: min(data.count, position + length))
            case 4:
                guard let digit = data[position...].firstIndex(where: { (0x30...0x39).contains($0) }) else { continue }
                let end = data[digit...].firstIndex { !(0x30...0x39).contains($0) && $0 != 0x2E } ?? data.count
                data.replaceSubrange(digit..<end, with: tokens.randomElement(using: &generator)!)
            default:
                for index in position..<(position + length) where Bool.random(using: &generator) {
                    data[index] ^= UInt8.random(in: 1...255, using: &generator)
                }
            }
        }
        return data
    }
}
