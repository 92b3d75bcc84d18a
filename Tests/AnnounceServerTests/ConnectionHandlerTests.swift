// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import Glibc
import NIOCore
import NIOEmbedded
import TestSupport
import Testing

@testable import AnnounceServer

@MainActor
@Suite("A connection on its event loop (EmbeddedChannel)")
struct ConnectionHandlerTests {
    @Test("a line of exactly max_line_bytes is answered; one byte more gets line-too-long and the connection closes")
    func framingAtTheLimit() throws {
        let h = ServerHarness(maxLineBytes: 22)
        let status = #"{"op":"status","id":1}"#
        #expect(status.utf8.count == 22)
        let channel = try h.connect()
        try channel.receive(status + "\n")
        h.settle(channel)
        let answer = try channel.writtenLines()
        #expect(answer.count == 1 && answer[0].hasPrefix(#"{"event":"ok","id":1,"#))
        #expect(channel.isActive)

        try channel.receive(#"{"op":"status","id":12}"# + "\n" + status + "\n")
        h.settle(channel)
        let lines = try channel.writtenLines()
        #expect(lines.count == 1 && lines[0].contains(#""code":"line-too-long""#), "\(lines)")
        #expect(!channel.isActive, "closed: framing is lost, the line behind it is not read")
    }

    @Test("a partial line is refused as soon as it passes the limit, without waiting for its newline")
    func partialLinePastTheLimit() throws {
        let h = ServerHarness(maxLineBytes: 16)
        let channel = try h.connect()
        try channel.receive("{\"op\":\"status\",")
        h.settle(channel)
        #expect(try channel.writtenLines().isEmpty)
        try channel.receive("\"id\":1")
        h.settle(channel)
        #expect(try channel.writtenLines().first?.contains(#""code":"line-too-long""#) == true)
        #expect(!channel.isActive)
    }

    @Test("half-close: the unfinished last line is answered, and the connection closes after its post's terminal line")
    func halfClose() throws {
        let h = ServerHarness()
        let channel = try h.connect()
        try channel.receive(#"{"op":"announce","id":1,"text":"Saved"}"#)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        h.settle(channel)
        #expect(try channel.writtenLines() == [#"{"event":"queued","id":1,"seq":1}"#])
        #expect(h.backend.spokenTexts == ["Saved"])
        #expect(channel.isActive, "open until the post's terminal line")

        h.dispatcher.backendEventHandler(.started(seq: 1))
        h.dispatcher.backendEventHandler(.finished(seq: 1, outcome: .completed))
        h.settle(channel)
        #expect(
            try channel.writtenLines() == [
                #"{"event":"started","id":1,"seq":1,"text":"Saved"}"#,
                #"{"event":"finished","id":1,"seq":1,"success":true}"#,
            ])
        #expect(!channel.isActive)
    }

    @Test("a slow reader past the outbound limit is disconnected, and hears nothing more")
    func slowReader() throws {
        let h = ServerHarness()
        let channel = try h.connect()
        channel.isWritable = false // what the high water mark (max_outbound_bytes) does to a channel nobody reads
        try channel.receive(#"{"op":"status","id":1}"# + "\n")
        h.settle(channel)
        #expect(!channel.isActive)
        try? channel.receive(#"{"op":"status","id":2}"# + "\n")
        h.settle(channel)
        #expect(try channel.writtenLines().allSatisfy { !$0.contains(#""id":2"#) })
    }

    @Test("a peer of another uid gets one forbidden line and is disconnected; the dispatcher never hears of it")
    func refusesAnotherUID() throws {
        let h = ServerHarness()
        let channel = try h.connect(uid: getuid() &+ 1)
        h.settle(channel)
        let lines = try channel.writtenLines()
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""code":"forbidden""#) == true)
        #expect(!channel.isActive)
        #expect(h.dispatcher.statusReport.clients == 0)
    }

    @Test("a peer of an allowed uid is served")
    func allowedUID() throws {
        let h = ServerHarness(allowUIDs: [4242])
        let channel = try h.connect(uid: 4242)
        try channel.receive(#"{"op":"status","id":1}"# + "\n")
        h.settle(channel)
        #expect(try channel.writtenLines().first?.hasPrefix(#"{"event":"ok","id":1,"#) == true)
    }

    @Test("graceful shutdown: a connection closes after the lines already handed to it")
    func quiesce() throws {
        let h = ServerHarness()
        let channel = try h.connect()
        try channel.receive(#"{"op":"subscribe","id":1,"events":["status"]}"# + "\n")
        h.turns.run()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        h.settle(channel)
        #expect(try channel.writtenLines() == [#"{"event":"ok","id":1}"#])
        #expect(!channel.isActive)
    }
}
