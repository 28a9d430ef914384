import Foundation
import MobilityCore

/// Reads a file on a second thread while the thread holding the file's transaction writes what
/// it read, so parsing and SQLite each have a core (ingest of a 60 MB GPX was a third parsing
/// and two thirds SQLite, one after the other).
///
/// The reader hands its fixes and waypoints over in blocks through a bounded queue (at most
/// `queuedBlocks` blocks wait, so memory stays flat however long the file); only the writing
/// thread touches the database. An error on either side stops both, and the first one is
/// thrown: a reader's `InputError` quarantines the file as before, and the transaction rolls back.
enum ParallelIngest {
    static let blockRecords = 4_096
    static let queuedBlocks = 4

    static func run<Outcome: Sendable>(read: (IngestSink) throws -> Outcome, into writer: FixWriter) throws -> Outcome {
        let handoff = Handoff<Outcome>()
        return try withoutActuallyEscaping(read) { read in
            // A joined POSIX thread, not `Thread`: the closure must be released before
            // `withoutActuallyEscaping` returns, and only a join guarantees that.
            let work = ReaderWork { handoff.finish(Result { try read(handoff) }) }
            var thread = pthread_t()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 8 << 20)
            let started = pthread_create(
                &thread, &attributes,
                { context in
                    Unmanaged<ReaderWork>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, Unmanaged.passRetained(work).toOpaque())
            pthread_attr_destroy(&attributes)
            guard started == 0 else {
                Unmanaged.passUnretained(work).release()
                return try read(writer) // no second thread to be had: read and write in turn
            }
            var writeError: Error?
            while let block = handoff.next() {
                guard writeError == nil else { continue } // drain so the reader can finish
                do {
                    for record in block { try record.write(into: writer) }
                } catch {
                    writeError = error
                    handoff.cancel()
                }
            }
            pthread_join(thread, nil)
            if let writeError { throw writeError }
            return try handoff.outcome!.get()
        }
    }

    /// The reader's work, boxed to cross into the POSIX thread.
    private final class ReaderWork {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    struct Cancelled: Error {}

    /// The reader's side is an `IngestSink`; the writer's side takes blocks with `next()`.
    final class Handoff<Outcome: Sendable>: IngestSink, @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [[IngestRecord]] = []
        private var block: [IngestRecord] = []
        private var cancelled = false
        private(set) var outcome: Result<Outcome, Error>?

        init() { block.reserveCapacity(ParallelIngest.blockRecords) }

        func write(fix: PositionFix, at position: FixPosition) throws {
            block.append(.fix(fix, position))
            if block.count == ParallelIngest.blockRecords { try hand() }
        }

        func write(waypoint: Waypoint, line: Int) throws {
            block.append(.waypoint(waypoint, line))
            if block.count == ParallelIngest.blockRecords { try hand() }
        }

        /// Queues the current block, waiting while the queue is full.
        private func hand() throws {
            condition.lock()
            defer { condition.unlock() }
            while queue.count >= ParallelIngest.queuedBlocks && !cancelled { condition.wait() }
            if cancelled { throw Cancelled() }
            queue.append(block)
            block = []
            block.reserveCapacity(ParallelIngest.blockRecords)
            condition.broadcast()
        }

        /// Called once by the reader's thread when it is done: the last block and its result.
        func finish(_ result: Result<Outcome, Error>) {
            condition.lock()
            defer { condition.unlock() }
            if case .success = result, !block.isEmpty { queue.append(block) }
            block = []
            outcome = result
            condition.broadcast()
        }

        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            condition.broadcast()
        }

        /// The next block, or nil when the reader has finished and every block was taken.
        func next() -> [IngestRecord]? {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty && outcome == nil { condition.wait() }
            guard !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            condition.broadcast()
            return first
        }
    }
}
