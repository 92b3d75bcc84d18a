// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization

/// Hands out the daemon-wide sequence numbers of posts, unique and increasing for the daemon's
/// lifetime, on any thread: the dispatcher draws one for every post it queues, and a connection's
/// event loop reserves one for a message whose `queued` answer it writes itself
/// (``ClientInput/queuedMessage(_:seq:)``), before the dispatcher sees the message.
public final class SequenceNumbers: Sendable {
    private let last = Atomic<UInt64>(0)

    /// Numbering starts at 1.
    public init() {}

    /// The next number (the first is 1).
    public func next() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}
