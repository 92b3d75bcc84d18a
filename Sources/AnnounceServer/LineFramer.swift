import AnnounceProtocol
import NIOCore

/// Splits a connection's bytes into lines and decodes them: one batch per read, so the
/// dispatcher decides the lines of one read together. A line longer than `maxLineBytes` gets
/// `line-too-long` and the connection is closed, since framing is lost.
final class LineFramer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = [Result<RequestLine, RequestError>]
    typealias OutboundOut = ByteBuffer

    private let maxLineBytes: Int
    private let limits: DecodingLimits
    private var partial: ByteBuffer?
    private var closing = false

    init(maxLineBytes: Int, limits: DecodingLimits) {
        self.maxLineBytes = maxLineBytes
        self.limits = limits
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
        if !batch.isEmpty { context.fireChannelRead(wrapInboundOut(batch)) }
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
