// SPDX-License-Identifier: Apache-2.0
internal import Glibc
internal import NIOCore
internal import NIOPosix

/// The connection: opened on first use, shared by every request, re-opened after the daemon
/// restarts. Nothing here blocks the caller: NIO does the I/O on its own threads.
extension Announcer {
    /// Sends a request; `pending` receives the lines answering it.
    func send(_ request: Request, id: RequestID?, pending: PendingRequest?) {
        let bytes = RequestLine(id: id, request).line
        enum Action {
            case write(any Channel)
            case connect(Int)
            case wait
        }
        let action: Action = state.withLock { state in
            if let id, let pending { state.pending[id] = pending.retaining(self) }
            switch state.link {
            case .connected(let channel, _):
                return .write(channel)
            case .connecting:
                state.outbox.append(bytes)
                return .wait
            case .idle:
                state.outbox.append(bytes)
                return .connect(state.beginConnecting())
            }
        }
        switch action {
        case .write(let channel): channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
        case .connect(let generation): connect(generation: generation)
        case .wait: break
        }
    }

    /// Connects now unless connected or connecting already.
    func connectIfIdle() {
        let generation: Int? = state.withLock { state in
            guard case .idle = state.link else { return nil }
            return state.beginConnecting()
        }
        if let generation { connect(generation: generation) }
    }

    func connect(generation: Int) {
        if let problem = location.directoryProblem() {
            connectFailed(.unsafeSocketDirectory(socketPath: socketPath, reason: problem), generation: generation)
            return
        }
        let bootstrap = ClientBootstrap(group: eventLoopGroup).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = EventLineHandler(
                    onEvent: { [weak self] in self?.receive($0) },
                    onClose: { [weak self] in self?.connectionClosed(generation: generation) })
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }
        bootstrap.connect(unixDomainSocketPath: socketPath).whenComplete { [weak self] result in
            switch result {
            case .success(let channel):
                guard let self else {
                    channel.close(promise: nil)
                    return
                }
                self.connected(channel, generation: generation)
            case .failure(let error):
                guard let self else { return }
                self.connectFailed(
                    .unavailable(socketPath: self.socketPath, reason: Self.describe(error)), generation: generation)
            }
        }
    }

    private func connected(_ channel: any Channel, generation: Int) {
        let lines: [[UInt8]]? = state.withLock { state in
            guard case .connecting(let current) = state.link, current == generation else { return nil }
            state.link = .connected(channel, generation: generation)
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
            return lines
        }
        guard let lines else {
            channel.close(promise: nil)
            return
        }
        for line in lines { channel.write(ByteBuffer(bytes: line), promise: nil) }
        channel.flush()
        if state.withLock({ $0.followsStatus }) { refreshStatus() }
    }

    private func connectFailed(_ failure: AnnouncerError, generation: Int) {
        let failed: [PendingRequest]? = state.withLock { state in
            guard case .connecting(let current) = state.link, current == generation else { return nil }
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
        scheduleReconnect()
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

    /// While someone listens (status or events), tries to connect again, waiting a little longer
    /// after each failure (up to 2 s).
    func scheduleReconnect() {
        let delay: TimeAmount? = state.withLock { state in
            guard state.wantsLink, !state.reconnectScheduled, case .idle = state.link else { return nil }
            state.reconnectScheduled = true
            let delay = state.reconnectDelay
            state.reconnectDelay = min(delay * 2, AnnouncerState.longestReconnectDelay)
            return delay
        }
        guard let delay else { return }
        eventLoopGroup.next().scheduleTask(in: delay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.reconnectScheduled = false }
            if self.state.withLock({ $0.wantsLink }) { self.connectIfIdle() }
        }
    }

    /// A person-readable reason for a failed connect.
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        return "\(error)"
    }
}

extension AnnouncerState {
    /// Moves to `connecting` with a new generation and returns it.
    mutating func beginConnecting() -> Int {
        generation += 1
        link = .connecting(generation: generation)
        return generation
    }
}
