// SPDX-License-Identifier: Apache-2.0
internal import SystemPackage

/// The connection: opened on first use, shared by every request, re-opened after the daemon
/// restarts. Nothing here blocks the caller: each connection's own thread (``DaemonConnection``)
/// connects, reads, and sends what the socket could not take at once.
extension Announcer {
    /// Sends a request; `pending` receives the lines answering it.
    func send(_ request: Request, id: RequestID?, pending: PendingRequest?) {
        let bytes = RequestLine(id: id, request).line
        let connecting: Connecting? = state.withLock { state in
            if let id, let pending { state.pending[id] = pending.retaining(self) }
            switch state.link {
            case .connected(let connection, _):
                // Written under the announcer's lock, so no line overtakes the ones `connected` sends.
                connection.write([bytes])
                return nil
            case .connecting(let connection, _):
                state.outbox.append(bytes)
                connection?.skipDelay()
                return nil
            case .idle:
                state.outbox.append(bytes)
                return beginConnecting(&state)
            }
        }
        if let connecting { launch(connecting, after: .zero) }
    }

    /// Connects now unless connected already; a connection waiting out its reconnect delay
    /// connects at once.
    func connectIfIdle() {
        let connecting: Connecting? = state.withLock { state in
            switch state.link {
            case .idle: return beginConnecting(&state)
            case .connecting(let connection, _): connection?.skipDelay()
            case .connected: break
            }
            return nil
        }
        if let connecting { launch(connecting, after: .zero) }
    }

    /// Moves to `connecting` with a new generation and, unless the process is out of
    /// descriptors, a new connection for ``launch(_:after:)``. Call with the lock held.
    private func beginConnecting(_ state: inout AnnouncerState) -> Connecting {
        state.generation += 1
        let connection = Result { () throws(Errno) in try DaemonConnection() }
        state.link = .connecting(try? connection.get(), generation: state.generation)
        return Connecting(generation: state.generation, connection: connection)
    }

    /// A connection begun under the lock, to be started off it.
    private struct Connecting {
        var generation: Int
        var connection: Result<DaemonConnection, Errno>
    }

    /// Starts the thread of a connection begun by ``beginConnecting(_:)``, or reports why it
    /// could not be made.
    private func launch(_ connecting: Connecting, after delay: Duration) {
        switch connecting.connection {
        case .success(let connection):
            start(connection, generation: connecting.generation, reconnecting: delay > .zero, after: delay)
        case .failure(let error):
            // Out of descriptors: no reconnect is scheduled from here (it would fail the same way
            // at once, again and again); the next request tries again.
            connectFailed(
                .unavailable(socketPath: socketPath, reason: DaemonConnection.describe(error)),
                generation: connecting.generation, reconnects: false)
        }
    }

    /// Starts `connection`'s thread: after `delay` it connects, unless no one needs it any more.
    private func start(_ connection: DaemonConnection, generation: Int, reconnecting: Bool, after delay: Duration) {
        let handlers = DaemonConnection.Handlers(
            proceed: { [weak self] in self?.proceed(generation: generation, reconnecting: reconnecting) ?? false },
            connected: { [weak self] in self?.connected($0, generation: generation) ?? false },
            failed: { [weak self] reason in
                guard let self else { return }
                self.connectFailed(.unavailable(socketPath: self.socketPath, reason: reason), generation: generation)
            },
            event: { [weak self] in self?.receive($0) },
            closed: { [weak self] in self?.connectionClosed(generation: generation) })
        connection.start(path: socketPath, after: delay, handlers: handlers)
    }

    /// Whether the connection of `generation` should connect now: not when a newer one replaced
    /// it, nor after a reconnect delay when no one listens any more and nothing waits to be sent.
    /// A socket directory that is not safe fails the connect here.
    private func proceed(generation: Int, reconnecting: Bool) -> Bool {
        let current: Bool = state.withLock { state in
            guard case .connecting(_, let current) = state.link, current == generation else { return false }
            if reconnecting && !state.wantsLink && state.outbox.isEmpty {
                state.link = .idle
                return false
            }
            return true
        }
        guard current else { return false }
        if let problem = location.directoryProblem() {
            connectFailed(.unsafeSocketDirectory(socketPath: socketPath, reason: problem), generation: generation)
            return false
        }
        return true
    }

    private func connected(_ connection: DaemonConnection, generation: Int) -> Bool {
        let accepted: Bool = state.withLock { state in
            guard case .connecting(_, let current) = state.link, current == generation else { return false }
            state.link = .connected(connection, generation: generation)
            state.reconnectDelay = AnnouncerState.firstReconnectDelay
            state.lastConnectionError = nil
            var lines = [RequestLine(id: nil, .hello(client: clientName, lint: lint)).line]
            let topics = state.topics
            if !topics.isEmpty {
                lines.append(RequestLine(id: nil, .subscribe(Topic.allCases.filter(topics.contains))).line)
            }
            // After a reconnect the published screen is sent again, so the daemon has it (on
            // the first connection, the post that published it waits in the outbox).
            if state.connectedBefore, let screen = state.publishedScreen { lines.append(screen.republishLine) }
            state.connectedBefore = true
            lines += state.outbox
            state.outbox = []
            // Under the lock, so that these lines go before any a request writes once connected.
            connection.write(lines)
            return true
        }
        guard accepted else { return false }
        if state.withLock({ $0.followsStatus }) { refreshStatus() }
        return true
    }

    private func connectFailed(_ failure: AnnouncerError, generation: Int, reconnects: Bool = true) {
        let failed: [PendingRequest]? = state.withLock { state in
            guard case .connecting(_, let current) = state.link, current == generation else { return nil }
            state.link = .idle
            state.outbox = []
            let failed = Array(state.pending.values)
            state.pending = [:]
            state.update(.unavailable)
            return failed
        }
        guard let failed else { return }
        for request in failed {
            switch request {
            case .post(let tracker): tracker.deliver(.refused(.unavailable(failure.description)))
            case .control(let answer): answer(.failure(failure))
            }
        }
        if reconnects { scheduleReconnect() }
    }

    func connectionClosed(generation: Int) {
        let closed: (pending: [PendingRequest], reason: String?)? = state.withLock { state in
            guard case .connected(_, let current) = state.link, current == generation else { return nil }
            state.link = .idle
            let pending = Array(state.pending.values)
            state.pending = [:]
            state.update(.unavailable)
            return (pending, state.lastConnectionError)
        }
        guard let closed else { return }
        let message =
            closed.reason.map { "the daemon closed the connection: \($0)" }
            ?? "the connection to the daemon closed before the post ended"
        for request in closed.pending {
            switch request {
            case .post(let tracker): tracker.deliver(.refused(.failed(message)))
            case .control(let answer):
                if let reason = closed.reason {
                    answer(.failure(.refused(code: .forbidden, message: reason)))
                } else {
                    answer(.failure(.connectionLost(socketPath: socketPath)))
                }
            }
        }
        scheduleReconnect()
    }

    /// While someone listens (status or events), connects again after a delay that grows after
    /// each failure (up to 2 s). A request in the meantime connects at once.
    func scheduleReconnect() {
        let reconnect: (Connecting, Duration)? = state.withLock { state in
            guard state.wantsLink, case .idle = state.link else { return nil }
            let delay = state.reconnectDelay
            state.reconnectDelay = min(delay * 2, AnnouncerState.longestReconnectDelay)
            return (beginConnecting(&state), delay)
        }
        if let (connecting, delay) = reconnect { launch(connecting, after: delay) }
    }
}
