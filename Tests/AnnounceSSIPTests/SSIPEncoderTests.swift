import AnnounceProtocol
import AnnounceServer
import NIOCore
import SSIPProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP

@Suite("SSIP encoder: the dispatcher's lines as replies and enabled events")
struct SSIPEncoderTests {
    let frontEnd = SSIPFrontEnd(voices: [], firstEventHold: .milliseconds(10))

    /// The encoder of connection 4, after `settings` (e.g. `SET self NOTIFICATION all on`).
    func encoder(_ settings: String...) -> SSIPEncoder {
        var probe = DecoderProbe(frontEnd, client: 4)
        for line in settings { _ = probe.send(line) }
        return frontEnd.makeEncoder(for: 4)
    }

    func encode(_ lines: [ClientLine], with encoder: SSIPEncoder) -> [FrontEndOutput.Write] {
        var output = FrontEndOutput()
        encoder.encode(lines, into: &output)
        return output.writes
    }

    func text(_ write: FrontEndOutput.Write) -> String {
        String(decoding: write.bytes, as: UTF8.self).replacingOccurrences("\r\n", with: "|")
    }

    let id = RequestID.integer(1)

    @Test(
        "queued is the 225 reply with the message's sequence number; answers are written as they are, replies of a turn in one write"
    )
    func queuedIs225() {
        let writes = encode(
            [.reply(SSIPReply.receivingData), .event(.queued(id: id, seq: 17)), .reply(SSIPReply.rateSet)],
            with: encoder()
        )
        #expect(writes.map(text) == ["230 OK RECEIVING DATA|225-17|225 OK MESSAGE QUEUED|203 OK RATE SET|"])
        #expect(writes.allSatisfy { !$0.isEvent && $0.notBefore == nil })
    }

    @Test("a control's reply is a reply: written ahead of held events, before the 703 it causes (shared/ssip.md §7)")
    func controlReplyKeepsItsPlace() {
        let encoder = encoder("SET self NOTIFICATION all on")
        _ = encode([.event(.queued(id: id, seq: 8))], with: encoder)
        let writes = encode(
            [
                .control(.done(.cancel)),
                .event(.finished(id: id, seq: 8, termination: .failure(reason: .cancelled, spokenChars: 0))),
                .reply(SSIPReply.rateSet),
            ],
            with: encoder
        )
        #expect(writes.map(text) == ["213 OK CANCELED|", "703-8|703-4|703 CANCELED|", "203 OK RATE SET|"])
        #expect(writes.map(\.isEvent) == [false, true, false])
        #expect(writes[1].notBefore != nil, "the 703 is held after its 225; the reply was not")
        let answers = SpeechControl.allCases.map {
            encode([.control(.done($0)), .control(.unknownClient($0))], with: encoder)
        }
        #expect(
            answers.map { $0.map(text) } == [
                ["210 OK STOPPED|406 ERR ID DOESNT EXIST|"], ["213 OK CANCELED|406 ERR ID DOESNT EXIST|"],
                ["211 OK PAUSED|406 ERR ID DOESNT EXIST|"], ["212 OK RESUMED|406 ERR ID DOESNT EXIST|"],
            ])
        #expect(answers.allSatisfy { $0.map(\.isEvent) == [false] }, "both are plain replies")
    }

    @Test("only the event types the connection enabled are written")
    func onlyEnabledTypes() {
        let lines: [ClientLine] = [
            .event(.started(id: id, seq: 5, text: "Hi")),
            .event(.mark(id: id, seq: 5, name: "m1")),
            .event(.paused(id: id, seq: 5)),
            .event(.resumed(id: id, seq: 5)),
            .event(.finished(id: id, seq: 5, termination: .success)),
            .event(.finished(id: .integer(2), seq: 6, termination: .failure(reason: .interrupted, spokenChars: 0))),
        ]
        #expect(encode(lines, with: encoder()).isEmpty, "a new connection enabled nothing")
        #expect(
            encode(lines, with: encoder("SET self NOTIFICATION end on", "SET self NOTIFICATION index_marks on")).map(
                text) == [
                    "700-5|700-4|700-m1|700 INDEX MARK|",
                    "702-5|702-4|702 END|",
                ])
        #expect(
            encode(lines, with: encoder("SET self NOTIFICATION all on", "SET self NOTIFICATION begin off")).map(text)
                == [
                    "700-5|700-4|700-m1|700 INDEX MARK|",
                    "704-5|704-4|704 PAUSED|",
                    "705-5|705-4|705 RESUMED|",
                    "702-5|702-4|702 END|",
                    "703-6|703-4|703 CANCELED|",
                ])
    }

    @Test(
        "a finished message is END when spoken to the end and CANCELED for every other ending, one event each",
        arguments: [
            (Termination.success, "702"),
            (.failure(reason: .interrupted, spokenChars: 3), "703"),
            (.failure(reason: .cancelled, spokenChars: 0), "703"),
            (.failure(reason: .muted, spokenChars: 0), "703"),
            (.failure(reason: .shutdown, spokenChars: 0), "703"),
            (.failure(reason: .error, spokenChars: 0, message: "engine crashed"), "703"),
        ])
    func terminalEvent(termination: Termination, code: String) {
        let writes = encode(
            [.event(.finished(id: id, seq: 9, termination: termination))], with: encoder("SET self NOTIFICATION all on")
        )
        #expect(writes.count == 1)
        #expect(writes.first.map(text)?.hasPrefix("\(code)-9|\(code)-4|") == true)
    }

    @Test(
        "a message's events are held until a moment after its 225, in writes of their own; the hold ends with its terminal event"
    )
    func firstEventHeld() throws {
        let encoder = encoder("SET self NOTIFICATION all on")
        let before = NIODeadline.now()
        let queued = encode([.event(.queued(id: id, seq: 3))], with: encoder)
        let after = NIODeadline.now()
        #expect(queued.map(text) == ["225-3|225 OK MESSAGE QUEUED|"])
        #expect(queued.first?.notBefore == nil, "the reply is not held")

        let events = encode(
            [.event(.started(id: id, seq: 3, text: "Hi")), .event(.mark(id: id, seq: 3, name: "a"))], with: encoder)
        #expect(events.count == 2)
        let deadline = try #require(events.first?.notBefore)
        #expect(deadline >= before + .milliseconds(10) && deadline <= after + .milliseconds(10))
        #expect(events.allSatisfy { $0.isEvent && $0.notBefore == deadline })

        let last = encode([.event(.finished(id: id, seq: 3, termination: .success))], with: encoder)
        #expect(last.first?.notBefore == deadline)
        #expect(encoder.connection.firstEventDeadlines.withLock { $0.isEmpty }, "forgotten once the message ended")
        let unrelated = encode([.event(.started(id: .integer(2), seq: 4, text: "x"))], with: encoder)
        #expect(unrelated.first?.notBefore == nil, "a message whose 225 this connection never wrote is not held")
    }

    @Test("the hold is kept for a message whose events are all disabled, and forgotten at its end")
    func holdForgottenWithoutEvents() {
        let encoder = encoder()
        _ = encode([.event(.queued(id: id, seq: 8))], with: encoder)
        #expect(encode([.event(.finished(id: id, seq: 8, termination: .success))], with: encoder).isEmpty)
        #expect(encoder.connection.firstEventDeadlines.withLock { $0.isEmpty })
    }

    @Test("a message the dispatcher would not queue answers 300 instead of 225; an error answers 300 with its message")
    func refusals() {
        let writes = encode(
            [
                .event(.dropped(id: id, reason: .queueFull)),
                .event(.error(id: id, code: .invalid, message: "no such voice")),
            ],
            with: encoder("SET self NOTIFICATION all on")
        )
        #expect(
            writes.map(text) == [
                "300 ERR TOO MANY MESSAGES WAITING; WAIT FOR SOME TO END OR CANCEL THEM|300 ERR NO SUCH VOICE|"
            ])
    }

    @Test("the native protocol's other lines are not SSIP's and write nothing")
    func nativeLinesWriteNothing() {
        let writes = encode(
            [
                .event(.word(id: id, seq: 1, offset: 0, length: 2)), .event(.ok(id: id, fields: JSONObject())),
                .event(.focused(element: "x")), .event(.lint(element: "x", rule: "r", message: "m")),
            ],
            with: encoder("SET self NOTIFICATION all on")
        )
        #expect(writes.isEmpty)
    }
}
