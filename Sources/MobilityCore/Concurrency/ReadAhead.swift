import Foundation

/// Reads on a second thread while the calling thread takes what was read, in order: a file's
/// parsing on one core and what is done with its records (SQLite's inserts, a recording's
/// streams) on another.
///
/// The reader puts items into a `Queue`, which hands them over in blocks of `blockItems`; at
/// most `queuedBlocks` blocks wait, so memory stays flat however long the file. An error on
/// either side stops both, and the first one is thrown: the reader's as it would be thrown
/// without the second thread (its items before the error are taken first), or the taker's,
/// after which the reader stops at its next full block.
public enum ReadAhead {
    /// Runs `read` on a second thread and `take` on this one, item by item in the order `read`
    /// put them; returns `read`'s result. Without a second thread to be had, `take` runs as
    /// each item is put. Inlinable, so the caller's module specialises the taking loop for its
    /// items.
    @inlinable
    public static func run<Item, Outcome>(
        blockItems: Int = 4_096, queuedBlocks: Int = 4, read: (Queue<Item>) throws -> Outcome, take: (Item) throws -> Void
    ) throws -> Outcome {
        try withoutActuallyEscaping(read) { read in
            try withoutActuallyEscaping(take) { take in
                let queue = Queue<Item>(blockItems: blockItems, queuedBlocks: queuedBlocks)
                let outcome = Box<Result<Outcome, Error>>()
                // A joined POSIX thread, not `Thread`: the closures must be released before
                // `withoutActuallyEscaping` returns, and only a join guarantees that.
                let work = Work {
                    outcome.value = Result { try read(queue) }
                    queue.finish()
                }
                guard let thread = Work.start(work) else {
                    // No second thread to be had: read and take in turn.
                    return try read(Queue(taking: take))
                }
                var takeError: Error?
                while var block = queue.next() {
                    guard takeError == nil else { continue } // drained so the reader can finish
                    do {
                        for item in block { try take(item) }
                        block.removeAll(keepingCapacity: true)
                        queue.recycle(block)
                    } catch {
                        takeError = error
                        queue.cancel()
                    }
                }
                Work.join(thread)
                if let takeError { throw takeError }
                return try outcome.value!.get()
            }
        }
    }

    /// Thrown by `Queue.put` once the taking side has stopped: the reader need not go on.
    public struct Cancelled: Error {}

    /// The reader's side: `put` each item in order.
    public final class Queue<Item>: @unchecked Sendable {
        private let condition = NSCondition()
        @usableFromInline let blockItems: Int
        private let queuedBlocks: Int
        private var waiting: [[Item]] = []
        /// Blocks taken and emptied, kept to be filled again: a new block each time would
        /// have its pages faulted in afresh (a tenth of the samples of an IMU table's read).
        private var spare: [[Item]] = []
        @usableFromInline var block: [Item] = []
        private var cancelled = false, finished = false
        /// Set when there is no second thread: items are taken as they are put.
        @usableFromInline let direct: ((Item) throws -> Void)?

        @usableFromInline
        init(blockItems: Int, queuedBlocks: Int) {
            (self.blockItems, self.queuedBlocks, direct) = (max(1, blockItems), max(1, queuedBlocks), nil)
            block.reserveCapacity(self.blockItems)
        }

        @usableFromInline
        init(taking: @escaping (Item) throws -> Void) { (blockItems, queuedBlocks, direct) = (1, 1, taking) }

        /// Adds `item`; hands the block over when it is full, waiting while the queue is full.
        /// Throws `Cancelled` when the taking side has stopped. Inlinable, so the caller's module
        /// specialises it for its items: unspecialised, each item was copied through the
        /// generic value witnesses (a quarter of an IMU table's reading thread).
        @inlinable
        public func put(_ item: Item) throws {
            if let direct { return try direct(item) }
            block.append(item)
            if block.count == blockItems { try hand() }
        }

        @usableFromInline
        func hand() throws {
            condition.lock()
            defer { condition.unlock() }
            while waiting.count >= queuedBlocks && !cancelled { condition.wait() }
            if cancelled { throw Cancelled() }
            waiting.append(block)
            if let empty = spare.popLast() {
                block = empty
            } else {
                block = []
                block.reserveCapacity(blockItems)
            }
            condition.broadcast()
        }

        /// Takes back a block the taking side emptied.
        @usableFromInline
        func recycle(_ block: [Item]) {
            condition.lock()
            defer { condition.unlock() }
            if spare.count < queuedBlocks { spare.append(block) }
        }

        /// Called once by the reader's thread when it is done, also when it threw: its last
        /// block is handed over, as its items would have been taken before the error.
        @usableFromInline
        func finish() {
            condition.lock()
            defer { condition.unlock() }
            if !block.isEmpty { waiting.append(block) }
            block = []
            finished = true
            condition.broadcast()
        }

        @usableFromInline
        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            condition.broadcast()
        }

        /// The next block, or nil when the reader has finished and every block was taken.
        @usableFromInline
        func next() -> [Item]? {
            condition.lock()
            defer { condition.unlock() }
            while waiting.isEmpty && !finished { condition.wait() }
            guard !waiting.isEmpty else { return nil }
            let first = waiting.removeFirst()
            condition.broadcast()
            return first
        }
    }

    /// The reader's work, boxed to cross into the POSIX thread.
    @usableFromInline
    final class Work {
        @usableFromInline let body: () -> Void
        @usableFromInline
        init(_ body: @escaping () -> Void) { self.body = body }

        /// Runs `work` on a new POSIX thread; nil when none can be had.
        @usableFromInline
        static func start(_ work: Work) -> pthread_t? {
            var thread = pthread_t()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 8 << 20)
            let started = pthread_create(
                &thread, &attributes,
                { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, Unmanaged.passRetained(work).toOpaque())
            pthread_attr_destroy(&attributes)
            guard started == 0 else {
                Unmanaged.passUnretained(work).release()
                return nil
            }
            return thread
        }

        @usableFromInline
        static func join(_ thread: pthread_t) { pthread_join(thread, nil) }
    }

    /// The reader's result, written by its thread before the queue says it finished and read
    /// after the join.
    @usableFromInline
    final class Box<Value>: @unchecked Sendable {
        @usableFromInline var value: Value?
        @usableFromInline init() {}
    }
}
