// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceServer
import Glibc
import Logging
import NIOCore
public import NIOEmbedded

/// A server whose connections are `EmbeddedChannel`s, with a real dispatcher on manual turns and
/// a ``SilentBackend``: the JSON lines (`ServerHarness`) and SSIP (`SSIPHarness`) harnesses are
/// this with their front end.
///
/// The server sets a connection up with an internal method, so each test target hands in the
/// call (`configure`), made with its `@testable import AnnounceServer`.
@MainActor
public struct EmbeddedServerHarness<Front: FrontEnd> {
    /// Sets `channel` up as the server's initializer does for a peer of `uid` on `frontEnd`.
    public typealias Configure = @MainActor (AnnounceServer, EmbeddedChannel, _ uid: UInt32, Front) throws -> Void

    /// The dispatcher's turns, run when the test says so.
    public let turns = ManualTurns()
    /// The backend the dispatcher speaks to.
    public let backend = SilentBackend()
    /// The real dispatcher.
    public let dispatcher: Dispatcher
    /// The real server, never started: the test makes its connections.
    public let server: AnnounceServer
    /// The front end every connection of the harness speaks.
    public let frontEnd: Front
    private let configure: Configure

    /// A harness for `server`'s configuration (its socket is never made) serving `frontEnd`;
    /// `ssip` is what the server is given as its SSIP front end.
    public init(
        dispatcher dispatcherConfiguration: DispatcherConfiguration = DispatcherConfiguration(),
        server serverConfiguration: ServerConfiguration, frontEnd: Front, ssip: (any FrontEnd)? = nil,
        configure: @escaping Configure
    ) {
        dispatcher = Dispatcher(configuration: dispatcherConfiguration, scheduleTurn: turns.scheduler)
        dispatcher.attach(backend)
        server = AnnounceServer(
            configuration: serverConfiguration, dispatcher: dispatcher, logger: Logger(label: "test"), ssip: ssip)
        self.frontEnd = frontEnd
        self.configure = configure
    }

    /// A connection from a peer of `uid` (the test's own by default), set up as the server's
    /// initializer does, then made active.
    public func connect(uid: UInt32? = nil) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try configure(server, channel, uid ?? getuid(), frontEnd)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer")).wait()
        return channel
    }

    /// Runs the dispatcher's turns and the channel's loop until neither has work left.
    public func settle(_ channel: EmbeddedChannel) {
        turns.run()
        channel.embeddedEventLoop.run()
    }
}

extension EmbeddedChannel {
    /// Writes `text` as one read from the client.
    public func receive(_ text: String) throws {
        try writeInbound(allocator.buffer(string: text))
    }

    /// Every write the connection has made so far, one string each.
    public func writes() throws -> [String] {
        var writes: [String] = []
        while var buffer = try readOutbound(as: ByteBuffer.self) {
            writes.append(buffer.readString(length: buffer.readableBytes) ?? "")
        }
        return writes.filter { !$0.isEmpty }
    }
}
