// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import POSIXThreads

/// A one-way signal between threads on the product's lock: opened once, waited for by any number.
// Unchecked: `isOpen` is touched only with `condition` held.
public final class Latch: @unchecked Sendable {
    private let condition = ConditionLock()
    private var isOpen = false

    /// A closed latch.
    public init() {}

    /// Opens the latch: every wait returns, now and later.
    public func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    /// Waits until the latch is open.
    public func wait() {
        condition.withLock { condition.wait(until: { isOpen }) }
    }

    /// Waits until the latch is open, for at most `timeout`; false when it was not opened by then.
    public func wait(timeout: Duration) -> Bool {
        let deadline = monotonicTime(after: timeout)
        return condition.withLock { condition.wait(until: { isOpen }, deadline: deadline) }
    }
}
