import AnnounceCore
import AnnounceProtocol
import NIOCore

/// Sends the dispatcher's lines to one connection, and closes the connection when its client
/// leaves more than `max_outbound_bytes` unread (a slow reader must not grow the daemon's memory).
///
/// The limit is the channel's high write-buffer water mark (set by the server): what the kernel
/// did not take waits in the channel, and once more than the limit waits, the channel is no
/// longer writable. So a write needs no promise of its own (writes complete in order; waiting
/// for "everything written" is an empty write's promise).
final class ConnectionSink: EventSink, Sendable {
    let id: ClientID
    let channel: any Channel
    /// Whether the sink has closed, or is closing, the connection. Used on the event loop only.
    private let closed: NIOLoopBoundBox<Bool>

    init(id: ClientID, channel: any Channel) {
        self.id = id
        self.channel = channel
        self.closed = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: channel.eventLoop)
    }

    func deliver(_ events: [Event]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 64)
        for event in events { event.json.write(to: &bytes); bytes.append(UInt8(ascii: "\n")) }
        channel.eventLoop.execute { [self, bytes] in
            guard !closed.value else { return }
            channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
            if !channel.isWritable {
                closed.value = true
                channel.close(promise: nil)
            }
        }
    }

    /// Returns once every line already handed to the connection has been written (or failed).
    func flushed() async {
        _ = try? await channel.eventLoop.flatSubmit { [self] in allWritten() }.get()
    }

    /// Closes the connection once every line already handed to it has been written.
    func closeAfterFlush() {
        channel.eventLoop.execute { [self] in
            closed.value = true
            allWritten().whenComplete { [channel] _ in channel.close(promise: nil) }
        }
    }

    /// Completes when every write made so far has: an empty write, since writes complete in
    /// order. Call on the event loop.
    private func allWritten() -> EventLoopFuture<Void> {
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0))
    }
}
