internal import Dispatch
internal import Foundation

/// UIKit's "main thread": the process's main thread, or whatever thread is running the main
/// queue (and so the main actor) right now. On Linux a host such as a test runner may drain the
/// main queue from another thread; posts made there still count as made on the main thread.
enum MainThread {
    private static let marker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True when called on the main thread or from the main queue.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: marker) == true
    }
}
