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
    }

    /// Connects to the session bus at `DBUS_SESSION_BUS_ADDRESS` of `environment` (else where
    /// sd-bus looks: `$XDG_RUNTIME_DIR/bus`); when there is none, logs one line that names what
    /// is off: the screen reader's status, and each of `alsoOff` (what else the settings turned
    /// on that needs the bus).
    init(environment: [String: String], alsoOff: [String], logger: Logger) {
        do {
            connection = try BusConnection.session(address: BusConnection.sessionAddress(environment: environment))
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

    /// Records the status read or reported, and tells the waiters.
    func record(_ enabled: Bool) {
        let waiters = state.withLock { state in
            state.screenReaderEnabled = enabled
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: enabled) }
    }
}
