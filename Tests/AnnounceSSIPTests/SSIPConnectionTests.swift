import AnnounceProtocol
import Glibc
import NIOCore
import NIOEmbedded
import SSIPProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP
@testable import AnnounceServer

@MainActor
@Suite("An SSIP connection through the server and the dispatcher (EmbeddedChannel)")
struct SSIPConnectionTests {
    /// Advances the channel's loop past every event hold set so far (holds are deadlines on the
    /// monotonic clock, a moment after a 225 was encoded).
    func releaseHeldEvents(_ h: SSIPHarness, _ channel: EmbeddedChannel) {
        h.settle(channel)
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        h.settle(channel)
    }

    @Test(
        "225 goes out at once; the message's first event waits for the hold in a write of its own, later replies do not wait"
    )
    func firstEventHeldAfter225() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        try channel.receive("SET self NOTIFICATION all on\r\nSPEAK\r\nHello\r\n.\r\n")
        h.settle(channel)
        #expect(
            try channel.writtenLines() == [
                "220 OK NOTIFICATION SET", "230 OK RECEIVING DATA", "225-1", "225 OK MESSAGE QUEUED",
            ])
        #expect(h.backend.spoken.map(\.text) == ["Hello"])

        h.engineStarts()
        h.settle(channel)
        #expect(try channel.writes().isEmpty, "701 is held after its 225")
        try channel.receive("GET RATE\r\n")
        h.settle(channel)
        #expect(try channel.writes() == ["251-0\r\n251 OK GET RETURNED\r\n"], "a reply is never held behind an event")

        let deadline = try #require(h.frontEnd.connections[1]?.firstEventDeadlines.withLock { $0[1] })
        channel.embeddedEventLoop.advanceTime(to: deadline - .nanoseconds(1))
        #expect(try channel.writes().isEmpty)
        channel.embeddedEventLoop.advanceTime(to: deadline)
        #expect(try channel.writes() == ["701-1\r\n701-1\r\n701 BEGIN\r\n"])

        h.engineFinishes()
        h.settle(channel)
        #expect(
            try channel.writes() == ["702-1\r\n702-1\r\n702 END\r\n"],
            "once the hold is over, events are written at once")
    }

    @Test(
        "exactly one of 702 and 703 per message: spoken, stopped while speaking, cancelled before it began, CHAR, dropped by priority"
    )
    func oneTerminalEventPerMessage() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        try channel.receive("SET self NOTIFICATION all on\r\nSET self PRIORITY message\r\n")
        try channel.receive("SPEAK\r\nspoken\r\n.\r\nSPEAK\r\nstopped\r\n.\r\nSPEAK\r\ncancelled\r\n.\r\nCHAR a\r\n")
        h.settle(channel)
        h.engineStarts()
        h.engineFinishes()
        h.settle(channel)
        h.engineStarts()
        try channel.receive("STOP self\r\n")
        h.settle(channel)
        h.engineFinishes(.aborted(spokenChars: 2))
        h.settle(channel)
        // 3 is now with the engine (not begun); 4 waits. A notification is dropped at once
        // while they are there; CANCEL ends 4 at once and 3 when the engine has stopped it.
        try channel.receive("SET self PRIORITY notification\r\nCHAR b\r\nSET self PRIORITY message\r\nCANCEL self\r\n")
        h.settle(channel)
        h.engineFinishes(.aborted(spokenChars: 0))
        releaseHeldEvents(h, channel)
        let lines = try channel.writtenLines()
        let events = lines.filter { $0.hasPrefix("70") && !$0.contains("-") }
        #expect(
            events == [
                "701 BEGIN", "702 END",
                "701 BEGIN", "703 CANCELED",
                "703 CANCELED",
                "703 CANCELED",
                "703 CANCELED",
            ], "\(lines)")
        for seq in 1...5 {
            let terminals = lines.indices.filter { index in
                (lines[index] == "702-\(seq)" || lines[index] == "703-\(seq)") && index + 1 < lines.count
                    && lines[index + 1] == "\(lines[index].prefix(3))-1"
            }
            #expect(terminals.count == 1, "message \(seq): \(lines)")
        }
        #expect(lines.contains("210 OK STOPPED") && lines.contains("213 OK CANCELED"))
    }

    @Test("events only of the enabled types, and only to the connection that queued the message")
    func eventsOnlyToTheOwnerAndOnlyEnabled() throws {
        let h = SSIPHarness()
        let owner = try h.connect()
        let other = try h.connect()
        try other.receive("SET self NOTIFICATION all on\r\n")
        try owner.receive(
            "SET self NOTIFICATION end on\r\nSET self PRIORITY message\r\nSPEAK\r\nfirst\r\n.\r\nSPEAK\r\nsecond\r\n.\r\n"
        )
        h.settle(owner)
        h.settle(other)
        h.engineStarts()
        h.engineFinishes()
        h.settle(owner)
        h.engineStarts()
        h.settle(owner)
        try owner.receive("CANCEL self\r\n")
        h.settle(owner)
        h.engineFinishes(.aborted(spokenChars: 0))
        releaseHeldEvents(h, owner)
        let lines = try owner.writtenLines()
        #expect(lines.filter { $0.hasPrefix("7") } == ["702-1", "702-1", "702 END"], "only END was enabled: \(lines)")
        h.settle(other)
        #expect(h.backend.spoken.map(\.text) == ["first", "second"])
        #expect(
            try other.writtenLines() == ["220 OK NOTIFICATION SET"],
            "another connection's messages are not its business")
    }

    @Test(
        "events behind a held event keep their order; replies go ahead of them, PAUSE's 211 too, and its 704 comes after it"
    )
    func heldEventsKeepOrder() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        try channel.receive(
            "SET self NOTIFICATION all on\r\nSET self SSML_MODE on\r\nSPEAK\r\n<speak>a<mark name=\"m\"/>b</speak>\r\n.\r\n"
        )
        h.settle(channel)
        _ = try channel.writes()
        let seq = try #require(h.dispatcher.speaking?.seq)
        h.dispatcher.backendEventHandler(.started(seq: seq))
        h.dispatcher.backendEventHandler(.mark(seq: seq, name: "m"))
        h.settle(channel)
        try channel.receive("PAUSE self\r\n")
        h.settle(channel)
        #expect(try channel.writtenLines() == ["211 OK PAUSED"], "211 before the 704 it caused, ahead of held events")
        try channel.receive("SET self RATE 10\r\n")
        h.settle(channel)
        #expect(try channel.writtenLines() == ["203 OK RATE SET"])
        releaseHeldEvents(h, channel)
        #expect(
            try channel.writtenLines().filter { !$0.contains("-") } == ["701 BEGIN", "700 INDEX MARK", "704 PAUSED"])
    }

    @Test("QUIT answers 231 and closes the connection; its queued message still speaks")
    func quitKeepsQueuedMessages() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        try channel.receive("SPEAK\r\nkept\r\n.\r\nQUIT\r\nCHAR x\r\n")
        h.settle(channel)
        #expect(
            try channel.writtenLines() == [
                "230 OK RECEIVING DATA", "225-1", "225 OK MESSAGE QUEUED", "231 HAPPY HACKING",
            ])
        #expect(!channel.isActive)
        #expect(h.backend.spoken.map(\.text) == ["kept"], "CHAR x came after QUIT and is not queued")
    }

    @Test("a line over max_line_bytes answers 520 and closes the connection")
    func lineTooLongCloses() throws {
        let h = SSIPHarness(maxLineBytes: 32)
        let channel = try h.connect()
        try channel.receive("GET RATE\r\n" + String(repeating: "x", count: 40))
        h.settle(channel)
        let lines = try channel.writtenLines()
        #expect(lines.count == 3)
        #expect(lines.last?.hasPrefix("520 ERR LINE LONGER THAN 32 BYTES") == true, "\(lines)")
        #expect(!channel.isActive)
    }

    @Test(
        "max_pending_per_client: the message past the limit answers 300 instead of 225 when its answer goes through the dispatcher, and the connection keeps working"
    )
    func tooManyMessages() throws {
        let h = SSIPHarness(maxPendingPerClient: 2)
        let channel = try h.connect()
        try channel.receive("SET self PRIORITY message\r\nCHAR a\r\n")
        h.settle(channel)
        #expect(h.backend.spoken.map(\.text) == ["a"], "speaking: it does not count as waiting")
        _ = try channel.writes()
        // STOP of a message that is not speaking is answered on the dispatcher's turn: everything
        // after it waits its turn there too.
        try channel.receive("STOP 99\r\nCHAR b\r\nCHAR c\r\nCHAR d\r\nGET RATE\r\n")
        #expect(try channel.writtenLines().isEmpty)
        h.settle(channel)
        #expect(
            try channel.writtenLines() == [
                "406 ERR ID DOESNT EXIST",
                "225-2", "225 OK MESSAGE QUEUED", "225-3", "225 OK MESSAGE QUEUED",
                "300 ERR TOO MANY MESSAGES WAITING; WAIT FOR SOME TO END OR CANCEL THEM",
                "251-0", "251 OK GET RETURNED",
            ])
        #expect(channel.isActive)
    }

    @Test(
        "max_pending_per_client: a message past the limit whose 225 the event loop wrote ends at once with 703, is never spoken, and the connection keeps working"
    )
    func tooManyMessagesAnsweredFromTheLoop() throws {
        let h = SSIPHarness(maxPendingPerClient: 2)
        let channel = try h.connect()
        try channel.receive("SET self NOTIFICATION cancel on\r\nSET self PRIORITY message\r\nCHAR a\r\n")
        h.settle(channel)
        _ = try channel.writes()
        try channel.receive("CHAR b\r\nCHAR c\r\nCHAR d\r\nGET RATE\r\n")
        #expect(
            try channel.writtenLines() == [
                "225-2", "225 OK MESSAGE QUEUED", "225-3", "225 OK MESSAGE QUEUED", "225-4", "225 OK MESSAGE QUEUED",
                "251-0", "251 OK GET RETURNED",
            ], "nothing is ahead: every answer comes from the loop, before a dispatcher turn")
        h.settle(channel)
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        #expect(try channel.writtenLines() == ["703-4", "703-1", "703 CANCELED"])
        #expect(h.dispatcher.pending.all.map(\.seq) == [2, 3])
        try channel.receive("GET RATE\r\n")
        #expect(try channel.writtenLines() == ["251-0", "251 OK GET RETURNED"])
    }

    @Test("a peer of another uid gets one 300 line and is disconnected; the dispatcher never hears of it")
    func refusesAnotherUID() throws {
        let h = SSIPHarness()
        let channel = try h.connect(uid: getuid() &+ 1)
        h.settle(channel)
        let lines = try channel.writtenLines()
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("300 ERR THIS DAEMON SERVES ONLY USER \(getuid())") == true, "\(lines)")
        #expect(!channel.isActive)
        #expect(h.dispatcher.statusReport.clients == 0)
    }

    @Test("a slow reader past the outbound limit is disconnected, and hears nothing more")
    func slowReader() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        channel.isWritable = false // what the high water mark (max_outbound_bytes) does to a channel nobody reads
        try channel.receive("GET RATE\r\n")
        h.settle(channel)
        #expect(!channel.isActive)
        try? channel.receive("GET OUTPUT_MODULE\r\n")
        h.settle(channel)
        #expect(try channel.writtenLines().allSatisfy { !$0.contains("espeak-ng") })
        #expect(h.dispatcher.statusReport.clients == 0)
    }
}
