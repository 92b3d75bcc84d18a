// SPDX-License-Identifier: GPL-3.0-or-later
import POSIXThreads

/// What reached the dispatcher from other threads (a connection's read, a speech engine event, a
/// dropped post, a service's request) and waits for its next turn, in order of arrival.
///
/// One turn on the main queue takes everything that has arrived and decides it together, then
/// starts the next post: under load that is one main-queue block for many reads, and a start
/// that does not wait behind the whole queue again.
// Unchecked: `work` and `turnScheduled` are touched only with `lock` held.
final class DispatcherInbox: @unchecked Sendable {
    /// A piece of work for the dispatcher's turn.
    typealias Work = @MainActor @Sendable (Dispatcher) -> Void

    /// Guards the two variables below (unchecked Sendable: every access holds it). Nothing else
    /// is locked inside it.
    private let lock = ConditionLock()
    private var work: [Work] = []
    private var turnScheduled = false

    /// Adds `item` (none: only a turn is wanted); true when no turn is scheduled yet, so the
    /// caller must schedule one.
    func add(_ item: Work?) -> Bool {
        lock.withLock {
            if let item { work.append(item) }
            guard !turnScheduled else { return false }
            turnScheduled = true
            return true
        }
    }

    /// Takes everything waiting. What arrives from now on needs a new turn.
    func takeAll() -> [Work] {
        lock.withLock {
            turnScheduled = false
            let taken = work
            work = []
            return taken
        }
    }
}
