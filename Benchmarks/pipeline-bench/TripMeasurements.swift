import Foundation
import Fusion
import MobilityCore
import PipelineRunner
import Trips

/// The trip stages on synthetic device-days of 1 Hz fixes, written to a CSV that the peer's
/// script (scripts/peers/trackintel_bench.py) reads too, so both measure the same fixes.
enum TripMeasurements {
    /// `devices` device-days: night at home, drive to work, day at work, walk to a shop,
    /// drive home; 1 Hz fixes with 5 m scatter; each device in its own part of a city.
    static func writeDays(path: String, devices: Int) throws {
        var random = SeededGenerator(seed: 2026)
        let handle = try Output(path: path)
        handle.write("user_id,tracked_at_unix_s,latitude,longitude\n")
        let metresPerDegree = Geodesy.earthRadiusMeters * .pi / 180
        for device in 0..<devices {
            let home = SIMD2(random.nextUnit() * 20_000 - 10_000, random.nextUnit() * 20_000 - 10_000)
            let work = home + SIMD2(random.nextUnit() * 8000 - 4000, random.nextUnit() * 8000 - 4000)
            let shop = work + SIMD2(300 + random.nextUnit() * 400, 200)
            // (place to stay, leave at second of day, next place, speed m/s)
            let plan: [(SIMD2<Double>, Double, SIMD2<Double>, Double)] = [
                (home, 7.5 * 3600 + random.nextUnit() * 3600, work, 10),
                (work, 17 * 3600 + random.nextUnit() * 1800, shop, 1.4),
                (shop, -1, home, 10) // leaves 25 min after arriving
            ]
            var second = 0.0, position = home
            var lines = ""
            func fix(_ at: SIMD2<Double>) {
                let scatter = SIMD2(random.nextUnit() - 0.5, random.nextUnit() - 0.5) * 10
                let p = at + scatter
                let latitude = 48.85 + p.y / metresPerDegree
                let longitude = 2.35 + p.x / (metresPerDegree * cos(48.85 * .pi / 180))
                lines += "d\(device),\(1_700_000_000 + second),\(String(format: "%.7f,%.7f", latitude, longitude))\n"
                second += 1
            }
            for (place, leave, next, speed) in plan {
                let until = leave < 0 ? second + 1500 : leave
                while second < until { fix(place) }
                let distance = ((next - place) * (next - place)).sum().squareRoot()
                for step in 0..<Int(distance / speed) { fix(place + (next - place) * (Double(step) * speed / distance)) }
                position = next
            }
            while second < 86_400 { fix(position) }
            handle.write(lines)
        }
    }

    static func readDays(path: String) throws -> [DeviceTrack] {
        var points: [String: [TrackPoint]] = [:]
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            points[String(fields[0]), default: []].append(
                TrackPoint(
                    timeSeconds: Double(fields[1])!, latitudeDegrees: Double(fields[2])!,
                    longitudeDegrees: Double(fields[3])!))
        }
        return points.keys.sorted().map { DeviceTrack(device: $0, points: points[$0]!) }
    }

    /// Staypoints alone, then staypoints → triplegs → trips, on one core (as the peer runs, with
    /// its parameters);
    /// then every stage (with dwells in two geofences and locations) on all cores.
    static func run(path: String, name: String) throws -> [Measurement] {
        let tracks = try readDays(path: path)
        let fixes = Double(tracks.reduce(0) { $0 + $1.points.count })
        // trackintel's parameters (its include_last is off), so both do the same work.
        var parameters = TripStageParameters()
        parameters.staypoints.includeLast = false
        let detector = StaypointDetector(parameters: parameters.staypoints)
        var best = Double.infinity, staypoints = 0
        for _ in 0..<3 {
            let (count, seconds) = Measurements.time { tracks.reduce(0) { $0 + detector.detect($1).count } }
            best = min(best, seconds)
            staypoints = count
        }
        let analysis = TripAnalysis(parameters: parameters)
        let (trips, chainSeconds) = Measurements.time {
            tracks.reduce(0) { $0 + analysis.analyse($1, geofences: [], modes: .empty).trips.count }
        }
        let fences = [
            Geofence(
                id: "centre", name: "Centre", kind: "zone",
                shape: .circle(latitudeDegrees: 48.85, longitudeDegrees: 2.35, radiusMeters: 2000)),
            Geofence(
                id: "north", name: "North", kind: "zone", shape: .circle(latitudeDegrees: 48.9, longitudeDegrees: 2.35, radiusMeters: 3000))
        ]
        let (result, allSeconds) = Measurements.time { analysis.run(tracks: tracks, geofences: fences, modes: [:]) }
        let product = TripAnalysis()
        let (_, modeSeconds) = Measurements.time {
            product.run(tracks: tracks, geofences: fences) { track, staypoints in
                DeviceModes.timeline(track, stored: [], staypoints: staypoints)
            }
        }
        let rss = Measurements.peakRSSMegabytes()
        return [
            Measurement(
                name: "\(name): staypoints, 1 core (best of 3; \(staypoints) staypoints)", seconds: best, units: [("fixes", fixes)],
                peakRSSMegabytes: rss),
            Measurement(
                name: "\(name): staypoints+triplegs+trips, 1 core (\(trips) trips)", seconds: chainSeconds,
                units: [("fixes", fixes)], peakRSSMegabytes: rss),
            Measurement(
                name: "\(name): + dwells, locations, 2 cores (\(result.devices.reduce(0) { $0 + $1.dwells.count }) dwells)",
                seconds: allSeconds, units: [("fixes", fixes)], peakRSSMegabytes: rss),
            Measurement(
                name: "\(name): as `pipeline trips` runs it (+ GPS-rule modes, last stay), 2 cores", seconds: modeSeconds,
                units: [("fixes", fixes)], peakRSSMegabytes: rss)
        ]
    }

    /// A file written in large pieces.
    final class Output {
        let handle: FileHandle
        init(path: String) throws {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        func write(_ text: String) { handle.write(Data(text.utf8)) }
        deinit { try? handle.close() }
    }
}
