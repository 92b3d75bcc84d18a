// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import TestSupport
import Testing

@testable import AnnounceCore

/// What the dispatcher asks of a backend with more than one engine: which engine speaks a post
/// (the `speech` event names it), and loading a voice chosen as a default ahead of its first post.
@MainActor
@Suite struct EngineTests {
    @Test("the speech event's started state names the engine of the post's voice")
    func startedNamesTheEngine() {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#, from: 2)
        h.send(announce(2, "Default voice"))
        h.engineStarts()
        h.engineFinishes()
        h.send(announce(3, "British", #","voice":"en""#))
        h.engineStarts()
        let engines = h.sink(2).received.compactMap { event -> String?? in
            if case .speech(.started(_, _, _, let engine)) = event { return engine }
            return nil
        }
        #expect(engines == [nil, "piper"])
    }

    @Test(
        "a language run the backend reports goes to speech subscribers only, as the post's; one for a post not speaking is dropped"
    )
    func runsGoToSubscribers() throws {
        let h = Harness()
        h.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#, from: 2)
        h.send(announce(2, "The file Привет was saved"))
        h.engineStarts()
        let seq = try #require(h.dispatcher.speaking?.seq)
        let russian = SpeechRun(language: "ru", voice: "ru", engine: "espeak-ng", range: 9..<15)
        h.dispatcher.transaction {
            $0.handle(.run(seq: seq, russian))
            $0.handle(.run(seq: seq + 1, russian))
        }
        h.turns.run()
        h.engineFinishes()
        let runs = h.sink(2).received.filter { if case .speech(.run) = $0 { true } else { false } }
        #expect(runs == [.speech(.run(seq: seq, russian))])
        #expect(!h.sink(1).received.contains { if case .speech = $0 { true } else { false } })
        let own = h.sink(1).lines(for: .integer(2))
        #expect(own.count == 3 && own.last?.isTerminal == true, "\(own)")
    }

    @Test("the default voice is prepared when the backend is attached, and again when set or reloaded changes it")
    func defaultVoiceIsPrepared() {
        let h = Harness()
        #expect(h.backend.prepared.withLock { $0 } == ["en-us"])
        h.send(#"{"op":"set","id":1,"voice":"en"}"#)
        #expect(h.backend.prepared.withLock { $0 } == ["en-us", "gmw/en"])
        h.send(#"{"op":"set","id":2,"rate":200}"#)
        h.dispatcher.updateDefaults(voice: "de", rate: 175, pitch: 50, volume: 100, punctuation: .none)
        h.turns.run()
        #expect(h.backend.prepared.withLock { $0 } == ["en-us", "gmw/en", "de"])
    }
}
