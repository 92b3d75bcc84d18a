// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import Glibc

// The few threading tools the speech thread and the audio outputs need, on pthreads directly:
// Foundation's Thread and NSCondition would link full Foundation (and its ICU data) into the
// daemon for three calls.

/// A mutex with a condition variable, for a thread that waits for work.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        // Timed waits count on the monotonic clock, so a change of the wall clock cannot stretch them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock, waits for a signal, and takes the lock again. Call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Like `wait`, but gives up at `deadline` (CLOCK_MONOTONIC); false when it gave up.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes one waiting thread.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts threads of their own, outside Swift concurrency's pool.
enum DedicatedThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes at most, as Linux allows).
    static func start(name: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) {
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
        let result = pthread_create(&thread, &attributes, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            _ = CAnnounceLinux_pthread_setname_np(pthread_self(), String(start.name.utf8.prefix(15))!)
            start.body()
            return nil
        }, start)
        precondition(result == 0, "pthread_create failed with \(result): the process is out of threads or memory")
    }
}

/// CLOCK_MONOTONIC's time `duration` from now, for timed waits.
func monotonicTime(after duration: Duration) -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let parts = max(duration, .zero).components
    let nanoseconds = Int(now.tv_nsec) + Int(parts.attoseconds / 1_000_000_000)
    return timespec(tv_sec: now.tv_sec + Int(parts.seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
}

/// Sleeps the calling thread for `duration` (nothing when it is not positive).
func sleepThread(for duration: Duration) {
    guard duration > .zero else { return }
    let parts = duration.components
    var request = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR {
        request = remaining
    }
}

/// Sleeps one step of a playout poll: about as long as the `unplayedFrames` still take to play
/// at `sampleRate`, at least 1 ms and at most 5 ms, never past `deadline`. Ends at once when the
/// utterance is aborted (`abortSignal`); false then.
@discardableResult
func sleepOnePlayoutStep(
    unplayedFrames: Int, sampleRate: Int, deadline: ContinuousClock.Instant, abortSignal: UtteranceAbortSignal
) -> Bool {
    let unplayed = Duration.microseconds(Int64(Double(unplayedFrames) / Double(max(1, sampleRate)) * 1e6))
    let remaining = ContinuousClock.now.duration(to: deadline)
    return abortSignal.sleep(for: min(remaining, max(.milliseconds(1), min(unplayed, .milliseconds(5)))))
}
