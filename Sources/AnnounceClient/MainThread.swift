internal import Dispatch
internal import Glibc

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
        isProcessMainThread || DispatchQueue.getSpecific(key: marker) == true
    }

    /// Whether this is the process's first thread: on Linux its thread id is the process id, and
    /// /proc/thread-self links to `PID/task/TID`. (glibc's gettid() needs _GNU_SOURCE, which the
    /// Glibc module is not built with.)
    private static var isProcessMainThread: Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        let parts = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/")
        return parts.count == 3 && parts[0] == parts[2]
    }
}
