// SPDX-License-Identifier: Apache-2.0
/// Whether a screen reader runs on the user's desktop, as the daemon follows it from the
/// desktop's `org.a11y.Status.ScreenReaderEnabled` (GNOME sets it while Orca runs).
extension Announcer {
    /// True while a screen reader runs: the Linux counterpart of
    /// `UIAccessibility.isVoiceOverRunning`. Asks the daemon (its `status` answer's
    /// `screen_reader`); false when no daemon answers, or the daemon has no session bus or no
    /// at-spi2-core to ask.
    public var isScreenReaderRunning: Bool {
        get async { (try? await status())?.screenReader ?? false }
    }

    /// Whether a screen reader runs, now and after every change: the counterpart of
    /// `UIAccessibility.voiceOverStatusDidChangeNotification`. The sequence starts with the
    /// current value once the daemon has answered, then yields each change (the daemon's
    /// `status-changed` events), and stays live across daemon restarts; while no daemon answers
    /// it counts as false. Ends when the consumer stops iterating.
    ///
    /// ```swift
    /// for await running in announcer.screenReaderStatusChanges() {
    ///     showsSpokenHints = !running
    /// }
    /// ```
    public func screenReaderStatusChanges() -> ScreenReaderStatusChanges {
        ScreenReaderStatusChanges(statuses: statusChanges())
    }
}

extension SpeechStatus {
    /// True when a daemon answers and says a screen reader runs.
    public var isScreenReaderRunning: Bool {
        if case .available(let report) = self { return report.screenReader }
        return false
    }
}

/// The values of ``Announcer/isScreenReaderRunning`` as they change, made from the announcer's
/// ``Announcer/statusChanges()``, each value once.
public struct ScreenReaderStatusChanges: AsyncSequence, Sendable {
    /// True while a screen reader runs.
    public typealias Element = Bool
    /// The sequence never fails.
    public typealias Failure = Never

    let statuses: AsyncStream<SpeechStatus>

    /// The iterator over the changes.
    public func makeAsyncIterator() -> Iterator {
        Iterator(statuses: statuses.makeAsyncIterator())
    }

    /// Yields the screen reader's status each time it differs from the last one yielded.
    public struct Iterator: AsyncIteratorProtocol {
        var statuses: AsyncStream<SpeechStatus>.Iterator
        var last: Bool?

        /// The next change, or nil once the sequence ended.
        public mutating func next() async -> Bool? {
            while let status = await statuses.next() {
                if let running = changed(status) { return running }
            }
            return nil
        }

        /// The next change, or nil once the sequence ended, waiting in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Bool? {
            while let status = await statuses.next(isolation: actor) {
                if let running = changed(status) { return running }
            }
            return nil
        }

        private mutating func changed(_ status: SpeechStatus) -> Bool? {
            let running = status.isScreenReaderRunning
            guard running != last else { return nil }
            last = running
            return running
        }
    }
}
