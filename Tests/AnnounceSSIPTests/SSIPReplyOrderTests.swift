import AnnounceProtocol
import NIOCore
import NIOEmbedded
import SSIPProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP
@testable import AnnounceServer

/// A reply the decoder made itself is written straight from the event loop when nothing is ahead
/// of it on its connection, and otherwise keeps its place behind what is (a `225`, a control's
/// answer, a held event).
@MainActor
@Suite("SSIP replies written from the event loop keep their place (EmbeddedChannel)")
struct SSIPReplyOrderTests {
    @Test("SET and GET with nothing ahead are answered without a dispatcher turn")
    func answeredWithoutATurn() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        h.settle(channel)
        try channel.receive("SET self RATE 20\r\nGET RATE\r\nSPEAK\r\n")
        // No dispatcher turn runs: the replies come from the loop alone.
        #expect(
            try channel.writtenLines() == ["203 OK RATE SET", "251-20", "251 OK GET RETURNED", "230 OK RECEIVING DATA"])
        #expect(h.dispatcher.inbox.takeAll().isEmpty, "nothing was handed to the dispatcher")
    }

    @Test(
        "a message with nothing ahead is answered 225 from the loop under the number the dispatcher queues it with; its events follow on the dispatcher's turns"
    )
    func messageQueuedWithoutATurn() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        h.settle(channel)
        try channel.receive("SET self NOTIFICATION all on\r\nSPEAK\r\nHello\r\n.\r\nGET RATE\r\nCHAR x\r\n")
        // No dispatcher turn has run: the 225s come from the loop alone.
        #expect(
            try channel.writtenLines() == [
                "220 OK NOTIFICATION SET", "230 OK RECEIVING DATA", "225-1", "225 OK MESSAGE QUEUED", "251-0",
                "251 OK GET RETURNED",
                "225-2", "225 OK MESSAGE QUEUED",
            ])
        h.settle(channel)
        #expect(try channel.writtenLines().isEmpty, "the dispatcher answers nothing again")
        #expect(h.dispatcher.speaking?.seq == 1)
        #expect(h.dispatcher.pending.all.map(\.seq) == [2])
        h.engineStarts()
        h.settle(channel)
        #expect(try channel.writtenLines().isEmpty, "701 is held after its 225")
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        #expect(try channel.writtenLines() == ["701-1", "701-1", "701 BEGIN"])
        // A native post's number comes from the same counter: numbers stay unique and increasing.
        #expect(h.dispatcher.reserveSequenceNumber() == 3)
    }

    @Test(
        "a reply behind a message waits for the message's 225 when the 225 goes through the dispatcher, in the same read and in a later one"
    )
    func replyWaitsFor225() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        h.settle(channel)
        // The answer to STOP comes on the dispatcher's turn, so the message behind it waits too.
        try channel.receive("STOP self\r\nSPEAK\r\nHello\r\n.\r\nGET RATE\r\n")
        #expect(try channel.writtenLines().isEmpty)
        try channel.receive("SET self PITCH 5\r\n")
        #expect(try channel.writtenLines().isEmpty, "203 waits behind the 225 the dispatcher owes")
        h.settle(channel)
        #expect(
            try channel.writtenLines() == [
                "210 OK STOPPED", "230 OK RECEIVING DATA", "225-1", "225 OK MESSAGE QUEUED", "251-0",
                "251 OK GET RETURNED", "204 OK PITCH SET",
            ])
        try channel.receive("GET PITCH\r\n")
        #expect(
            try channel.writtenLines() == ["251-5", "251 OK GET RETURNED"],
            "nothing is owed any more: straight from the loop")
    }

    @Test(
        "CANCEL of the speaking message is answered 213 at once, its 703 follows; a reply behind a held event takes a turn"
    )
    func replyWaitsForControlAndHeldEvents() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        try channel.receive("SET self NOTIFICATION all on\r\nSPEAK\r\nLong\r\n.\r\n")
        h.settle(channel)
        h.engineStarts()
        h.settle(channel)
        _ = try channel.writes()
        // 701 is held after its 225: a GET goes through the dispatcher, and is still not held.
        try channel.receive("GET RATE\r\n")
        #expect(try channel.writtenLines().isEmpty)
        h.settle(channel)
        #expect(try channel.writtenLines() == ["251-0", "251 OK GET RETURNED"])
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        #expect(try channel.writtenLines() == ["701-1", "701-1", "701 BEGIN"])

        try channel.receive("CANCEL self\r\nSET self RATE 7\r\n")
        h.settle(channel)
        #expect(
            try channel.writtenLines() == ["213 OK CANCELED", "203 OK RATE SET"],
            "213 at once, before the 703 it causes")
        try channel.receive("GET RATE\r\n")
        #expect(try channel.writtenLines() == ["251-7", "251 OK GET RETURNED"], "nothing owed: straight from the loop")
        h.engineFinishes(.aborted(spokenChars: 1))
        h.settle(channel)
        #expect(try channel.writtenLines() == ["703-1", "703-1", "703 CANCELED"])
    }

    @Test("QUIT with nothing ahead answers 231 from the loop and closes after it")
    func quitFromTheLoop() throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        h.settle(channel)
        try channel.receive("QUIT\r\n")
        #expect(try channel.writtenLines() == ["231 HAPPY HACKING"])
        h.settle(channel)
        #expect(!channel.isActive)
    }

    @Test(
        "a storm of pipelined SET, GET, SPEAK, CHAR and CANCEL in reads of any size, with turns, engine events and holds in between",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func storm(seed: UInt64) throws {
        let h = SSIPHarness()
        let channel = try h.connect()
        var random = TestRandom(seed: seed)
        var commands = ["SET self NOTIFICATION all on"]
        for step in 0..<300 {
            switch random.next(100) {
            case 0..<25: commands.append("SET self RATE \(random.next(100))")
            case 25..<45: commands.append("GET RATE")
            case 45..<70: commands.append("SPEAK\r\nstorm \(step)\r\n.")
            case 70..<80: commands.append("CHAR x")
            case 80..<88: commands.append("CANCEL self")
            default: commands.append("SET self PRIORITY \(["message", "text", "important"][random.next(3)])")
            }
        }
        var bytes = Array(commands.map { $0 + "\r\n" }.joined().utf8)
        while !bytes.isEmpty {
            let cut = min(bytes.count, 1 + random.next(60))
            try channel.writeInbound(channel.allocator.buffer(bytes: bytes.prefix(cut)))
            bytes.removeFirst(cut)
            switch random.next(6) {
            case 0: h.turns.run()
            case 1: channel.embeddedEventLoop.run()
            case 2: advanceEngine(h, &random)
            // Holds are deadlines on the monotonic clock: some pass, some not.
            case 3: channel.embeddedEventLoop.advanceTime(to: .now() + .milliseconds(Int64(random.next(15))))
            default: break
            }
        }
        while h.dispatcher.speaking != nil || !h.dispatcher.pending.isEmpty {
            h.settle(channel)
            advanceEngine(h, &random)
        }
        h.settle(channel)
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        let problems = SSIPReplyOrder.check(commands: commands, written: try channel.writtenLines())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// The engine's part: starts the speaking message, ends it, or honours its abort.
    private func advanceEngine(_ h: SSIPHarness, _ random: inout TestRandom) {
        h.turns.run()
        guard let speaking = h.dispatcher.speaking else { return }
        if speaking.endReason != nil {
            h.engineFinishes(.aborted(spokenChars: 0))
        } else if !speaking.started {
            h.engineStarts()
        } else if random.next(2) == 0 {
            h.engineFinishes()
        }
        h.turns.run()
    }
}

/// SplitMix64: the same numbers for the same seed.
struct TestRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
