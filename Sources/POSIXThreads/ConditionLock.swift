// SPDX-License-Identifier: Apache-2.0
public import Glibc

/// The project's one lock: a pthread mutex with a condition variable.
///
/// Every piece of state shared between threads that needs a lock takes this one, directly
/// (``withLock(_:)``, with ``wait(until:)`` for a wait on the condition inside it, and
/// ``withoutLock(_:)`` for a call that must not hold it) or through
/// ``LockedValue``, which pairs it with the value it guards. It is a pthread mutex, not
/// Synchronization's `Mutex`: a contended `Mutex` is handed over by a PI futex inside the Swift
/// runtime, where ThreadSanitizer cannot see it (false race reports). Foundation's `NSCondition`
/// would link full Foundation (and its ICU data) for the same few calls. The order in which locks
/// nest is written in ARCHITECTURE.md ("Threads and processes").
// Unchecked: a pthread mutex and condition variable, which exist to be shared between threads.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Creates an unlocked lock whose timed waits count on CLOCK_MONOTONIC.
    public init() {
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

    /// Takes the lock, waiting for it if another thread holds it. Not public: callers take it
    /// in ``withLock(_:)``, so no early return or throw can leave it held.
    @usableFromInline func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock (``withLock(_:)`` and ``withoutLock(_:)`` only).
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock while `body` runs, then takes it again: for a call inside a critical
    /// section that must not hold the lock (one that blocks, or wakes another thread that takes
    /// it). Call with the lock held; what the lock guards may have changed when it returns.
    @inlinable
    public func withoutLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        unlock()
        defer { lock() }
        return try body()
    }

    /// Releases the lock, waits for a signal, and takes the lock again. Call with the lock held.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Like `wait`, but gives up at `deadline` (CLOCK_MONOTONIC); false when it gave up.
    public func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Waits until `isDone` is true: checks it (at once, then after each signal) with the lock
    /// held, so whoever makes it true under the lock and then signals is never missed. Call with
    /// the lock held.
    @inlinable
    public func wait(until isDone: () -> Bool) {
        while !isDone() { wait() }
    }

    /// Like ``wait(until:)-(()->Bool)``, but gives up at `deadline` (CLOCK_MONOTONIC). Returns
    /// `isDone` as it was last checked: false when the deadline passed first.
    @inlinable
    public func wait(until isDone: () -> Bool, deadline: timespec) -> Bool {
        while !isDone() {
            if !wait(until: deadline) { return isDone() }
        }
        return true
    }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// A value shared between threads and the ``ConditionLock`` that guards it: every access is
/// inside ``withLock(_:)``. The value is `Sendable`, as what goes in and comes out of the lock
/// crosses threads.
// Unchecked: `value` is mutable, and every access to it holds `lock`.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = ConditionLock()
    @usableFromInline var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// CLOCK_MONOTONIC's time `duration` from now, for timed waits (``ConditionLock/wait(until:)``).
public func monotonicTime(after duration: Duration) -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let parts = max(duration, .zero).components
    let nanoseconds = Int(now.tv_nsec) + Int(parts.attoseconds / 1_000_000_000)
    return timespec(
        tv_sec: now.tv_sec + Int(parts.seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
}
