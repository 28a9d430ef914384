import Foundation
import Ingest
import MobilityCore

/// Keeps everything a reader reports, for assertions.
final class GPXCollector: GPXVisitor {
    var fixes: [(PositionFix, FixPosition)] = []
    var waypoints: [Waypoint] = []
    var rejected: [(DropReason, Int)] = []

    func trackPoint(_ fix: PositionFix, at position: FixPosition) throws { fixes.append((fix, position)) }
    func waypoint(_ waypoint: Waypoint, line: Int) throws { waypoints.append(waypoint) }
    func rejectedPoint(_ reason: DropReason, line: Int) { rejected.append((reason, line)) }
}

final class IMUCollector: IMUVisitor {
    var samples: [IMUSensor: [IMUSample]] = [:]
    var other: [String: Int] = [:]
    var labels: [(String, Timestamp, Timestamp)] = []
    var fixes: [PositionFix] = []
    var rejected: [(DropReason, Int)] = []

    func sample(_ sample: IMUSample, sensor: IMUSensor, line: Int) throws { samples[sensor, default: []].append(sample) }
    func otherSensor(_ name: String, line: Int) { other[name, default: 0] += 1 }
    func labelRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) { labels.append((name, start, end)) }
    func fix(_ fix: PositionFix, line: Int) throws { fixes.append(fix) }
    func rejectedRow(_ reason: DropReason, line: Int, sensor: IMUSensor?) { rejected.append((reason, line)) }
}

/// A sink that keeps what it is given.
final class KeepingSink: IngestSink {
    var fixes: [PositionFix] = []
    var positions: [FixPosition] = []
    var waypoints: [Waypoint] = []

    func write(fix: PositionFix, at position: FixPosition) throws {
        fixes.append(fix)
        positions.append(position)
    }

    func write(waypoint: Waypoint, line: Int) throws { waypoints.append(waypoint) }
}

/// Ingests one file the way `pipeline ingest` does, into a keeping sink.
func ingestFile(
    _ path: String, root: String? = nil, devices: DeviceResolver? = nil,
    columns: ColumnMappingSpec? = nil, cleaning: CleaningParameters = CleaningParameters()
) throws -> (IngestResult, KeepingSink) {
    let standard = InputPath.standardise(path)
    let resolver = try devices ?? DeviceResolver()
    guard let format = try FormatDetector().detect(path: standard, mapping: columns.map { .given($0) }) else {
        throw InputError(.unknownFormat, "not a trace format", path: path)
    }
    let sink = KeepingSink()
    let input = DiscoveredInput(path: standard, root: root.map(InputPath.standardise) ?? (standard as NSString).deletingLastPathComponent)
    let result = try Ingestor(cleaning: cleaning, devices: resolver).ingest(input, format: format, into: sink)
    return (result, sink)
}

/// Keeps the fixes a reader streams into the store's place.
final class FixCollector: IngestSink {
    var fixes: [PositionFix] = []
    func write(fix: PositionFix, at position: FixPosition) throws { fixes.append(fix) }
    func write(waypoint: Waypoint, line: Int) throws {}
}
