import NIOCore
import NIOEmbedded
import POSIXThreads
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceServer

/// Whether a future has completed, asked without waiting.
final class Completion: Sendable {
    private let done = LockedValue(false)
    init(_ future: EventLoopFuture<Void>) {
        future.whenSuccess { self.done.withLock { $0 = true } }
    }
    var happened: Bool { done.withLock { $0 } }
}

/// Records whether a connection was asked to quiesce.
final class QuiesceRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    var asked = false
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { asked = true }
    }
}

@MainActor
@Suite("Graceful shutdown of the server socket and its connections")
struct ServerQuiescingTests {
    @Test("shutdown closes the server socket, asks each connection to quiesce, and completes when the last one closed")
    func shutdown() throws {
        let server = EmbeddedChannel(handler: ServerQuiescing())
        let recorder = QuiesceRecorder()
        let connection = EmbeddedChannel(handler: recorder)
        try server.writeInbound(connection as any Channel)
        _ = try server.readInbound(as: (any Channel).self)

        let done = server.embeddedEventLoop.makePromise(of: Void.self)
        ServerQuiescing.shutDown(server, promise: done)
        server.embeddedEventLoop.run()
        connection.embeddedEventLoop.run()
        #expect(!server.isActive, "no new connections")
        #expect(recorder.asked)
        let completion = Completion(done.futureResult)
        #expect(!completion.happened, "a connection is still open")

        _ = try connection.finish()
        connection.embeddedEventLoop.run()
        server.embeddedEventLoop.run()
        #expect(completion.happened)
    }

    @Test("with no connection open, shutdown completes at once")
    func shutdownWithoutConnections() {
        let server = EmbeddedChannel(handler: ServerQuiescing())
        let done = server.embeddedEventLoop.makePromise(of: Void.self)
        ServerQuiescing.shutDown(server, promise: done)
        server.embeddedEventLoop.run()
        #expect(Completion(done.futureResult).happened)
    }
}
