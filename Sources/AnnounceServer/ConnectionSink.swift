// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import DequeModule
import NIOCore

/// Sends the dispatcher's lines to one connection in its front-end's protocol, and closes the
/// connection when its client leaves more than `max_outbound_bytes` unread (a slow reader must
/// not grow the daemon's memory).
///
/// The limit is the channel's high write-buffer water mark (set by the server): what the kernel
/// did not take waits in the channel, and once more than the limit waits, the channel is no
/// longer writable; the next write then closes the connection. So a write needs no promise of
/// its own (writes complete in order; waiting for "everything written" is an empty write's
/// promise).
///
/// Events a front-end holds until a deadline (``FrontEndOutput``) wait here, in order; events
/// after them wait behind them, replies do not. Deadlines are read on the event loop's clock, the
/// one its scheduled flush runs on (the monotonic clock on a real loop; an `EmbeddedEventLoop`'s
/// own time in tests).
///
/// The sink is the one owner of the order of the connection's writes. Everything it writes, it
/// writes on the event loop: the dispatcher's lines (handed over on its turn, written in an
/// `execute` block) and a front-end's own replies and `queued` answers, which the connection's
/// handler asks it to write straight from the loop (``startDirectWrite()``) so that a `SET`, a
/// `GET` or the `225` of a `SPEAK` costs no trip through the dispatcher's turn. It counts the answers the dispatcher owes the connection (the
/// handler adds what it hands over, ``owe(_:)``; each write of the dispatcher's lines takes off
/// what it answers) and writes a reply directly only when nothing is owed and no event is held:
/// a reply never overtakes the `225` of a message, a control's answer or an event held before it.
final class ConnectionSink<Encoder: FrontEndEncoder>: EventSink, Sendable {
    let channel: any Channel
    let encoder: Encoder
    /// `max_outbound_bytes`: the most bytes that may wait in the channel, unread by the client
    /// (the channel's high water mark).
    let outboundLimit: Int
    private let state: NIOLoopBoundBox<ConnectionSinkState>
    /// The largest direct write buffer kept for the next (a voice list is dropped after its write).
    static var directBufferKept: Int { 4096 }

    init(channel: any Channel, encoder: Encoder, outboundLimit: Int = 1 << 20) {
        self.channel = channel
        self.encoder = encoder
        self.outboundLimit = outboundLimit
        self.state = NIOLoopBoundBox.makeBoxSendingValue(ConnectionSinkState(), eventLoop: channel.eventLoop)
    }

    func deliver(_ lines: [ClientLine]) {
        var output = FrontEndOutput()
        encoder.encode(lines, into: &output)
        let writes = output.writes
        channel.eventLoop.execute { [self] in
            guard !state.value.closed else { return }
            for write in writes {
                state.value.owedAnswers -= write.answers
                // The clock is read only for a write that has a deadline (never a JSON line's).
                if write.isEvent,
                    !state.value.held.isEmpty || (write.notBefore.map { $0 > channel.eventLoop.now } ?? false)
                {
                    state.value.held.append(write)
                } else {
                    send(write.bytes)
                }
            }
            scheduleHeldFlush()
        }
    }

    /// Counts `count` more answers the dispatcher owes the connection, for inputs about to be
    /// handed to it. Call on the event loop, before handing them over.
    func owe(_ count: Int) {
        state.value.owedAnswers += count
    }

    /// True when nothing is ahead of a reply the connection's handler would write now: the
    /// dispatcher owes the connection no answer and no event is held. Call on the event loop.
    var mayWriteDirectly: Bool {
        state.value.owedAnswers == 0 && state.value.held.isEmpty && !state.value.closed
    }

    /// Starts a direct write: an empty buffer to append a front-end's own replies and the `queued`
    /// answers of messages its handler numbered itself to (``appendDirectly(_:to:)``), written by
    /// ``finishDirectWrite(_:)``. It is the last direct write's buffer when the channel has let go
    /// of it, so a reply costs no allocation. Call on the event loop, only when
    /// ``mayWriteDirectly``.
    func startDirectWrite() -> ByteBuffer {
        guard var buffer = state.value.directBuffer.take() else { return channel.allocator.buffer(capacity: 256) }
        buffer.clear() // new memory only if the channel still holds the last write's
        return buffer
    }

    /// Appends the bytes of `line` to a direct write.
    func appendDirectly(_ line: ClientLine, to buffer: inout ByteBuffer) {
        encoder.encodeDirect(line, into: &buffer)
    }

    /// Writes what a direct write holds, now, in one write (nothing when it is empty), and keeps
    /// its buffer for the next. Call on the event loop.
    func finishDirectWrite(_ buffer: ByteBuffer) {
        if buffer.readableBytes > 0 { send(buffer) }
        if buffer.capacity <= Self.directBufferKept { state.value.directBuffer = buffer }
    }

    /// Writes `bytes`, unless the client has left too much unread: then closes the connection.
    ///
    /// The check comes before the write, not after it: a single write longer than the limit (the
    /// `started` line of a chapter-long text repeats the text) goes to a client that reads it,
    /// and only a client that has not read what came before is cut off. So what waits for one
    /// client is at most the limit and one turn's lines.
    private func send(_ bytes: [UInt8]) {
        send(channel.allocator.buffer(bytes: bytes))
    }

    /// Writes `buffer`, unless the client has left too much unread (as the write of bytes above).
    private func send(_ buffer: ByteBuffer) {
        guard !state.value.closed else { return }
        guard !clientFellBehind else {
            state.value.closed = true
            state.value.held = []
            channel.close(promise: nil)
            return
        }
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// Whether more than the limit waits in the channel, unread by the client. The channel stops
    /// being writable past the limit (its high water mark) and becomes writable again only under
    /// half of it, so a client still reading a line longer than the limit is not behind while
    /// less than the limit waits. A channel that is not writable with nothing waiting (a test's
    /// embedded channel, which has no socket buffer) is taken at its word.
    private var clientFellBehind: Bool {
        guard !channel.isWritable else { return false }
        guard let waiting = try? channel.syncOptions?.getOption(.bufferedWritableBytes), waiting > 0 else {
            return true
        }
        return waiting > outboundLimit
    }

    /// Schedules the write of the first held event at its deadline.
    private func scheduleHeldFlush() {
        guard !state.value.flushScheduled, let first = state.value.held.first else { return }
        state.value.flushScheduled = true
        channel.eventLoop.scheduleTask(deadline: first.notBefore ?? channel.eventLoop.now) { [self] in
            state.value.flushScheduled = false
            let now = channel.eventLoop.now
            while let next = state.value.held.first, (next.notBefore ?? now) <= now {
                state.value.held.removeFirst()
                send(next.bytes)
            }
            if state.value.held.isEmpty {
                if state.value.closeWhenWritten { closeAfterWrites() }
            } else {
                scheduleHeldFlush()
            }
        }
    }

    /// Closes the connection once every line already handed to it has been written.
    func close() {
        channel.eventLoop.execute { [self] in
            if state.value.held.isEmpty {
                closeAfterWrites()
            } else {
                state.value.closeWhenWritten = true
            }
        }
    }

    /// Closes the connection once every write made so far has completed: an empty write's
    /// promise, since writes complete in order. Call on the event loop.
    private func closeAfterWrites() {
        guard !state.value.closed else { return }
        state.value.closed = true
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { [channel] _ in
            channel.close(promise: nil)
        }
    }
}

/// What a ``ConnectionSink`` keeps on its event loop (a type of its own, outside the generic sink,
/// so that reaching it costs no generic metadata lookup per write).
private struct ConnectionSinkState {
    /// The sink has closed, or is closing, the connection.
    var closed = false
    /// Events held until their deadline, in order.
    var held: Deque<FrontEndOutput.Write> = []
    /// A task is scheduled to write the first held event.
    var flushScheduled = false
    /// Close once the held events are written.
    var closeWhenWritten = false
    /// Answers the dispatcher owes the connection: inputs handed to it whose answer has not
    /// been written (or held) yet.
    var owedAnswers = 0
    /// The buffer of the last direct write, kept for the next one: once the kernel has taken
    /// the bytes, the channel lets go of it and the next reply is written into the same
    /// memory (nil until the first direct write, and after one too large to keep).
    var directBuffer: ByteBuffer?
}
