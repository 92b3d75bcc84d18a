// SPDX-License-Identifier: GPL-3.0-or-later
public import Testing

/// An awaited step of a test that did not finish within its guard.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was awaited.
    public let what: String
    /// "timed out waiting for WHAT".
    public var description: String { "timed out waiting for \(what)" }
    /// A timeout of the step `what`.
    public init(what: String) { self.what = what }
}

/// Runs `operation`, failing with ``TimedOut`` after `seconds`: a guard against a hang, not a
/// wait (it ends as soon as `operation` does, which waits on real events). The guard runs where
/// the test's tasks run, so it is on time only off the `.onBlockingThreads` executor, and the
/// failure comes once `operation` has ended too (a task group waits for its children): a
/// stream's `next()` ends on cancellation, a bus call at its reply timeout.
public func withTimeout<T: Sendable>(
    _ what: String, seconds: Double = 30, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(what: what)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// The next element, or nil when the sequence has finished, within `seconds`
    /// (``withTimeout(_:seconds:_:)``).
    public func next(within seconds: Double = 30, _ what: String) async throws -> Element? {
        let sequence = self
        return try await withTimeout(what, seconds: seconds) {
            var iterator = sequence.makeAsyncIterator()
            return try await iterator.next()
        }
    }
}

extension AsyncStream where Element: Sendable {
    /// The next element for which `predicate` holds, within `seconds`; fails when the stream
    /// finishes first.
    public func first(
        within seconds: Double = 30, _ what: String, where predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        let stream = self
        return try await withTimeout(what, seconds: seconds) {
            for await element in stream where predicate(element) { return element }
            throw TimedOut(what: what + " (the stream ended)")
        }
    }
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a suite that starts daemons (or other programs): a test that hangs on
    /// one fails after it, rather than holding the run until CI's own limit. Far above what any
    /// such test takes; each test (and each case of a parameterized one) gets it whole. A test's
    /// clock starts when the run schedules it, and under `swift test --parallel` most of these
    /// tests wait for one of the few blocking threads (`.onBlockingThreads`) first, so the limit
    /// covers the whole suite's run as well, and stays under CI's own.
    public static var daemonTimeLimit: Self { .timeLimit(.minutes(45)) }
}
