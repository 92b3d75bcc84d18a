// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

// The only waits on time in the tests besides ``withTimeout(_:seconds:_:)``'s guard. Each use
// says why no event exists for it; where one does (a daemon line, a log line, a recorder's
// callback, a file changing, a process exit), the test waits on that instead.

/// Asks `condition` every `interval` seconds until it holds, for state outside the test that
/// sends no event when it changes (a process's /proc entries, a sound server's sink list, a
/// descriptor the test does not own closing); true once it holds, false after `timeout` seconds.
public func pollUntil(
    every interval: Double = 0.01, timeout: Double, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}

/// ``pollUntil(every:timeout:_:)`` for an async test: asks `condition` every `interval` seconds
/// until it holds, failing with ``TimedOut`` (`what`) after `timeout` seconds.
public func pollUntil(
    _ what: String, every interval: Double = 0.01, timeout: Double,
    _ condition: @escaping @Sendable () -> Bool
) async throws {
    try await withTimeout(what, seconds: timeout) {
        while !condition() { try await Task.sleep(for: .seconds(interval)) }
    }
}

/// Holds the calling thread for `seconds` so that a test can see something NOT happen in that
/// spell (paused speech stays silent, a stopped stream plays nothing more), or outlast a limit
/// inside the daemon that nothing outside observes: an absence sends no event, so watching for
/// a while is the only way to see it.
public func quietSpell(seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
}
