// SPDX-License-Identifier: Apache-2.0
internal import NIOCore

/// Splits the daemon's bytes into lines (``LineSplitter``, at the protocol's line limit) and hands
/// each decoded event on; reports when the connection closes. Lines this version cannot read are
/// skipped; a line past the limit means framing is lost, so the connection is closed.
final class EventLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var splitter = LineSplitter()
    private let onEvent: @Sendable (Event) -> Void
    private let onClose: @Sendable () -> Void

    init(onEvent: @escaping @Sendable (Event) -> Void, onClose: @escaping @Sendable () -> Void) {
        self.onEvent = onEvent
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        let onEvent = onEvent
        do {
            try chunk.withUnsafeReadableBytes { bytes in
                try splitter.split(bytes) { line in
                    if let event = try? Event(line: line) { onEvent(event) }
                }
            }
        } catch {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
