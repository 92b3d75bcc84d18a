// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// What reached the dispatcher from other threads (a connection's read, a speech engine event, a
/// dropped post) and waits for its next turn, in order of arrival.
///
/// One turn on the main queue takes everything that has arrived and decides it together, then
/// starts the next post: under load that is one main-queue block for many reads, and a start
/// that does not wait behind the whole queue again.
final class DispatcherInbox: @unchecked Sendable {
    /// A piece of work for the dispatcher's turn.
    typealias Work = @MainActor @Sendable (Dispatcher) -> Void

    // A pthread mutex, not Synchronization's Mutex: a contended Mutex is handed over by a PI
    // futex inside the Swift runtime, where ThreadSanitizer cannot see it (false race reports).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var work: [Work] = []
    private var turnScheduled = false

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Adds `item` (none: only a turn is wanted); true when no turn is scheduled yet, so the
    /// caller must schedule one.
    func add(_ item: Work?) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let item { work.append(item) }
        guard !turnScheduled else { return false }
        turnScheduled = true
        return true
    }

    /// Takes everything waiting. What arrives from now on needs a new turn.
    func takeAll() -> [Work] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        turnScheduled = false
        let taken = work
        work = []
        return taken
    }
}
