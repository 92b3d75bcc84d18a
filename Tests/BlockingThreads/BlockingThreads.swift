// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOPosix

/// Threads of their own for test code that blocks: waiting for a child process to exit, polling a
/// socket for the daemon's answer, sleeping while audio plays.
///
/// Swift Testing runs every test as a task on Swift's cooperative pool, which has one thread per
/// core: two on the CI machine. A test that blocks one of those threads for seconds takes it away
/// from every async test for that long, and two such tests at once stop them all (seen in CI: an
/// `AnnounceClient` test still waiting to send its `stop` when 25 seconds of speech had already
/// ended). Code that runs with this executor as its task's preference (see ``onBlockingThread(_:)``
/// and the `.onBlockingThreads` trait) runs here instead.
///
/// Each executor is a fixed NIOThreadPool (swift-nio is already a dependency) of as many threads
/// as there are cores: ``forTests`` so that no more blocking tests run at once than before, and
/// ``forSteps`` so that an async test's short blocking step does not queue behind whole tests
/// that block for many seconds.
public final class BlockingThreads: TaskExecutor {
    /// Where the tests of the suites with the `.onBlockingThreads` trait run.
    public static let forTests = BlockingThreads(threads: max(2, System.coreCount))

    /// Where ``onBlockingThread(_:)`` runs an async test's blocking steps.
    public static let forSteps = BlockingThreads(threads: max(2, System.coreCount))

    /// How many threads run blocking work.
    public let threadCount: Int
    private let pool: NIOThreadPool
    /// Set on the pools' threads, naming the executor a thread belongs to.
    private static let marker = ThreadSpecificVariable<Marker>()
    private final class Marker: Sendable {
        let executor: ObjectIdentifier
        init(_ executor: ObjectIdentifier) { self.executor = executor }
    }

    private init(threads: Int) {
        threadCount = threads
        pool = NIOThreadPool(numberOfThreads: threads)
        // Never shut down: the executors live as long as the test process.
        pool.start()
    }

    /// Runs `job` on one of the threads, the first one free.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let identity = ObjectIdentifier(self)
        // The pool cancels work items only when it shuts down, which it never does; so the state
        // is always `.active`.
        pool.submit { _ in
            if Self.marker.currentValue == nil { Self.marker.currentValue = Marker(identity) }
            job.runSynchronously(on: executor)
        }
    }

    /// Whether the calling thread is one of the blocking threads (of either executor).
    public static var isCurrentThreadOne: Bool { marker.currentValue != nil }

    /// Whether the calling thread is one of this executor's threads.
    public var runsCurrentThread: Bool { Self.marker.currentValue?.executor == ObjectIdentifier(self) }

    /// Whether the calling thread runs other tasks too: it runs a task (the caller is async code,
    /// or synchronous code an async test called) and is not one of the blocking threads. That is a
    /// thread of Swift's cooperative pool, or the one draining the main queue for the main actor
    /// (on Linux, after `dispatch_main()`, any libdispatch worker thread), which `AnnounceClient`'s
    /// callbacks and every `@MainActor` test wait for.
    public static var runsOtherTasks: Bool {
        !isCurrentThreadOne && withUnsafeCurrentTask { $0 != nil }
    }
}

/// Runs `body`, which blocks, on one of the ``BlockingThreads`` and returns what it returns; the
/// calling task waits without holding a thread.
///
/// For the few blocking steps of an async test (starting a daemon, reading a socket), on
/// ``BlockingThreads/forSteps``; a suite of synchronous tests goes on the blocking threads as a
/// whole with the `.onBlockingThreads` trait.
public nonisolated func onBlockingThread<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T
{
    try await withTaskExecutorPreference(BlockingThreads.forSteps) { () async throws(Failure) -> T in try body() }
}
