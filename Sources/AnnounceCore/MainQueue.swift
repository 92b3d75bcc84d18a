import Dispatch

/// UIKit's "main thread" in the daemon: the main queue, where the main actor runs.
///
/// On Linux, once the process calls `dispatch_main()` (an async `main` does), the main queue is
/// drained by whichever libdispatch worker thread is free, and those same threads also run
/// Swift concurrency's tasks and the global queues. So "is this the main thread?" cannot be
/// answered by comparing `pthread_self()` with a thread seen earlier; only the queue knows.
enum MainQueue {
    private static let marker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True while the caller runs on the main queue (and so on the main actor).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
}
