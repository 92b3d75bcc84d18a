// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
import AnnounceProtocol
import Testing

/// A front-end's STOP and CANCEL (SSIP) are answered after the terminal line of the speaking post
/// they end, which comes only when the engine has stopped it: Orca and speech-dispatcher's
/// clients expect `703 CANCELED` before `213 OK CANCELED` (shared/ssip.md §9).
@MainActor
@Suite("Dispatcher: a front-end's stop and cancel are answered after the post they end")
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
            case .event(let event): return "\(event.json.objectValue?["event"]?.stringValue ?? "?") \(event.postSeq.map(String.init) ?? "-")"
            }
        }
    }

    private func submit(_ harness: Harness, _ inputs: ClientInput..., from client: ClientID = 1) {
        harness.dispatcher.transaction { $0.receive(inputs, from: client) }
        harness.turns.run()
    }

    @Test("cancel of the speaking post: its finished line, then the answer, then what the client sent after")
    func cancelWaitsForTheSpeakingPost() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"), message(2, "Waiting"))
        harness.engineStarts()
        submit(harness, control(.cancel), .answered(TestReply("RATE SET")))
        // The waiting post ends at once; the speaking one only when the engine has stopped it.
        #expect(transcript(harness, 1) == ["queued 1", "queued 2", "started 1", "finished 2"])
        harness.engineAborts()
        #expect(transcript(harness, 1) == ["queued 1", "queued 2", "started 1", "finished 2", "finished 1", "cancel done", "RATE SET"])
    }

    @Test("cancel all from another client: that client's answer waits for the post it ended")
    func cancelAllWaitsForAnotherClientsPost() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"), from: 1)
        harness.engineStarts()
        submit(harness, control(.stop, .all), from: 2)
        #expect(transcript(harness, 2).isEmpty)
        harness.engineAborts()
        #expect(transcript(harness, 1).last == "finished 1")
        #expect(transcript(harness, 2) == ["stop done"])
    }

    @Test("cancel with nothing of the scope speaking is answered at once")
    func cancelWithNothingSpeaking() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"), from: 1)
        harness.engineStarts()
        submit(harness, control(.cancel), from: 2)
        #expect(transcript(harness, 2) == ["cancel done"])
        #expect(harness.dispatcher.speaking != nil)
    }

    @Test("a connection that closes while its answer is held gets the answer before it closes")
    func heldAnswerOnClose() {
        let harness = Harness()
        submit(harness, message(1, "Speaking"))
        harness.engineStarts()
        submit(harness, control(.cancel), .answered(TestReply("BYE")))
        harness.dispatcher.transaction { $0.closeConnection(1) }
        harness.turns.run()
        #expect(Array(transcript(harness, 1).suffix(2)) == ["cancel done", "BYE"])
    }
}
