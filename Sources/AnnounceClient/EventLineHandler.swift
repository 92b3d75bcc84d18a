internal import NIOCore

/// Splits the daemon's bytes into lines and hands each decoded event on; reports when the
/// connection closes. Lines this version cannot read are skipped.
final class EventLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var buffered: [UInt8] = []
    private let onEvent: @Sendable (Event) -> Void
    private let onClose: @Sendable () -> Void

    init(onEvent: @escaping @Sendable (Event) -> Void, onClose: @escaping @Sendable () -> Void) {
        self.onEvent = onEvent
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        buffered.append(contentsOf: chunk.readableBytesView)
        var start = buffered.startIndex
        while let newline = buffered[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if let event = try? Event(line: buffered[start..<newline]) { onEvent(event) }
            start = newline + 1
        }
        buffered.removeSubrange(..<start)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
