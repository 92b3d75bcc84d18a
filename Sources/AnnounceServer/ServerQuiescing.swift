// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore

/// Graceful shutdown of the server socket and its connections: NIOExtras'
/// `ServerQuiescingHelper` pattern, in the few lines this server needs. (NIOExtras itself links
/// NIOHTTP1 and llhttp into the daemon, which would make its executable and its resident memory
/// larger for code it never runs.)
///
/// Added to the server channel's pipeline, it sees every accepted connection; on shutdown it
/// closes the server socket, sends each open connection `ChannelShouldQuiesceEvent` (the
/// connection closes after its last lines), and completes once every connection has closed.
/// Its state is used only on the server channel's event loop.
final class ServerQuiescing: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private var open: [ObjectIdentifier: any Channel] = [:]
    /// Set once shutdown began; completed when the last connection closes.
    private var allClosed: EventLoopPromise<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        let id = ObjectIdentifier(connection)
        open[id] = connection
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        connection.closeFuture.hop(to: context.eventLoop).whenComplete { _ in this.value.closed(id) }
        if allClosed != nil {
            connection.eventLoop.execute {
                connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
        context.fireChannelRead(data)
    }

    private func closed(_ id: ObjectIdentifier) {
        open[id] = nil
        if open.isEmpty, let allClosed {
            allClosed.succeed()
        }
    }

    /// Closes `serverChannel` and asks every connection to close after its last lines;
    /// `promise` completes when all have closed. Calling it again only waits for the same end.
    static func shutDown(_ serverChannel: any Channel, promise: EventLoopPromise<Void>) {
        serverChannel.eventLoop.execute {
            guard let handler = try? serverChannel.pipeline.syncOperations.handler(type: ServerQuiescing.self) else {
                promise.succeed()
                return
            }
            handler.shutDown(serverChannel, promise: promise)
        }
    }

    private func shutDown(_ serverChannel: any Channel, promise: EventLoopPromise<Void>) {
        if let allClosed {
            if allClosed.futureResult !== promise.futureResult { allClosed.futureResult.cascade(to: promise) }
            return
        }
        allClosed = promise
        serverChannel.close(promise: nil)
        for connection in open.values {
            connection.eventLoop.execute {
                connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
        if open.isEmpty { promise.succeed() }
    }
}
