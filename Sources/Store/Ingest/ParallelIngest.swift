import Foundation
import MobilityCore

/// Reads a file on a second thread while the thread holding the file's transaction writes what
/// it read, so parsing and SQLite each have a core (ingest of a 60 MB GPX was a third parsing
/// and two thirds SQLite, one after the other).
///
/// The reader hands its fixes and waypoints over in blocks (`ReadAhead`: at most
/// `queuedBlocks` blocks wait, so memory stays flat however long the file); only the writing
/// thread touches the database. An error on either side stops both, and the first one is
/// thrown: a reader's `InputError` quarantines the file as before, and the transaction rolls back.
enum ParallelIngest {
    static let blockRecords = 4_096
    static let queuedBlocks = 4

    static func run<Outcome: Sendable>(read: (IngestSink) throws -> Outcome, into writer: FixWriter) throws -> Outcome {
        try ReadAhead.run(
            blockItems: blockRecords, queuedBlocks: queuedBlocks, read: { queue in try read(Handoff(queue)) },
            take: { (record: IngestRecord) in try record.write(into: writer) })
    }

    /// The reader's side: an `IngestSink` that queues what it is given.
    final class Handoff: IngestSink {
        private let queue: ReadAhead.Queue<IngestRecord>

        init(_ queue: ReadAhead.Queue<IngestRecord>) { self.queue = queue }

        func write(fix: PositionFix, at position: FixPosition) throws { try queue.put(.fix(fix, position)) }
        func write(waypoint: Waypoint, line: Int) throws { try queue.put(.waypoint(waypoint, line)) }
    }
}
