// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import NIOCore
import NIOEmbedded
import POSIXThreads
import Testing

@testable import AnnounceServer

/// A front-end encoder whose output a test scripts: each delivery writes the next output given.
final class ScriptedEncoder: FrontEndEncoder {
    private let script = LockedValue<[FrontEndOutput]>([])

    func append(_ output: FrontEndOutput) { script.withLock { $0.append(output) } }

    func encode(_ lines: [ClientLine], into output: inout FrontEndOutput) {
        output = script.withLock { $0.isEmpty ? FrontEndOutput() : $0.removeFirst() }
    }
}

@Suite("ConnectionSink holds events until their deadline, on its event loop's clock")
struct ConnectionSinkHoldTests {
    func connectedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer")).wait()
        return channel
    }

    /// Runs the loop's due work and returns the writes made since the last call, one string each.
    func written(_ channel: EmbeddedChannel) throws -> [String] {
        channel.embeddedEventLoop.run()
        var writes: [String] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            writes.append(buffer.readString(length: buffer.readableBytes) ?? "")
        }
        return writes.filter { !$0.isEmpty }
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a held event waits for its deadline; events behind it wait in order; replies go ahead")
    func holdOrder() throws {
        let channel = try connectedChannel()
        let loop = channel.embeddedEventLoop
        let encoder = ScriptedEncoder()
        let sink = ConnectionSink(channel: channel, encoder: encoder)
        let deadline = loop.now + .milliseconds(10)
        var output = FrontEndOutput()
        output.appendReply(bytes("reply-1 "))
        output.appendEvent(bytes("held "), notBefore: deadline)
        output.appendEvent(bytes("behind "))
        output.appendReply(bytes("reply-2 "))
        encoder.append(output)
        sink.deliver([])
        #expect(try written(channel) == ["reply-1 ", "reply-2 "])

        var later = FrontEndOutput()
        later.appendEvent(bytes("later-event "))
        later.appendReply(bytes("reply-3 "))
        encoder.append(later)
        sink.deliver([])
        #expect(try written(channel) == ["reply-3 "], "an event delivered later waits behind the held ones")

        loop.advanceTime(by: .milliseconds(9))
        #expect(try written(channel).isEmpty)
        loop.advanceTime(by: .milliseconds(1))
        #expect(try written(channel) == ["held ", "behind ", "later-event "])

        var free = FrontEndOutput()
        free.appendEvent(bytes("free "), notBefore: loop.now)
        encoder.append(free)
        sink.deliver([])
        #expect(try written(channel) == ["free "], "an event whose deadline has passed is written at once")
    }

    @Test("two holds: the second waits for its own deadline after the first is written")
    func twoDeadlines() throws {
        let channel = try connectedChannel()
        let loop = channel.embeddedEventLoop
        let encoder = ScriptedEncoder()
        let sink = ConnectionSink(channel: channel, encoder: encoder)
        var output = FrontEndOutput()
        output.appendEvent(bytes("a "), notBefore: loop.now + .milliseconds(5))
        output.appendEvent(bytes("b "), notBefore: loop.now + .milliseconds(10))
        encoder.append(output)
        sink.deliver([])
        #expect(try written(channel).isEmpty)
        loop.advanceTime(by: .milliseconds(5))
        #expect(try written(channel) == ["a "])
        loop.advanceTime(by: .milliseconds(5))
        #expect(try written(channel) == ["b "])
    }

    @Test("close waits for the held events, writes them, then closes")
    func closeAfterHeld() throws {
        let channel = try connectedChannel()
        let loop = channel.embeddedEventLoop
        let encoder = ScriptedEncoder()
        let sink = ConnectionSink(channel: channel, encoder: encoder)
        var output = FrontEndOutput()
        output.appendEvent(bytes("last "), notBefore: loop.now + .milliseconds(10))
        encoder.append(output)
        sink.deliver([])
        sink.close()
        #expect(try written(channel).isEmpty)
        #expect(channel.isActive, "open while an event is held")
        loop.advanceTime(by: .milliseconds(10))
        #expect(try written(channel) == ["last "])
        #expect(!channel.isActive)
    }

    @Test("direct writes reuse one buffer, yet a write the channel still holds keeps its bytes")
    func directWritesKeepTheirBytes() throws {
        let channel = try connectedChannel()
        let sink = ConnectionSink(channel: channel, encoder: ScriptedEncoder())
        func storage(_ buffer: ByteBuffer) -> UInt { buffer.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }
        // An embedded channel keeps every write until it is read: the second direct write must
        // not overwrite the first one's memory.
        var secondStorage: UInt = 0
        do {
            var first = sink.startDirectWrite()
            first.writeString("first ")
            sink.finishDirectWrite(first)
        }
        do {
            var second = sink.startDirectWrite()
            #expect(second.readableBytes == 0, "a direct write starts empty")
            second.writeString("second ")
            secondStorage = storage(second)
            sink.finishDirectWrite(second)
        }
        #expect(try written(channel) == ["first ", "second "])

        // Once the channel has let go of the buffer, the next direct write uses the same memory.
        let kept = sink.startDirectWrite()
        #expect(storage(kept) == secondStorage)
        sink.finishDirectWrite(kept)
        #expect(try written(channel).isEmpty, "an empty direct write writes nothing")
    }

    @Test("a connection past its outbound limit is closed and its held events are dropped")
    func slowReaderDropsHeld() throws {
        let channel = try connectedChannel()
        let loop = channel.embeddedEventLoop
        let encoder = ScriptedEncoder()
        let sink = ConnectionSink(channel: channel, encoder: encoder)
        var output = FrontEndOutput()
        output.appendEvent(bytes("held "), notBefore: loop.now + .milliseconds(10))
        encoder.append(output)
        sink.deliver([])
        _ = try written(channel)
        channel.isWritable = false
        var reply = FrontEndOutput()
        reply.appendReply(bytes("reply "))
        encoder.append(reply)
        sink.deliver([])
        loop.run()
        #expect(!channel.isActive)
        loop.advanceTime(by: .milliseconds(10))
        #expect(try written(channel).allSatisfy { $0 != "held " })
    }
}
