// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Testing

/// The trait and the helper that keep the integration tests' blocking code (child processes,
/// synchronous socket reads) off Swift's cooperative pool, where it would stall the async tests.
@Suite("Blocking threads: a suite with the trait runs on them", .onBlockingThreads)
struct BlockingThreadsTraitTests {
    @Test("a synchronous test runs on a blocking thread, where blocking is allowed")
    func synchronousTest() {
        #expect(BlockingThreads.forTests.runsCurrentThread)
        #expect(!BlockingThreads.runsOtherTasks)
        expectBlockingAllowed("A synchronous test's wait")
    }

    @Test("an async test stays on the blocking threads after an await, and so do its child tasks")
    func asyncTest() async {
        await Task.yield()
        #expect(BlockingThreads.forTests.runsCurrentThread)
        let children = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { BlockingThreads.forTests.runsCurrentThread } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(children == [true, true, true, true])
    }
}

@Suite("Blocking threads: without the trait")
struct BlockingThreadsHelperTests {
    @Test("an async test runs on the cooperative pool, and blocking there is reported")
    func cooperativePool() async {
        #expect(!BlockingThreads.isCurrentThreadOne)
        #expect(BlockingThreads.runsOtherTasks)
        withKnownIssue("blocking a cooperative thread is an issue") {
            expectBlockingAllowed("A test's wait")
        }
    }

    @Test("onBlockingThread runs its body on a thread for steps, returns its result, throws its error")
    func onBlockingThreadRunsThere() async {
        let (ranThere, answer) = await onBlockingThread {
            expectBlockingAllowed("Work on a blocking thread")
            return (BlockingThreads.forSteps.runsCurrentThread, 42)
        }
        #expect(ranThere)
        #expect(answer == 42)
        // The caller is back on the cooperative pool.
        #expect(BlockingThreads.runsOtherTasks)

        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await onBlockingThread { () throws(Refused) in throw Refused() } }
    }

    @Test("as many threads as cores, at least two, for the tests and for the steps")
    func threadCount() {
        let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)
        #expect(BlockingThreads.forTests.threadCount == cores)
        #expect(BlockingThreads.forSteps.threadCount == cores)
        #expect(BlockingThreads.forTests !== BlockingThreads.forSteps)
    }
}
