// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The awaited operation did not finish within its failure guard.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `operation`, failing with ``TimedOut`` after `seconds` (a guard against hangs, not a
/// synchronization: the operation waits on real events).
func withTimeout<T: Sendable>(
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

extension AsyncStream where Element: Sendable {
    /// The next element for which `predicate` holds, within `seconds`.
    func first(within seconds: Double = 30, _ what: String, where predicate: @escaping @Sendable (Element) -> Bool)
        async throws -> Element
    {
        let stream = self
        return try await withTimeout(what, seconds: seconds) {
            for await element in stream where predicate(element) { return element }
            throw TimedOut(what: what + " (the stream ended)")
        }
    }
}
