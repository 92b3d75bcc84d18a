// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import POSIXThreads
import Testing

/// The project's one lock: its waits on a condition (`wait(until:)`, with and without a deadline)
/// and `withoutLock`, which the speech thread and the Piper engine use in place of manual
/// `lock()`/`unlock()` pairs.
@Suite("ConditionLock: withLock, withoutLock and wait(until:)")
struct ConditionLockTests {
    @Test("wait(until:) returns once another thread makes the condition true under the lock")
    func waitUntilSeesAnotherThreadsChange() {
        let state = LockedFlag()
        DedicatedThread.start(name: "lock-test", stackSize: 256 << 10) {
            state.lock.withLock {
                state.flag = true
                state.lock.broadcast()
            }
        }
        let seen = state.lock.withLock {
            state.lock.wait(until: { state.flag })
            return state.flag
        }
        #expect(seen)
    }

    @Test("wait(until:deadline:) is true at once when the condition holds, false when the deadline passes first")
    func timedWait() {
        let lock = ConditionLock()
        var asked = 0
        let atOnce = lock.withLock {
            lock.wait(
                until: {
                    asked += 1
                    return true
                }, deadline: monotonicTime(after: .seconds(60)))
        }
        #expect(atOnce)
        #expect(asked == 1, "a condition that holds is asked once, and nothing is waited for")
        let gaveUp = lock.withLock { lock.wait(until: { false }, deadline: monotonicTime(after: .milliseconds(10))) }
        #expect(!gaveUp)
    }

    @Test("withoutLock releases the lock while its body runs, and holds it again after")
    func withoutLockReleases() {
        let state = LockedFlag()
        let tookIt = LockedFlag()
        let tookItAfter = LockedFlag()
        let (during, after) = state.lock.withLock {
            let during = state.lock.withoutLock {
                Self.takeLock(of: state, then: tookIt)
                return tookIt.lock.withLock {
                    tookIt.lock.wait(until: { tookIt.flag }, deadline: monotonicTime(after: .seconds(30)))
                }
            }
            // Held again: another thread cannot take it while this one holds it.
            Self.takeLock(of: state, then: tookItAfter)
            let after = tookItAfter.lock.withLock {
                tookItAfter.lock.wait(until: { tookItAfter.flag }, deadline: monotonicTime(after: .milliseconds(50)))
            }
            return (during, after)
        }
        #expect(during, "another thread could not take the lock inside withoutLock")
        #expect(!after, "another thread took the lock after withoutLock returned")
    }

    /// On a thread of its own: takes `state`'s lock, then raises `done`'s flag.
    private static func takeLock(of state: LockedFlag, then done: LockedFlag) {
        DedicatedThread.start(name: "lock-test", stackSize: 256 << 10) {
            state.lock.withLock {}
            done.lock.withLock {
                done.flag = true
                done.lock.broadcast()
            }
        }
    }
}

/// A flag and the lock that guards it, shared with a thread of the test.
// Unchecked: `flag` is read and written only with `lock` held.
private final class LockedFlag: @unchecked Sendable {
    let lock = ConditionLock()
    var flag = false
}
