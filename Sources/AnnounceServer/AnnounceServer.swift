public import AnnounceCore
public import AnnounceProtocol
import Glibc
public import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle

/// How the server listens and what it allows.
public struct ServerConfiguration: Sendable {
    /// The socket path to create (ignored when `activationSocket` is set, except for logs).
    public var socketPath: String
    /// A listening socket passed by systemd; served as is and never unlinked.
    public var activationSocket: Int32?
    /// The longest request line, in bytes.
    public var maxLineBytes = 65536
    /// The most unread bytes a client may leave before it is disconnected.
    public var maxOutboundBytes = 1 << 20
    /// Users besides the daemon's own who may connect.
    public var allowUIDs: [UInt32] = []
    /// The decoder's limits.
    public var limits = DecodingLimits()

    /// Creates a configuration with the protocol's default limits.
    public init(socketPath: String, activationSocket: Int32? = nil) {
        self.socketPath = socketPath
        self.activationSocket = activationSocket
    }
}

/// The Unix socket server: accepts connections, checks peers, frames and decodes lines, hands
/// them to the dispatcher and writes its answers back. On graceful shutdown every post ends
/// `shutdown`, every connection gets its last lines, and the socket file is removed.
public final class AnnounceServer: Service {
    let configuration: ServerConfiguration
    let dispatcher: Dispatcher
    let logger: Logger
    let group: MultiThreadedEventLoopGroup
    let onReady: @Sendable () -> Void

    /// Creates a server for `dispatcher`. `onReady` runs once the socket is served.
    public init(
        configuration: ServerConfiguration, dispatcher: Dispatcher, logger: Logger,
        onReady: @escaping @Sendable () -> Void = {}
    ) {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.logger = logger
        self.group = .singleton
        self.onReady = onReady
    }

    /// Starts the event loop threads the server will use, so that a daemon can do it while it
    /// waits for something else at startup (the espeak-ng helper) instead of after.
    public static func prepareEventLoops() {
        _ = MultiThreadedEventLoopGroup.singleton.any()
    }

    /// Serves until graceful shutdown.
    public func run() async throws {
        let serverChannel = try await bind()
        let registry = ConnectionRegistry()
        let ownsSocketFile = configuration.activationSocket == nil
        logger.info("serving", metadata: ["socket": "\(configuration.socketPath)", "activated": "\(!ownsSocketFile)"])
        onReady()
        defer {
            if ownsSocketFile { unlink(configuration.socketPath) }
        }
        let dispatcher = self.dispatcher
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await serverChannel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await self.serve(connection, registry: registry) }
                    }
                }
            }
        } onGracefulShutdown: { [logger] in
            logger.info("shutting down: ending every post")
            Task {
                await dispatcher.shutdown()
                registry.closeAllAfterFlush()
                serverChannel.channel.close(promise: nil)
            }
        }
        logger.info("stopped")
    }

    /// A connection: its lines go to the dispatcher from the event loop (``LineFramer``), so its
    /// inbound stream carries nothing and only ends, when the client stops sending.
    typealias Connection = NIOAsyncChannel<Never, ByteBuffer>

    func bind() async throws -> NIOAsyncChannel<Connection, Never> {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // ConnectionSink closes a connection that is no longer writable: max_outbound_bytes unread.
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: configuration.maxOutboundBytes / 2, high: configuration.maxOutboundBytes)
            )
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Connection> = { [configuration] channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    LineFramer(maxLineBytes: configuration.maxLineBytes, limits: configuration.limits)
                )
                return try Connection(wrappingChannelSynchronously: channel)
            }
        }
        if let fd = configuration.activationSocket {
            return try await bootstrap.bind(fd, childChannelInitializer: initializer)
        }
        try SocketPreparation.prepare(path: configuration.socketPath)
        let previous = umask(0o177)
        defer { umask(previous) }
        return try await bootstrap.bind(unixDomainSocketPath: configuration.socketPath, childChannelInitializer: initializer)
    }

    func serve(_ connection: Connection, registry: ConnectionRegistry) async {
        let peer = await PeerCredentials.of(connection.channel)
        guard let peer, peer.uid == getuid() || configuration.allowUIDs.contains(peer.uid) else {
            logger.warning("refused a peer of another user", metadata: ["uid": "\(peer.map { String($0.uid) } ?? "unknown")"])
            let line = Event.error(id: nil, code: .forbidden, message: "this daemon serves only user \(getuid()); add your uid to allow_uids in its config to be served").line
            _ = try? await connection.channel.writeAndFlush(connection.channel.allocator.buffer(bytes: line)).get()
            _ = try? await connection.channel.close()
            return
        }
        guard let sink = registry.add({ ConnectionSink(id: $0, channel: connection.channel) }) else {
            _ = try? await connection.channel.close()
            return
        }
        let id = sink.id
        await dispatcher.connect(ClientRegistration(id: id, pid: peer.pid, sink: sink))
        do {
            try await LineFramer.attach(to: connection.channel) { [dispatcher] in dispatcher.submit($0, from: id) }
            try await connection.executeThenClose { inbound, _ in
                for try await _ in inbound {}
                // The client finished sending: answer everything it asked, then close.
                await dispatcher.waitUntilIdle(client: id)
                await sink.flushed()
            }
        } catch {
            logger.debug("connection ended", metadata: ["client": "\(id)", "error": "\(error)"])
        }
        registry.remove(id)
        await dispatcher.disconnect(id)
    }
}
