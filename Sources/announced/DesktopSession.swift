// SPDX-License-Identifier: GPL-3.0-or-later
import DesktopBus
import Logging
import POSIXThreads

/// The daemon's one connection to the desktop's session bus, and its one watch of the screen
/// reader's status (`org.a11y.Status.ScreenReaderEnabled`), shared by every part of the daemon
/// that needs either (the toolkit announcements' `auto`, `status`'s `screen_reader`).
///
/// Made before the service group runs: without a session bus it logs one line naming everything
/// that is off without it, and has no connection; everything else works without it. The watch
/// runs in ``ScreenReaderWatchService``, which records each value here and closes the connection
/// (the group shuts it down after every other service that uses the connection).
final class DesktopSession: Sendable {
    /// The session bus, or nil when there is none.
    let connection: BusConnection?
    private let state = LockedValue(State())

    private struct State {
        /// Nil until the first read (or when it failed: then false).
        var screenReaderEnabled: Bool?
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var observers: [Int: AsyncStream<Bool>.Continuation] = [:]
        var nextObserver = 0
    }

    /// Connects to the session bus at `DBUS_SESSION_BUS_ADDRESS` of `environment` (else where
    /// sd-bus looks: `$XDG_RUNTIME_DIR/bus`); when there is none, logs one line that names what
    /// is off: the screen reader's status, and each of `alsoOff` (what else the settings turned
    /// on that needs the bus).
    init(environment: [String: String], alsoOff: [String], logger: Logger) {
        do {
            connection = try BusConnection.session(address: environment["DBUS_SESSION_BUS_ADDRESS"])
        } catch {
            let off = (["screen_reader is false"] + alsoOff).joined(separator: ", ")
            logger.notice("\(off): \(error)")
            connection = nil
        }
    }

    /// Whether a screen reader runs, as `ScreenReaderEnabled` says; waits for its first read.
    /// False when there is no session bus or nothing answers for `org.a11y.Status`.
    func isScreenReaderEnabled() async -> Bool {
        await withCheckedContinuation { continuation in
            let known: Bool? = state.withLock { state in
                if let value = state.screenReaderEnabled { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Each change of `ScreenReaderEnabled` from now on; the stream finishes when the session
    /// bus goes away or the daemon stops.
    func screenReaderChanges() -> AsyncStream<Bool> {
        let (changes, continuation) = AsyncStream.makeStream(of: Bool.self)
        let key = state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: key) }
        }
        return changes
    }

    /// Records the status read or reported; tells the waiters and, when it changed, the observers.
    func record(_ enabled: Bool) {
        let (waiters, observers) = state.withLock {
            state -> ([CheckedContinuation<Bool, Never>], [AsyncStream<Bool>.Continuation]) in
            let changed = state.screenReaderEnabled != nil && state.screenReaderEnabled != enabled
            state.screenReaderEnabled = enabled
            let waiters = state.waiters
            state.waiters = []
            return (waiters, changed ? Array(state.observers.values) : [])
        }
        for waiter in waiters { waiter.resume(returning: enabled) }
        for observer in observers { observer.yield(enabled) }
    }

    /// Ends every observer's stream.
    func finishObservers() {
        let observers = state.withLock { state in
            let observers = Array(state.observers.values)
            state.observers = [:]
            return observers
        }
        for observer in observers { observer.finish() }
    }
}
