// SPDX-License-Identifier: GPL-3.0-or-later
import CConcurrencyHook
import NIOCore
import NIOPosix

/// The daemon's Swift tasks on NIO's singleton event loops.
///
/// Swift concurrency's default executor runs tasks on libdispatch's global queues, and on Linux
/// the first worker of those queues arms libdispatch's pool monitor: a timer that wakes the
/// process once a second for the rest of its life. Installed as Swift concurrency's global
/// executor, NIO's event loops (which serve the sockets anyway) run the tasks instead, and sleep
/// in `epoll_wait` while nothing is due. This is NIO's
/// `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`, with
/// the hook found by the linker (`CConcurrencyHook`) instead of `dlsym`, which cannot see it in
/// a build with the static Swift runtime.
public enum EventLoopExecutor {
    /// The runtime's hook type: the job, and the runtime's own enqueue (both Swift's convention).
    private typealias EnqueueGlobalHook =
        @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) ->
        Void

    /// Makes NIO's singleton event loops run every job Swift concurrency would put on its global
    /// executor. Call it once, first thing in `main`, before any task is created; false (and
    /// nothing changed) when a hook was installed already.
    @discardableResult
    public static func install() -> Bool {
        withUnsafeTemporaryAllocation(of: EnqueueGlobalHook.self, capacity: 1) { slot in
            slot.baseAddress!.initialize(to: { job, _ in
                // `any()` is the loop the caller runs on when it is one of the group's, so a task
                // that wakes another on its own loop stays there.
                MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
            })
            return slot.baseAddress!.withMemoryRebound(to: UnsafeRawPointer.self, capacity: 1) { hook in
                CConcurrencyHook_install_enqueue_global(hook.pointee)
            }
        }
    }
}
