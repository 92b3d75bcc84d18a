// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import POSIXThreads

/// Runs dispatcher turns only when the test says so, so every step is deterministic: give
/// ``scheduler`` to the dispatcher as its `scheduleTurn`.
public final class ManualTurns: Sendable {
    private let queue = LockedValue<[@MainActor @Sendable () -> Void]>([])

    /// Creates an empty queue of turns.
    public init() {}

    /// The dispatcher's turn scheduler: it queues each turn until the test runs it.
    public var scheduler: TurnScheduler {
        { work in self.queue.withLock { $0.append(work) } }
    }

    /// How many turns are scheduled and not yet run.
    public var scheduled: Int { queue.withLock { $0.count } }

    /// Runs the turn scheduled first, and nothing it schedules.
    @MainActor public func runOne() {
        let first = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        first?()
    }

    /// Runs scheduled turns, including the ones they schedule, until none is left.
    @MainActor public func run() {
        while true {
            let work = queue.withLock { queue -> [@MainActor @Sendable () -> Void] in
                defer { queue.removeAll() }
                return queue
            }
            if work.isEmpty { return }
            for item in work { item() }
        }
    }
}
