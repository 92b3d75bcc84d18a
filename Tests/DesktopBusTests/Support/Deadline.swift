// SPDX-License-Identifier: GPL-3.0-or-later

/// A step of a test that did not happen in time.
struct DeadlinePassed: Error, CustomStringConvertible {
    var what: String
    var description: String { "\(what) did not happen within the deadline" }
}

/// Runs `body`, failing with ``DeadlinePassed`` if it has not finished after `seconds` (a bound
/// on a step that is awaited, not a wait: it ends as soon as `body` does). The timer runs where
/// the test's tasks run, so it is on time only if the test is not on the `.onBlockingThreads`
/// executor; and the failure comes once `body` has ended too (a task group waits for its
/// children): a stream's `next()` ends on cancellation, a bus call at its reply timeout.
func within<T: Sendable>(_ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlinePassed(what: what) }
        return value
    }
}

extension AsyncStream where Element: Sendable {
    /// The next element, or nil when the stream finished.
    func first(_ seconds: Double, _ what: String) async throws -> Element? {
        let stream = self
        return try await within(seconds, what) {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }
}
