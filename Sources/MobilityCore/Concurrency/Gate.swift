import Foundation

/// A one-time gate between concurrent jobs: `wait` blocks until another job has run
/// `opening`'s body, and throws `PipelineError` `stepFailed` when that body threw, so the waiting jobs stop
/// instead of reading what was never written. Any number of jobs may wait.
public final class Gate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private var succeeded = false

    public init() {}

    /// Runs `body`, then opens the gate (also when `body` throws, marking it failed).
    public func opening<Value>(_ body: () throws -> Value) throws -> Value {
        defer { opened.signal() }
        let value = try body()
        succeeded = true // written before the signal, read after the wait: ordered by the semaphore
        return value
    }

    /// Blocks until the gate opens; throws when its body failed.
    public func wait() throws {
        opened.wait()
        opened.signal() // open for the next waiter too
        guard succeeded else { throw PipelineError(.stepFailed, "stopped: the step it waited for failed") }
    }
}
