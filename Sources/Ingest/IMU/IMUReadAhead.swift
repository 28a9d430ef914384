import MobilityCore

/// What an IMU reader told its visitor, kept to be told again on another thread
/// (`TableIMUReader.readsAhead`): the rows are parsed on one core while the visitor (the
/// tally, a recording's streams) takes them on another.
enum IMUEvent {
    case sample(IMUSample, IMUSensor, line: Int)
    case otherSensor(String, line: Int)
    case labelRun(String, start: Timestamp, end: Timestamp, line: Int)
    /// Boxed: a fix is more than twice a sample's size, and table readers send none.
    indirect case fix(PositionFix, line: Int)
    case rejectedRow(DropReason, line: Int, sensor: IMUSensor?)
    case activityRun(String, start: Timestamp, end: Timestamp, line: Int)
    case timeWithoutOffset(line: Int)

    /// Tells `visitor` what the reader told.
    @inline(__always)
    func replay(into visitor: IMUVisitor) throws {
        switch self {
        case .sample(let sample, let sensor, let line): try visitor.sample(sample, sensor: sensor, line: line)
        case .otherSensor(let name, let line): visitor.otherSensor(name, line: line)
        case .labelRun(let name, let start, let end, let line): visitor.labelRun(name, start: start, end: end, line: line)
        case .fix(let fix, let line): try visitor.fix(fix, line: line)
        case .rejectedRow(let reason, let line, let sensor): visitor.rejectedRow(reason, line: line, sensor: sensor)
        case .activityRun(let name, let start, let end, let line): visitor.activityRun(name, start: start, end: end, line: line)
        case .timeWithoutOffset(let line): visitor.timeWithoutOffset(line: line)
        }
    }
}

/// The reading thread's visitor: queues every call in order.
///
/// The calls that cannot throw drop their event once the taking side has stopped; the next
/// sample then stops the reader.
final class IMUEventQueue: IMUVisitor {
    private let queue: ReadAhead.Queue<IMUEvent>

    init(_ queue: ReadAhead.Queue<IMUEvent>) { self.queue = queue }

    func sample(_ sample: IMUSample, sensor: IMUSensor, line: Int) throws { try queue.put(.sample(sample, sensor, line: line)) }
    func otherSensor(_ name: String, line: Int) { try? queue.put(.otherSensor(name, line: line)) }
    func labelRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {
        try? queue.put(.labelRun(name, start: start, end: end, line: line))
    }
    func fix(_ fix: PositionFix, line: Int) throws { try queue.put(.fix(fix, line: line)) }
    func rejectedRow(_ reason: DropReason, line: Int, sensor: IMUSensor?) {
        try? queue.put(.rejectedRow(reason, line: line, sensor: sensor))
    }
    func activityRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {
        try? queue.put(.activityRun(name, start: start, end: end, line: line))
    }
    func timeWithoutOffset(line: Int) { try? queue.put(.timeWithoutOffset(line: line)) }
}
