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
}

/// Runs `jobs` at once, one thread each, and rethrows the first job's error (in job order)
/// after all have ended. For independent writers of one file each (the report and the
/// GeoPackage read the store and the output folder and write nothing the other reads).
public func runConcurrently(_ jobs: [@Sendable () throws -> Void]) throws {
    let outcomes = ConcurrentSlots<Result<Void, Error>>(count: jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
        outcomes.store(Result { try jobs[index]() }, at: index)
    }
    for outcome in outcomes.values { try outcome.get() }
}
