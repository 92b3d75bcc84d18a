import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@MainActor
@Suite("Connections as inbox entries")
struct ConnectionTests {
    @Test("a connection opened by an inbox entry hears the answer to a line submitted right behind it")
    func openThenLine() {
        let h = Harness()
        let sink = RecordingSink()
        h.dispatcher.open(ClientRegistration(id: 9, pid: 900, sink: sink))
        h.dispatcher.submit(
            [ClientInput(decoded: RequestLine.decode(line: Array(#"{"op":"status","id":1}"#.utf8)))], from: 9)
        #expect(h.turns.scheduled == 1, "both entries wait for one turn")
        h.turns.run()
        #expect(sink.received.first?.requestID == 1)
    }

    @Test("a client that finished sending is closed after the terminal line of its last post, not before")
    func finishedSendingWaitsForTerminalLine() {
        let h = Harness()
        h.send(announce(1, "Saved"))
        h.dispatcher.finishedSending(1)
        h.turns.run()
        h.engineStarts()
        #expect(h.sink(1).closedAfter == nil, "still speaking")
        h.engineFinishes()
        let lines = h.sink(1).received
        #expect(lines.last == .finished(id: 1, seq: 1, termination: .success))
        #expect(h.sink(1).closedAfter == lines.count, "closed right after the terminal line")
        #expect(h.dispatcher.clients[1] == nil)
    }

    @Test("a client that finished sending with nothing pending is closed after its answers")
    func finishedSendingWithNothingPending() {
        let h = Harness()
        h.dispatcher.submit(
            [ClientInput(decoded: RequestLine.decode(line: Array(#"{"op":"status","id":1}"#.utf8)))], from: 2)
        h.dispatcher.finishedSending(2)
        h.turns.run()
        #expect(h.sink(2).received.count == 1)
        #expect(h.sink(2).closedAfter == 1)
    }

    @Test("finishing sending does not end the client's posts: the terminal line still comes")
    func finishedSendingKeepsOtherClientsOpen() {
        let h = Harness()
        h.send(announce(1, "One"), from: 1)
        h.dispatcher.finishedSending(1)
        h.send(announce(2, "Two", #","queue":true"#), from: 2)
        h.engineStarts()
        h.engineFinishes()
        #expect(h.sink(1).closedAfter != nil)
        #expect(h.sink(2).closedAfter == nil, "another client is not affected")
        #expect(h.speakingText == "Two")
    }

    @Test("hanging up closes after the lines already answered, even with a post still speaking")
    func hangUp() {
        let h = Harness()
        h.send(announce(1, "Saved"))
        h.dispatcher.submit([.invalid(RequestError(.lineTooLong, "too long"))], from: 1)
        h.dispatcher.hangUp(1)
        h.turns.run()
        let lines = h.sink(1).received
        #expect(lines.last == .error(id: nil, code: .lineTooLong, message: "too long"))
        #expect(h.sink(1).closedAfter == lines.count)
        #expect(h.speakingText == "Saved", "its post plays on")
    }
}
