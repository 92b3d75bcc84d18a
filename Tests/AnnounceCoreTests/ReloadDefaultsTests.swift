import AnnounceProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@Suite("Reloading the defaults (SIGHUP)")
@MainActor
struct ReloadDefaultsTests {
    @Test("updateDefaults changes the speech defaults and the earcon switch for later posts")
    func newDefaultsApply() {
        let h = Harness()
        h.send(#"{"op":"screen-changed","id":1,"element":"Before"}"#)
        h.engineStarts()
        h.engineFinishes()
        #expect(h.backend.spoken.last?.earcon == true)
        #expect(h.backend.spoken.last?.rate == 175)

        h.dispatcher.updateDefaults(voice: "de", rate: 300, pitch: 10, volume: 150, punctuation: .all, earcons: false)
        h.turns.run()
        h.send(#"{"op":"screen-changed","id":2,"element":"After"}"#)
        let utterance = h.backend.spoken.last
        #expect(utterance?.text == "After")
        #expect(utterance?.earcon == false)
        #expect(utterance?.voice == "de")
        #expect(utterance?.rate == 300)
        #expect(utterance?.pitch == 10)
        #expect(utterance?.volume == 150)
    }

    @Test("a subscriber hears status-changed when the earcon switch alone changes, and nothing when nothing changes")
    func statusChangedOnEarconsOnly() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["status"]}"#, from: 2)
        h.sink(2).clear()
        h.dispatcher.updateDefaults(
            voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none, earcons: true)
        h.turns.run()
        #expect(!h.sink(2).received.contains { if case .statusChanged = $0 { true } else { false } })
        h.dispatcher.updateDefaults(
            voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none, earcons: false)
        h.turns.run()
        #expect(h.sink(2).received.contains { if case .statusChanged = $0 { true } else { false } })
    }
}
