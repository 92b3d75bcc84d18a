// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import NIOCore

/// One connection of a front-end, on its event loop: decodes each read and hands it to the
/// dispatcher, and tells the dispatcher when the client finished sending and when the connection
/// closed. Nothing here waits: what the dispatcher answers comes back through the connection's
/// ``ConnectionSink``.
final class ConnectionHandler<Decoder: FrontEndDecoder, Encoder: FrontEndEncoder>: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let id: ClientID
    let dispatcher: Dispatcher
    let sink: ConnectionSink<Encoder>
    private var decoder: Decoder
    /// Set once the client finished sending or framing is lost: nothing more is decoded.
    private var done = false

    init(id: ClientID, dispatcher: Dispatcher, decoder: Decoder, sink: ConnectionSink<Encoder>) {
        self.id = id
        self.dispatcher = dispatcher
        self.decoder = decoder
        self.sink = sink
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        var bytes = unwrapInboundIn(data)
        hand(decoder.decode(&bytes))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            // The client half-closed: what it left unfinished is its last line, and the
            // dispatcher closes the connection after that client's last terminal line.
            guard !done else { return }
            hand(decoder.decodeLast())
            if !done {
                done = true
                dispatcher.finishedSending(id)
            }
        case is ChannelShouldQuiesceEvent:
            // Graceful shutdown: every post has ended by now; close after the last lines.
            sink.close()
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        decoder.closed()
        dispatcher.closed(id)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func hand(_ decoded: DecodedInput) {
        if decoded.inputs.contains(where: { $0.answerLines > 0 }) {
            handCountingAnswers(decoded.inputs)
        } else if !decoded.inputs.isEmpty {
            dispatcher.submit(decoded.inputs, from: id)
        }
        if decoded.framingLost {
            done = true
            dispatcher.hangUp(id)
        }
    }
}

extension ConnectionHandler {
    /// Hands `inputs` to the dispatcher, except a front-end's own replies that have nothing ahead
    /// of them, which the sink writes at once (clients such as Orca and python3-speechd wait for
    /// each reply before they send the next command). A message with nothing ahead of it is
    /// answered `queued` here too, under a sequence number reserved now, and handed over as
    /// already answered (``ClientInput/queuedMessage(_:seq:)``); its events come from the
    /// dispatcher, after this write. Once an input that the dispatcher answers is handed over,
    /// every later one follows it, and the sink counts the answers owed.
    private func handCountingAnswers(_ inputs: [ClientInput]) {
        // The replies written from here gather in one buffer (the sink's, reused), one write.
        var replies = sink.mayWriteDirectly ? sink.startDirectWrite() : nil
        var handed: [ClientInput] = []
        var owed = 0
        for input in inputs {
            switch input {
            case .answered(let reply) where replies != nil && owed == 0:
                sink.appendDirectly(.reply(reply), to: &replies!)
            case .message(let message) where replies != nil && owed == 0:
                let seq = dispatcher.reserveSequenceNumber()
                sink.appendDirectly(.event(.queued(id: message.id, seq: seq, warning: nil)), to: &replies!)
                handed.append(.queuedMessage(message, seq: seq))
            default:
                owed += input.answerLines
                handed.append(input)
            }
        }
        // The replies come before anything handed over that is answered (a name is not).
        if let replies { sink.finishDirectWrite(replies) }
        if owed > 0 { sink.owe(owed) }
        if !handed.isEmpty { dispatcher.submit(handed, from: id) }
    }
}

/// Sends a peer of another user one line saying so, then closes its connection.
///
/// The line is followed by the end of the stream, and the connection is closed once the peer has
/// closed its side too (or after `lingerLimit`): closing while the peer is still writing its
/// first request would make its write fail before it reads the line.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let line: [UInt8]
    /// How long a refused peer may keep its side open after the line.
    static let lingerLimit = TimeAmount.seconds(2)

    init(line: [UInt8]) {
        self.line = line
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func refuse(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: line))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        channel.eventLoop.scheduleTask(in: Self.lingerLimit) { channel.close(promise: nil) }
    }
}
