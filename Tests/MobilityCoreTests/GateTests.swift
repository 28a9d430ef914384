import Foundation
import MobilityCore
import Testing

/// `Gate`: the waiting job goes on once the other job's step has run, and stops when it threw.
@Suite struct GateTests {
    struct StepFailed: Error {}

    @Test func theWaiterSeesWhatTheStepWroteBeforeTheGateOpened() throws {
        let gate = Gate()
        let written = ConcurrentSlots<Int>(count: 1)
        let seen = ConcurrentSlots<Int>(count: 1)
        try runConcurrently([
            {
                try gate.opening {
                    Thread.sleep(forTimeInterval: 0.05); written.store(42, at: 0)
                }
            },
            {
                try gate.wait(); seen.store(written.values[0], at: 0)
            }
        ])
        #expect(seen.values == [42])
    }

    @Test func everyWaiterGoesOnOnceTheGateOpens() throws {
        let gate = Gate()
        let written = ConcurrentSlots<Int>(count: 1)
        let seen = ConcurrentSlots<Int>(count: 3)
        // More jobs than this machine's cores, the opener last: each job has a thread of its own.
        try runConcurrently(
            (0..<3).map { index in
                {
                    try gate.wait(); seen.store(written.values[0], at: index)
                }
            }
                + [
                    {
                        try gate.opening {
                            Thread.sleep(forTimeInterval: 0.05); written.store(7, at: 0)
                        }
                    }
                ])
        #expect(seen.values == [7, 7, 7])
    }

    final class Captured: Sendable {}

    @Test func noJobsCaptureOutlivesTheCall() throws {
        // A store captured by a job is closed (its WAL checkpointed) when the last reference
        // goes: the caller must be able to count on that once runConcurrently returns.
        weak var seen: Captured?
        do {
            let captured = Captured()
            seen = captured
            try runConcurrently([{}, { _ = captured }, { _ = captured }])
        }
        #expect(seen == nil)
    }

    @Test func theWaiterStopsWhenTheStepThrew() {
        let gate = Gate()
        #expect(throws: StepFailed.self) {
            try runConcurrently([
                { try gate.opening { throw StepFailed() } },
                { try gate.wait() }
            ])
        }
    }

    @Test func aWaiterAloneLearnsTheStepFailed() {
        let gate = Gate()
        _ = try? gate.opening { throw StepFailed() }
        let thrown1 = #expect(throws: PipelineError.self) { try gate.wait() }
        #expect(thrown1?.code == .stepFailed)
    }
}
