import Foundation
import Ingest
import MobilityCore
import Store

/// One timed stage, printed as a line the benchmark script collects.
struct Measurement {
    var name: String
    var seconds: Double
    var units: [(String, Double)]
    var peakRSSMegabytes: Double

    var line: String {
        let rates = units.map { String(format: "%.3g %@/s", $0.1 / seconds, $0.0) }.joined(separator: ", ")
        return (name.count < 32 ? name.padding(toLength: 32, withPad: " ", startingAt: 0) : name + " ")
            + String(format: "%8.3f s  ", seconds) + rates + String(format: "  peak RSS %.0f MB", peakRSSMegabytes)
    }
}

enum Measurements {
    static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    static func fileMegabytes(_ paths: [String]) -> Double {
        paths.reduce(0) { total, path in
            total + Double(((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0) / 1e6
        }
    }

    /// Parsing and cleaning alone, into a sink that keeps nothing; the best of `repeats` runs
    /// (the peer's script measures the same way).
    static func parse(_ paths: [String], name: String, repeats: Int = 1) throws -> Measurement {
        var best = try parseOnce(paths, name: name)
        for _ in 1..<max(1, repeats) {
            let next = try parseOnce(paths, name: name)
            if next.seconds < best.seconds { best = next }
        }
        if repeats > 1 { best.name += " (best of \(repeats))" }
        best.peakRSSMegabytes = peakRSSMegabytes()
        return best
    }

    private static func parseOnce(_ paths: [String], name: String) throws -> Measurement {
        let (records, seconds) = try time { () -> (Int, Int) in
            var points = 0, samples = 0
            for path in paths {
                let input = DiscoveredInput(path: path, root: (path as NSString).deletingLastPathComponent)
                guard let format = try FormatDetector().detect(path: path) else { continue }
                let result = try Ingestor(devices: DeviceResolver()).ingest(input, format: format, into: DiscardingSink())
                points += result.gpx?.trackPoints ?? 0
                samples += result.recordsRead
            }
            return (points, samples)
        }
        var units = [("MB", fileMegabytes(paths))]
        if records.0 > 0 { units.append(("points", Double(records.0))) } else { units.append(("rows", Double(records.1))) }
        return Measurement(name: name, seconds: seconds, units: units, peakRSSMegabytes: peakRSSMegabytes())
    }

    /// Prepared-statement inserts of `count` fixes in one transaction.
    static func sqliteWrites(count: Int, storePath: String) throws -> Measurement {
        try? FileManager.default.removeItem(atPath: storePath)
        let store = try PipelineStore(path: storePath)
        let run = try store.beginRun(command: "bench")
        let (_, seconds) = try time {
            _ = try store.storeIngested(path: "/bench.gpx", contentSHA256: "bench", sizeBytes: 0, runID: run) { sink in
                for i in 0..<count {
                    let fix = PositionFix(
                        time: Timestamp(secondsSince1970: 1_700_000_000 + Double(i)),
                        latitudeDegrees: 48.85 + Double(i % 1000) * 1e-5, longitudeDegrees: 2.35,
                        elevationMeters: 35, accuracyMeters: 5)
                    try sink.write(fix: fix, at: FixPosition(track: 0, segment: 0, line: i + 2))
                }
                return IngestResult(format: .gpx, device: "bench")
            }
        }
        return Measurement(
            name: "sqlite fix inserts", seconds: seconds, units: [("rows", Double(count))],
            peakRSSMegabytes: peakRSSMegabytes())
    }

    /// Full ingest of `paths` into a fresh store: parse, clean, write.
    static func ingest(_ paths: [String], storePath: String, name: String) throws -> Measurement {
        try? FileManager.default.removeItem(atPath: storePath)
        let store = try PipelineStore(path: storePath)
        let run = try store.beginRun(command: "bench")
        let (fixes, seconds) = try time { () -> Int in
            var fixes = 0
            for path in paths {
                let input = DiscoveredInput(path: path, root: (path as NSString).deletingLastPathComponent)
                guard let format = try FormatDetector().detect(path: path) else { continue }
                let result = try store.storeIngested(path: path, contentSHA256: "bench", sizeBytes: 0, runID: run) { sink in
                    try Ingestor(devices: DeviceResolver()).ingest(input, format: format, into: sink)
                }
                fixes += result.fixesKept
            }
            return fixes
        }
        return Measurement(
            name: name, seconds: seconds, units: [("MB", fileMegabytes(paths)), ("fixes", Double(fixes))],
            peakRSSMegabytes: peakRSSMegabytes())
    }
}
