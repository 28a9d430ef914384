import Foundation

/// How much work the process does at once (`--jobs`): the files ingest and classification read
/// side by side, the devices the trip stage analyses side by side, the batches of one
/// recording's features. Memory follows it: each piece in flight holds one recording or one
/// device. Default: the cores the process may use.
///
/// Set once, first thing in a command (`set(_:)`); every stage reads `width`. Work split with
/// `perform(_:_:)` inside a piece already running under `perform` runs on that piece's thread,
/// so nested work never takes more than `width` threads in all.
public enum Jobs {
    private static let state = State()

    /// At most this many pieces at once.
    public static var width: Int { state.width }

    /// The threads work started on this thread may use: `width`, or 1 inside a `perform`
    /// worker, where nested work runs on the worker's own thread.
    public static var widthHere: Int { State.isNested ? 1 : width }

    /// Sets the width; nil or a value below 1: the cores the process may use.
    public static func set(_ jobs: Int?) { state.set(jobs) }

    /// Runs `body(index)` for every index below `count`, at most `width` at a time, each index
    /// once, the next free worker taking the next index. Returns when all have run.
    public static func perform(_ count: Int, _ body: @Sendable (Int) -> Void) {
        let workers = min(width, count)
        guard workers > 1, !State.isNested else {
            for index in 0..<count { body(index) }
            return
        }
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            State.isNested = true
            defer { State.isNested = false }
            while let index = next.take(below: count) { body(index) }
        }
    }

    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var configured: Int?

        var width: Int {
            lock.withLock { configured } ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        }

        func set(_ jobs: Int?) { lock.withLock { configured = jobs.flatMap { $0 >= 1 ? $0 : nil } } }

        /// Whether this thread is a worker of `perform`.
        static var isNested: Bool {
            get { Thread.current.threadDictionary[key] as? Bool ?? false }
            set { Thread.current.threadDictionary[key] = newValue }
        }
        private static let key = "MobilityCore.Jobs.nested"
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func take(below count: Int) -> Int? {
            lock.withLock {
                guard value < count else { return nil }
                defer { value += 1 }
                return value
            }
        }
    }
}
