// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
import Glibc
public import Logging
import NIOCore
import NIOPosix

/// How the server listens and what it allows.
public struct ServerConfiguration: Sendable {
    /// The socket to create (ignored when `activationSocket` is set).
    public var location: SocketLocation
    /// The socket's path.
    public var socketPath: String { location.path }
    /// A listening socket passed by systemd; served as is and never unlinked.
    public var activationSocket: Int32?
    /// The longest request line, in bytes.
    public var maxLineBytes = LineSplitter.protocolMaxLineBytes
    /// The most unread bytes a client may leave before it is disconnected.
    public var maxOutboundBytes = 1 << 20
    /// Users besides the daemon's own who may connect.
    public var allowUIDs: [UInt32] = []
    /// The decoder's limits.
    public var limits = DecodingLimits()
    /// The socket for speech-dispatcher's protocol (SSIP), or nil when SSIP is off (ignored when
    /// `ssipActivationSocket` is set).
    public var ssipLocation: SocketLocation?
    /// A listening SSIP socket passed by systemd; served as is and never unlinked.
    public var ssipActivationSocket: Int32?

    /// Creates a configuration with the protocol's default limits.
    public init(location: SocketLocation, activationSocket: Int32? = nil) {
        self.location = location
        self.activationSocket = activationSocket
    }

    /// Creates a configuration for a socket path named explicitly.
    public init(socketPath: String, activationSocket: Int32? = nil) {
        self.init(location: SocketLocation(path: socketPath, isDefault: false), activationSocket: activationSocket)
    }
}

/// The Unix socket server: accepts connections, checks peers and serves each connection through
/// a front-end on its event loop: JSON lines (``JSONLinesFrontEnd``) on the main socket and, when
/// configured, speech-dispatcher's SSIP on a second one. The front-end's decoder hands what it
/// decodes to the dispatcher, and the dispatcher's answers go back through its encoder.
///
/// Each socket is served by a service of the daemon's group (``frontEndServices(onReady:)``); on
/// graceful shutdown the dispatcher has already ended every post (its service shuts down first),
/// then each front end closes its socket, every connection closes after its last lines, and the
/// socket files are removed.
public final class AnnounceServer: Sendable {
    let configuration: ServerConfiguration
    let dispatcher: Dispatcher
    let frontEnd: any FrontEnd
    let ssipFrontEnd: (any FrontEnd)?
    let logger: Logger
    let group: MultiThreadedEventLoopGroup
    let numbers = ConnectionNumbers()

    /// Creates a server for `dispatcher` speaking the JSON lines protocol, and `ssip` on the
    /// configuration's SSIP socket when both are given.
    public init(configuration: ServerConfiguration, dispatcher: Dispatcher, logger: Logger, ssip: (any FrontEnd)? = nil)
    {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.frontEnd = JSONLinesFrontEnd(maxLineBytes: configuration.maxLineBytes, limits: configuration.limits)
        self.ssipFrontEnd = ssip
        self.logger = logger
        self.group = .singleton
    }

    /// A new client number, from the same count as the connections' (unique for the daemon's
    /// lifetime): for a front end that is not a socket, such as the toolkit announcements of one
    /// application on the accessibility bus.
    public func reserveClientID() -> ClientID {
        numbers.next()
    }

    /// Starts the event loop threads the server will use, so that a daemon can do it while it
    /// waits for something else at startup (the espeak-ng helper) instead of after.
    public static func prepareEventLoops() {
        _ = MultiThreadedEventLoopGroup.singleton.any()
    }

    /// One service per socket to serve: JSON lines on the main socket, then SSIP when it is
    /// configured. They bind their sockets one at a time, in this order, and `onReady` runs once,
    /// when every one of them serves its socket.
    public func frontEndServices(onReady: @escaping @Sendable () -> Void) -> [FrontEndService] {
        var sockets: [(frontEnd: any FrontEnd, location: SocketLocation?, activationSocket: Int32?)] = [
            (frontEnd, configuration.location, configuration.activationSocket)
        ]
        if let ssipFrontEnd, configuration.ssipLocation != nil || configuration.ssipActivationSocket != nil {
            sockets.append((ssipFrontEnd, configuration.ssipLocation, configuration.ssipActivationSocket))
        }
        let startup = SocketStartup(count: sockets.count, onReady: onReady)
        return sockets.enumerated().map { index, socket in
            FrontEndService(
                server: self, frontEnd: socket.frontEnd, location: socket.location,
                activationSocket: socket.activationSocket,
                index: index, startup: startup
            )
        }
    }

    /// One listening socket, the socket file it owns and that file's lock (none under socket
    /// activation).
    struct Listener {
        let channel: any Channel
        let ownedPath: String?
        let lock: SocketFileLock?
    }

    /// Binds one socket for `frontEnd` (or serves the one systemd passed) and logs it.
    func listen<F: FrontEnd>(_ frontEnd: F, location: SocketLocation?, activationSocket: Int32?) async throws
        -> Listener
    {
        let (channel, lock) = try await bind(frontEnd, location: location, activationSocket: activationSocket)
        let ownedPath = activationSocket == nil ? location?.path : nil
        // Under socket activation the socket is whatever systemd passed, wherever it is.
        let served = ownedPath ?? channel.localAddress?.pathname ?? "the socket systemd passed"
        logger.info(
            "serving",
            metadata: [
                "socket": "\(served)", "protocol": "\(frontEnd.protocolName)", "activated": "\(ownedPath == nil)",
            ])
        return Listener(channel: channel, ownedPath: ownedPath, lock: lock)
    }

    /// The bound channel, and the lock on its socket file that this daemon holds while it serves
    /// it (nil for the socket systemd passed).
    func bind<F: FrontEnd>(_ frontEnd: F, location: SocketLocation?, activationSocket: Int32?) async throws
        -> (any Channel, SocketFileLock?)
    {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ServerQuiescing())
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // ConnectionSink closes a connection that is no longer writable: max_outbound_bytes unread.
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: configuration.maxOutboundBytes / 2, high: configuration.maxOutboundBytes)
            )
            .childChannelInitializer { [self] channel in
                PeerCredentials.of(channel).flatMapThrowing { peer in
                    try self.configure(channel, peer: peer, frontEnd: frontEnd)
                }
            }
        if let fd = activationSocket {
            return (try await bootstrap.withBoundSocket(fd).get(), nil)
        }
        guard let location else {
            throw SocketSetupError(description: "no socket to serve \(frontEnd.protocolName) on")
        }
        let role: SocketRole = frontEnd.protocolName == "ssip" ? .ssip : .main
        let lock = try SocketPreparation.prepare(location, role: role)
        let previous = umask(0o177)
        defer { umask(previous) }
        do {
            return (try await bootstrap.bind(unixDomainSocketPath: location.path).get(), lock)
        } catch let error as IOError {
            lock.release()
            throw SocketSetupError(
                description: SocketPreparation.cannotCreate(location.path, error.errnoCode, role: role))
        }
    }

    /// Sets up a new connection on its event loop: refuses a peer of another user, or numbers the
    /// connection, opens it with the dispatcher (an inbox entry, so every line it sends is
    /// decided after it) and adds its front-end.
    func configure<F: FrontEnd>(_ channel: any Channel, peer: PeerCredentials?, frontEnd: F) throws {
        guard let peer, peer.uid == getuid() || configuration.allowUIDs.contains(peer.uid) else {
            logger.warning(
                "refused a peer of another user", metadata: ["uid": "\(peer.map { String($0.uid) } ?? "unknown")"])
            let line = frontEnd.refusal(
                "this daemon serves only user \(getuid()); add your uid to allow_uids in its config to be served")
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: line))
            return
        }
        let id = numbers.next()
        let sink = ConnectionSink(
            channel: channel, encoder: frontEnd.makeEncoder(for: id), outboundLimit: configuration.maxOutboundBytes)
        dispatcher.open(
            ClientRegistration(id: id, pid: peer.pid, sink: sink, protocolName: frontEnd.protocolName, uid: peer.uid))
        try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(id: id, dispatcher: dispatcher, decoder: frontEnd.makeDecoder(for: id), sink: sink)
        )
    }
}
