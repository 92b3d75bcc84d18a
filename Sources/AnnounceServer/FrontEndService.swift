// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Glibc
import NIOCore
import POSIXThreads
public import ServiceLifecycle

/// One front end's socket as a service of the daemon's group: binds it (or serves the one
/// systemd passed), serves its connections until graceful shutdown, then closes the socket, lets
/// every connection close after its last lines (``ServerQuiescing``) and removes the socket file.
public struct FrontEndService: Service {
    let server: AnnounceServer
    let frontEnd: any FrontEnd
    let location: SocketLocation?
    let activationSocket: Int32?
    let readiness: Readiness

    /// `ssip` or `json`: the protocol it serves, for the group's log.
    public var protocolName: String { frontEnd.protocolName }

    /// Serves until graceful shutdown (or cancellation), and until every connection has closed.
    public func run() async throws {
        let listener = try await server.listen(frontEnd, location: location, activationSocket: activationSocket)
        defer {
            if let path = listener.ownedPath { unlink(path) }
        }
        readiness.served()
        let closed = listener.channel.eventLoop.makePromise(of: Void.self)
        let channel = listener.channel
        // Shutdown and cancellation both close the socket; the connections close after their
        // last lines, which the dispatcher's service handed them before this service was asked.
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await closed.futureResult.get()
            } onCancel: {
                ServerQuiescing.shutDown(channel, promise: closed)
            }
        } onGracefulShutdown: {
            ServerQuiescing.shutDown(channel, promise: closed)
        }
        server.logger.info("stopped serving", metadata: ["protocol": "\(frontEnd.protocolName)"])
    }
}

/// Counts the front ends that serve their sockets, and runs `onReady` once when all do (the
/// daemon's `READY=1`).
final class Readiness: Sendable {
    private let remaining: LockedValue<Int>
    private let onReady: @Sendable () -> Void

    init(count: Int, onReady: @escaping @Sendable () -> Void) {
        remaining = LockedValue(count)
        self.onReady = onReady
    }

    /// One more front end serves its socket.
    func served() {
        let ready = remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
        if ready { onReady() }
    }
}
