// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

extension Dispatcher {
    /// Whether a screen reader runs, as `status` reports it (`screen_reader`).
    public var isScreenReaderRunning: Bool { screenReaderRunning }

    /// Records whether a screen reader runs (the daemon's watch of the desktop's
    /// `org.a11y.Status`, in a turn): `status` answers carry it, and when it changed, `status`
    /// subscribers hear `status-changed`.
    public func screenReaderChanged(_ running: Bool) {
        guard running != screenReaderRunning else { return }
        screenReaderRunning = running
        broadcast(.statusChanged(statusReport), topic: .status)
    }
}
