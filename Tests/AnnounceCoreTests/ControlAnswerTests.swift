import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// A front-end's controls (SSIP's STOP, CANCEL, PAUSE, RESUME) are answered before any line they
/// cause (shared/ssip.md §7: 213 before 703, 211 before 704), and a pause is owned by the
/// connection that made it: it ends when that connection closes.
@MainActor
@Suite("Dispatcher: a front-end's controls are answered first; a pause ends with its connection")
struct ControlAnswerTests {
    private func message(_ id: Int, _ text: String) -> ClientInput {
        .message(MessagePost(id: .integer(Int64(id)), text: text, priority: .message) { _ in SpeechOptions() })
    }

    private func control(_ control: SpeechControl, _ scope: ClientScope = .own) -> ClientInput {
        .control(control, scope)
    }

    /// What client `client` received, as `finished N`, `queued N`, … and the answers' text.
    private func transcript(_ harness: Harness, _ client: ClientID) -> [String] {
        harness.sink(client).all.map { line in
            switch line {
            case .reply(let reply): return (reply as? TestReply)?.text ?? "\(reply)"
            case .control(.done(let control)): return "\(control) done"
            case .control(.unknownClient(let control)): return "\(control) unknown client"
            case .event(let event):
                return
                    "\(event.json.objectValue?["event"]?.stringValue ?? "?") \(event.postSeq.map(String.init) ?? "-")"
            }
        }
    }

    private func submit(_ harness: Harness, _ inputs: ClientInput..., from client: ClientID = 1) {
        harness.dispatcher.transaction { $0.receive(inputs, from: client) }
        harness.turns.run()
    }

    @Test(
        "cancel of the speaking post: the answer, the waiting post's end, the next reply; the speaking post's end once stopped"
    )
    func cancelIsAnsweredFirst() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"), message(2, "Waiting"))
        harness.engineStarts()
        submit(harness, control(.cancel), .answered(TestReply("RATE SET")))
        #expect(
            transcript(harness, 1) == ["queued 1", "queued 2", "started 1", "cancel done", "finished 2", "RATE SET"])
        harness.engineAborts()
        #expect(transcript(harness, 1).last == "finished 1")
    }

    @Test("stop all from another client is answered at once; the post it ended finishes after")
    func stopAllIsAnsweredAtOnce() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"), from: 1)
        harness.engineStarts()
        submit(harness, control(.stop, .all), from: 2)
        #expect(transcript(harness, 2) == ["stop done"])
        harness.engineAborts()
        #expect(transcript(harness, 1).last == "finished 1")
    }

    @Test("pause and resume of the speaking post: the answer, then paused (resumed)")
    func pauseIsAnsweredFirst() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"))
        harness.engineStarts()
        submit(harness, control(.pause))
        #expect(Array(transcript(harness, 1).suffix(2)) == ["pause done", "paused 1"])
        submit(harness, control(.resume))
        #expect(Array(transcript(harness, 1).suffix(2)) == ["resume done", "resumed 1"])
    }

    @Test(
        "PAUSE self holds the client's own messages only: another client's speaking message plays on, and its waiting ones go first"
    )
    func pauseSelfHoldsOwnMessages() {
        let harness = Harness()
        submit(harness, message(1, "Other speaking"), from: 2)
        harness.engineStarts()
        submit(harness, message(1, "Own waiting"), from: 1)
        submit(harness, message(2, "Other waiting"), from: 2)
        submit(harness, control(.pause), from: 1)
        #expect(harness.backend.holds.withLock { $0 }.isEmpty, "another client's message is not paused")
        harness.engineFinishes()
        #expect(harness.speakingText == "Other waiting", "the paused client's message is passed over")
        harness.engineFinishes()
        #expect(harness.dispatcher.speaking == nil, "the paused client's message waits")
        submit(harness, control(.resume), from: 1)
        #expect(harness.speakingText == "Own waiting")
    }

    @Test("a client that closes paused: its held message ends cancelled, and the other client's message speaks")
    func closedWhilePaused() {
        let harness = Harness()
        submit(harness, message(1, "Paused"), message(2, "Own waiting"), from: 1)
        harness.engineStarts()
        submit(harness, control(.pause), from: 1)
        submit(harness, message(1, "Other"), from: 2)
        #expect(harness.dispatcher.statusReport.paused)
        harness.dispatcher.transaction { $0.unregister(1) }
        harness.turns.run()
        #expect(harness.backend.aborted.count == 1, "the held message is stopped")
        harness.engineAborts()
        #expect(harness.speakingText == "Other")
        #expect(!harness.dispatcher.statusReport.paused)
        #expect(harness.dispatcher.pending.isEmpty, "the closed client's waiting message ended too")
    }

    @Test("PAUSE all of a client that closes: the hold ends and the held message of another client resumes")
    func pauseAllEndsWithItsOwner() {
        let harness = Harness()
        submit(harness, message(1, "Held"), from: 2)
        harness.engineStarts()
        submit(harness, control(.pause, .all), from: 1)
        #expect(transcript(harness, 2).last == "paused 1")
        harness.dispatcher.transaction { $0.unregister(1) }
        harness.turns.run()
        #expect(transcript(harness, 2).last == "resumed 1")
        #expect(harness.backend.aborted.isEmpty, "another client's message plays on")
    }

    @Test("a native pause ends with its connection; one until resume does not")
    func nativePauseOwnership() {
        let harness = Harness()
        harness.send(#"{"op":"pause","id":1}"#, from: 1)
        #expect(harness.dispatcher.statusReport.paused)
        harness.dispatcher.transaction { $0.unregister(1) }
        #expect(!harness.dispatcher.statusReport.paused)
        harness.send(#"{"op":"pause","id":2,"until":"resume"}"#, from: 2)
        harness.dispatcher.transaction { $0.unregister(2) }
        #expect(harness.dispatcher.statusReport.paused)
        harness.send(#"{"op":"resume","id":3}"#, from: 3)
        #expect(!harness.dispatcher.statusReport.paused)
    }

    @Test("a native stop is answered ok before the finished lines it causes")
    func nativeStopAnsweredFirst() {
        let harness = Harness()
        harness.send(announce(1, "Speaking"), announce(2, "Waiting", #","queue":true"#))
        harness.engineStarts()
        harness.send(#"{"op":"stop","id":3}"#)
        let lines = harness.sink(1).received
        let ok = lines.firstIndex(of: .ok(id: 3, fields: [:]))
        let finished = lines.firstIndex { $0.requestID == 2 && $0.isTerminal }
        #expect(ok != nil && finished != nil && ok! < finished!, "\(lines.map(\.json.jsonText))")
    }
}
