import AnnounceCore
import AnnounceProtocol
import NIOCore

/// Sends the dispatcher's lines to one connection, and closes the connection when its client
/// leaves more than `maxOutboundBytes` unread (a slow reader must not grow the daemon's memory).
final class ConnectionSink: EventSink, Sendable {
    let id: ClientID
    let channel: any Channel
    private let state: NIOLoopBoundBox<State>
    private let maxOutboundBytes: Int

    private struct State {
        var unwrittenBytes = 0
        var lastWrite: EventLoopFuture<Void>?
        var closed = false
    }

    init(id: ClientID, channel: any Channel, maxOutboundBytes: Int) {
        self.id = id
        self.channel = channel
        self.maxOutboundBytes = maxOutboundBytes
        self.state = NIOLoopBoundBox.makeBoxSendingValue(State(), eventLoop: channel.eventLoop)
    }

    func deliver(_ events: [Event]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 64)
        for event in events { event.json.write(to: &bytes); bytes.append(UInt8(ascii: "\n")) }
        let count = bytes.count
        channel.eventLoop.execute { [self, bytes] in
            guard !state.value.closed else { return }
            if state.value.unwrittenBytes + count > maxOutboundBytes {
                state.value.closed = true
                channel.close(promise: nil)
                return
            }
            state.value.unwrittenBytes += count
            let buffer = channel.allocator.buffer(bytes: bytes)
            let write = channel.writeAndFlush(buffer)
            state.value.lastWrite = write
            write.whenComplete { [self] _ in state.value.unwrittenBytes -= count }
        }
    }

    /// Returns once every line already handed to the connection has been written (or failed).
    func flushed() async {
        let last = try? await channel.eventLoop.submit { [self] in
            state.value.lastWrite ?? channel.eventLoop.makeSucceededVoidFuture()
        }.get()
        _ = try? await last?.get()
    }

    /// Closes the connection once every line already handed to it has been written.
    func closeAfterFlush() {
        channel.eventLoop.execute { [self] in
            state.value.closed = true
            let last = state.value.lastWrite ?? channel.eventLoop.makeSucceededVoidFuture()
            last.whenComplete { [channel] _ in channel.close(promise: nil) }
        }
    }
}
