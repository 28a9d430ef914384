import Features
import Ingest
import MobilityCore

/// Keeps what ingest streams from one trace in memory, for the feature stage. Samples go
/// into one array per sensor found by a switch, not a dictionary lookup: this runs for each of
/// the millions of samples of a device-day.
final class RecordingSink: IngestSink {
    var fixes: [PositionFix] = []
    private var accelerometer: [IMUSample] = []
    private var gyroscope: [IMUSample] = []
    private var gravity: [IMUSample] = []
    private var linearAcceleration: [IMUSample] = []

    func write(fix: PositionFix, at position: FixPosition) throws { fixes.append(fix) }
    func write(waypoint: Waypoint, line: Int) throws {}

    func write(sample: IMUSample, sensor: IMUSensor) throws {
        switch sensor {
        case .accelerometer: accelerometer.append(sample)
        case .gyroscope: gyroscope.append(sample)
        case .gravity: gravity.append(sample)
        case .linearAcceleration: linearAcceleration.append(sample)
        }
    }

    var streams: [IMUSensor: [IMUSample]] {
        let all: [(IMUSensor, [IMUSample])] = [
            (.accelerometer, accelerometer), (.gyroscope, gyroscope),
            (.gravity, gravity), (.linearAcceleration, linearAcceleration)
        ]
        return Dictionary(uniqueKeysWithValues: all.filter { !$0.1.isEmpty })
    }
}
