// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

@testable import AnnounceCore

@Suite("The screen reader's status in status and status-changed")
@MainActor
struct ScreenReaderStatusTests {
    @Test("status carries screen_reader; subscribers hear status-changed on each flip, and nothing when it stays")
    func flipsReachStatusAndSubscribers() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["status"]}"#, from: 2)
        h.send(#"{"op":"status","id":2}"#, from: 3)
        #expect(screenReaderFields(in: h.sink(3).received) == [false])
        h.sink(2).clear()
        h.sink(3).clear()

        report(true, to: h)
        #expect(statusChanges(in: h.sink(2).received) == [true])
        #expect(statusChanges(in: h.sink(3).received).isEmpty, "a connection that did not subscribe hears nothing")
        h.send(#"{"op":"status","id":3}"#, from: 3)
        #expect(screenReaderFields(in: h.sink(3).received) == [true])

        h.sink(2).clear()
        report(true, to: h)
        #expect(statusChanges(in: h.sink(2).received).isEmpty)
        report(false, to: h)
        #expect(statusChanges(in: h.sink(2).received) == [false])
        #expect(h.dispatcher.isScreenReaderRunning == false)
    }

    /// Reports the status the way the daemon's watch does: in a turn.
    private func report(_ running: Bool, to h: Harness) {
        h.dispatcher.enqueue { $0.screenReaderChanged(running) }
        h.turns.run()
    }

    private func statusChanges(in events: [Event]) -> [Bool] {
        events.compactMap { if case .statusChanged(let report) = $0 { report.screenReader } else { nil } }
    }

    private func screenReaderFields(in events: [Event]) -> [Bool] {
        events.compactMap { if case .ok(_, let fields) = $0 { fields["screen_reader"]?.boolValue } else { nil } }
    }
}
