// SPDX-License-Identifier: Apache-2.0
import AnnouncePOSIX
import CAnnounceLinux
import Glibc

/// Starts threads of their own, outside Swift concurrency's pool, for work that blocks (the
/// speech thread, Piper's loader, the voice catalog's watch).
public enum DedicatedThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes at most, as Linux allows).
    public static func start(name: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { argument in
                let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                _ = CAnnounceLinux_pthread_setname_np(pthread_self(), String(start.name.utf8.prefix(15))!)
                start.body()
                return nil
            }, start)
        precondition(result == 0, "pthread_create failed with \(result): the process is out of threads or memory")
    }
}

/// Sleeps the calling thread for `duration` (nothing when it is not positive).
public func sleepThread(for duration: Duration) {
    guard duration > .zero else { return }
    let parts = duration.components
    var request = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
    var remaining = timespec()
    _ = retryingOnInterrupt {
        let result = nanosleep(&request, &remaining)
        request = remaining // what is left, for the next try when a signal cut it short
        return result
    }
}
