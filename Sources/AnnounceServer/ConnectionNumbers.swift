// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Synchronization

/// Hands out connection numbers, unique for the daemon's lifetime, on any event loop thread.
final class ConnectionNumbers: Sendable {
    private let last = Atomic<ClientID>(0)

    /// The next number (the first is 1).
    func next() -> ClientID {
        last.add(1, ordering: .relaxed).newValue
    }
}
