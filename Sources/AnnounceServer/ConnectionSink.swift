import AnnounceCore
import AnnounceProtocol
import NIOCore

/// Sends the dispatcher's lines to one connection in its front-end's protocol, and closes the
/// connection when its client leaves more than `max_outbound_bytes` unread (a slow reader must
/// not grow the daemon's memory).
///
/// The limit is the channel's high write-buffer water mark (set by the server): what the kernel
/// did not take waits in the channel, and once more than the limit waits, the channel is no
/// longer writable. So a write needs no promise of its own (writes complete in order; waiting
/// for "everything written" is an empty write's promise).
final class ConnectionSink<Encoder: FrontEndEncoder>: EventSink, Sendable {
    let channel: any Channel
    let encoder: Encoder
    /// Whether the sink has closed, or is closing, the connection. Used on the event loop only.
    private let closed: NIOLoopBoundBox<Bool>

    init(channel: any Channel, encoder: Encoder) {
        self.channel = channel
        self.encoder = encoder
        self.closed = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: channel.eventLoop)
    }

    func deliver(_ events: [Event]) {
        var bytes: [UInt8] = []
        encoder.encode(events, into: &bytes)
        channel.eventLoop.execute { [self, bytes] in
            guard !closed.value else { return }
            channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
            if !channel.isWritable {
                closed.value = true
                channel.close(promise: nil)
            }
        }
    }

    /// Closes the connection once every line already handed to it has been written.
    func close() {
        channel.eventLoop.execute { [self] in closeAfterWrites() }
    }

    /// Closes the connection once every write made so far has completed: an empty write's
    /// promise, since writes complete in order. Call on the event loop.
    private func closeAfterWrites() {
        guard !closed.value else { return }
        closed.value = true
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { [channel] _ in
            channel.close(promise: nil)
        }
    }
}
