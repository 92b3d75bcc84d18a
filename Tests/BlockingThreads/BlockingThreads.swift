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
/// The threads are a fixed NIOThreadPool (swift-nio is already a dependency), as many as there are
/// cores, so that no more blocking tests run at once than before; async tests do not wait for them.
public final class BlockingThreads: TaskExecutor {
    /// The executor every test shares.
    public static let shared = BlockingThreads(threads: max(2, System.coreCount))

    /// How many threads run blocking work.
    public let threadCount: Int
    private let pool: NIOThreadPool
    /// Set on the pool's threads, so that ``isCurrentThreadOne`` can tell them from the others.
    private static let marker = ThreadSpecificVariable<Marker>()
    private final class Marker: Sendable {}

    private init(threads: Int) {
        threadCount = threads
        pool = NIOThreadPool(numberOfThreads: threads)
        // Never shut down: the shared executor lives as long as the test process.
        pool.start()
    }

    /// Runs `job` on one of the threads, the first one free.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // The pool cancels work items only when it shuts down, which it never does; so the state
        // is always `.active`.
        pool.submit { _ in
            if Self.marker.currentValue == nil { Self.marker.currentValue = Marker() }
            job.runSynchronously(on: executor)
        }
    }

    /// Whether the calling thread is one of the blocking threads.
    public static var isCurrentThreadOne: Bool { marker.currentValue != nil }

    /// Whether the calling thread runs other tasks too: it runs a task (the caller is async code,
    /// or synchronous code an async test called) and is not one of the blocking threads. That is a
    /// thread of Swift's cooperative pool, or the one draining the main queue for the main actor
    /// (on Linux, after `dispatch_main()`, any libdispatch worker thread), which the daemon's
    /// `AnnounceClient` callbacks and every `@MainActor` test wait for.
    public static var runsOtherTasks: Bool {
        !isCurrentThreadOne && withUnsafeCurrentTask { $0 != nil }
    }
}

/// Runs `body`, which blocks, on one of the ``BlockingThreads`` and returns what it returns; the
/// calling task waits without holding a thread.
///
/// For the few blocking steps of an async test (starting a daemon, reading a socket); a suite of
/// synchronous tests goes on the blocking threads as a whole with the `.onBlockingThreads` trait.
public nonisolated func onBlockingThread<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
    try await withTaskExecutorPreference(BlockingThreads.shared) { () async throws(Failure) -> T in try body() }
}
