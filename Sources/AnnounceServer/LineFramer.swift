import AnnounceProtocol
import NIOCore

/// Splits a connection's bytes into lines, decodes them and hands them to the dispatcher: one
/// batch per read, so the dispatcher decides the lines of one read together. A line longer than
/// `maxLineBytes` gets `line-too-long` and the connection is closed, since framing is lost.
///
/// The batches go to the dispatcher straight from the event loop, not through the connection's
/// task: under load every thread hop is a wait for a core, and this one would be made for
/// every read. Nothing is read until ``attach(to:_:)`` names where the batches go (the connection is
/// registered with the dispatcher by then), so no line can overtake the registration; what NIO
/// reads before that anyway is held until then.
final class LineFramer: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    /// Nothing goes further down the pipeline: the connection's inbound stream only ends.
    typealias InboundOut = Never
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Where a read's batch goes; called on the event loop.
    typealias Submit = @Sendable ([Result<RequestLine, RequestError>]) -> Void

    private let maxLineBytes: Int
    private let limits: DecodingLimits
    private var partial: ByteBuffer?
    private var closing = false
    private var submit: Submit?
    /// A read the channel asked for before ``attach(to:_:)``, made once attached.
    private var readHeld = false
    /// Batches read before ``attach(to:_:)`` (NIO drains the socket when it sees the client's end of
    /// stream, asked or not), submitted once attached.
    private var heldBatches: [[Result<RequestLine, RequestError>]] = []

    init(maxLineBytes: Int, limits: DecodingLimits) {
        self.maxLineBytes = maxLineBytes
        self.limits = limits
    }

    /// Starts reading `channel`, handing each read's batch to `submit` on its event loop.
    static func attach(to channel: any Channel, _ submit: @escaping Submit) async throws {
        try await channel.eventLoop.submit {
            let context = try channel.pipeline.syncOperations.context(handlerType: LineFramer.self)
            (context.handler as! LineFramer).attach(submit, context: context)
        }.get()
    }

    private func attach(_ submit: @escaping Submit, context: ChannelHandlerContext) {
        self.submit = submit
        for batch in heldBatches { submit(batch) }
        heldBatches = []
        if readHeld {
            readHeld = false
            context.read()
        }
    }

    func read(context: ChannelHandlerContext) {
        if submit == nil {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        var incoming = unwrapInboundIn(data)
        var batch: [Result<RequestLine, RequestError>] = []
        var tooLong = false
        while let newline = incoming.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - incoming.readerIndex
            let pendingLength = partial?.readableBytes ?? 0
            if pendingLength + length > maxLineBytes {
                tooLong = true
                break
            }
            var line = incoming.readSlice(length: length)!
            incoming.moveReaderIndex(forwardBy: 1)
            if var head = partial {
                head.writeBuffer(&line)
                line = head
                partial = nil
            }
            if line.readableBytes == 0 || (line.readableBytes == 1 && line.readableBytesView.first == UInt8(ascii: "\r")) {
                continue  // blank lines are ignored
            }
            batch.append(line.withUnsafeReadableBytes { RequestLine.decode(line: $0, limits: limits) })
        }
        if !tooLong, incoming.readableBytes > 0 {
            if (partial?.readableBytes ?? 0) + incoming.readableBytes > maxLineBytes {
                tooLong = true
            } else if partial == nil {
                partial = incoming
            } else {
                partial!.writeBuffer(&incoming)
            }
        }
        if !batch.isEmpty {
            if let submit { submit(batch) } else { heldBatches.append(batch) }
        }
        if tooLong { closeForLongLine(context: context) }
    }

    private func closeForLongLine(context: ChannelHandlerContext) {
        closing = true
        partial = nil
        let error = Event.error(id: nil, code: .lineTooLong, message: "a line is longer than \(maxLineBytes) bytes; the connection is closed because framing is lost")
        let buffer = context.channel.allocator.buffer(bytes: error.line)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
