// SPDX-License-Identifier: Apache-2.0
internal import CAnnounceLinux
internal import Dispatch

/// UIKit's "main thread", asked the same way by the daemon, its clients and the tests.
///
/// On Linux, once a process calls `dispatch_main()` (an async `main` does), the main queue is
/// drained by whichever libdispatch worker thread is free, and those same threads also run Swift
/// concurrency's tasks and the global queues. So "is this the main queue?" cannot be answered by
/// comparing `pthread_self()` with a thread seen earlier; only the queue knows.
public enum MainThread {
    private static let marker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True while the caller runs on the main queue (and so on the main actor).
    public static var isMainQueue: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// True on the process's main thread or on whatever thread runs the main queue right now: a
    /// host such as a test runner may drain the main queue from another thread, and posts made
    /// there still count as made on the main thread.
    public static var isCurrent: Bool { CAnnounceLinux_is_main_thread() != 0 || isMainQueue }
}
