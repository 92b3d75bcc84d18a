// SPDX-License-Identifier: GPL-3.0-or-later
public import Testing

/// Runs each test of a suite (or one test) on ``BlockingThreads/forTests``, with them as its task's
/// executor preference: its synchronous code, and any child task it starts, never runs on a thread
/// of Swift's cooperative pool.
///
/// Every suite whose tests block (wait for a child process, read a socket synchronously, sleep)
/// carries it; the helpers that block check it with ``expectBlockingAllowed(_:sourceLocation:)``.
/// An async test that mostly awaits (replies, streams, timers) does not: under the trait each of
/// its resumptions, a deadline's timer too, queues on these few threads behind whole blocking
/// tests. It wraps its few blocking steps in ``onBlockingThread(_:)`` instead.
public struct BlockingThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test in the suite and in the suites inside it.
    public var isRecursive: Bool { true }

    /// Runs `function` with the blocking threads as its executor preference.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingThreads.forTests) { try await function() }
    }
}

extension Trait where Self == BlockingThreadsTrait {
    /// The test, or every test of the suite, runs on the ``BlockingThreads``: it may block.
    public static var onBlockingThreads: Self { Self() }
}

/// Records an issue when `what`, about to block the calling thread, would hold up other tests:
/// the caller runs on a thread of Swift's cooperative pool or on the main actor, rather than on
/// the ``BlockingThreads`` (see ``BlockingThreads/runsOtherTasks``).
public func expectBlockingAllowed(_ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation)
{
    guard BlockingThreads.runsOtherTasks else { return }
    Issue.record(
        """
        \(what()) blocks a thread that runs other tests' tasks (Swift's cooperative pool or the \
        main actor), which stalls them until it returns: give the suite the .onBlockingThreads \
        trait, or in an async test wrap the call in `await onBlockingThread { ... }`
        """,
        sourceLocation: sourceLocation
    )
}
