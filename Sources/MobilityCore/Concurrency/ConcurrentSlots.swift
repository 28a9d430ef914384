import Foundation

/// One result per index, written from `DispatchQueue.concurrentPerform` (each index once) and
/// read when every worker is done: the trip stages and the simulator run devices this way.
public final class ConcurrentSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    public func store(_ value: Value, at index: Int) {
        lock.withLock { slots[index] = value }
    }

    /// Every slot's value; each must have been stored.
    public var values: [Value] { lock.withLock { slots.map { $0! } } }

    /// The value at `index`, no longer held here.
    public func take(at index: Int) -> Value? {
        lock.withLock {
            defer { slots[index] = nil }
            return slots[index]
        }
    }
}

/// Runs `jobs` at once, one thread each (the first on the caller's), and rethrows the first
/// job's error (in job order) after all have ended. For a few coarse jobs, writers of one
/// file each, that may wait on one another (`Gate`): a thread of their own each, because a
/// pool as wide as the cores (`concurrentPerform`) can hold a job back behind waiting ones.
public func runConcurrently(_ jobs: [@Sendable () throws -> Void]) throws {
    let outcomes = ConcurrentSlots<Result<Void, Error>>(count: jobs.count)
    let ended = DispatchGroup()
    for (index, job) in jobs.enumerated().dropFirst() {
        ended.enter()
        // The thread lets go of the job before it says it ended: a job's captures (a store,
        // whose last release checkpoints its WAL) must not outlive this call.
        let held = ConcurrentSlots<@Sendable () throws -> Void>(count: 1)
        held.store(job, at: 0)
        let thread = Thread {
            outcomes.store(Result { try held.take(at: 0)?() }, at: index)
            ended.leave()
        }
        thread.stackSize = 8 << 20 // as the main thread's
        thread.start()
    }
    if let first = jobs.first { outcomes.store(Result { try first() }, at: 0) }
    ended.wait()
    for outcome in outcomes.values { try outcome.get() }
}
