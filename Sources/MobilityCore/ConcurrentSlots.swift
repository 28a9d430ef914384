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
