import Features
import Ingest
import MobilityCore

/// Keeps what ingest streams from one trace in memory, for the feature stage.
final class RecordingSink: IngestSink {
    var fixes: [PositionFix] = []
    var streams: [IMUSensor: [IMUSample]] = [:]

    func write(fix: PositionFix, at position: FixPosition) throws { fixes.append(fix) }
    func write(waypoint: Waypoint, line: Int) throws {}
    func write(sample: IMUSample, sensor: IMUSensor) throws { streams[sensor, default: []].append(sample) }
}
