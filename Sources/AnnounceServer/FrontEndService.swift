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
    /// Its place in the order the sockets are bound.
    let index: Int
    let startup: SocketStartup

    /// The protocol it serves (`ssip`, or the JSON lines front end's name), for the group's log.
    public var protocolName: String { frontEnd.protocolName }

    /// Serves until graceful shutdown (or cancellation), and until every connection has closed.
    public func run() async throws {
        // A socket bound before this one could not be: the daemon is not starting, so this socket
        // is left alone (another daemon may be taking it).
        guard await startup.waitForTurn(index) else {
            startup.bound(index, served: false)
            return
        }
        let listener: AnnounceServer.Listener
        do {
            listener = try await server.listen(frontEnd, location: location, activationSocket: activationSocket)
        } catch {
            startup.bound(index, served: false)
            throw error
        }
        defer {
            if let path = listener.ownedPath { unlink(path) }
            listener.lock?.release()
        }
        startup.bound(index, served: true)
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

/// The front ends' binding, one socket at a time in the services' order (binding a socket file
/// sets the process's umask for the moment, so two at once would spoil each other's modes), and
/// `onReady` once every socket is served (the daemon's `READY=1`).
final class SocketStartup: Sendable {
    private struct State {
        var next = 0
        var failed = false
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    private let count: Int
    private let state = LockedValue(State())
    private let onReady: @Sendable () -> Void

    init(count: Int, onReady: @escaping @Sendable () -> Void) {
        self.count = count
        self.onReady = onReady
    }

    /// Returns once the sockets before socket `index` are bound: true, or false when one of them
    /// could not be (socket `index` is then not to be bound).
    func waitForTurn(_ index: Int) async -> Bool {
        await withCheckedContinuation { (turn: CheckedContinuation<Bool, Never>) in
            let now: Bool? = state.withLock { state in
                if state.next == index { return !state.failed }
                state.waiting[index] = turn
                return nil
            }
            if let now { turn.resume(returning: now) }
        }
    }

    /// Socket `index` is bound (`served`) or could not be; the next one's turn comes.
    func bound(_ index: Int, served: Bool) {
        let (next, ready, failed) = state.withLock { state in
            state.next = index + 1
            if !served { state.failed = true }
            return (state.waiting.removeValue(forKey: index + 1), state.next == count && !state.failed, state.failed)
        }
        next?.resume(returning: !failed)
        if ready { onReady() }
    }
}
