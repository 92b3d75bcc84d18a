// SPDX-License-Identifier: Apache-2.0
/// Following the daemon: speech status, subscription events and focus of own elements.
extension Announcer {
    /// True when a daemon answers and speech is not muted (whether a screen reader runs, the
    /// counterpart of `UIAccessibility.isVoiceOverRunning`, is ``isScreenReaderRunning``). The
    /// first read starts following the daemon's status in the background; until its first
    /// answer this is false.
    public var isSpeechRunning: Bool {
        followStatus()
        return state.withLock { $0.speechStatus?.isSpeechRunning ?? false }
    }

    /// The speech status now and after every change (mute, unmute, new defaults, daemon gone or
    /// back): the counterpart of `UIAccessibility.voiceOverStatusDidChangeNotification`. The
    /// stream starts with the current status once known and stays live across daemon restarts.
    public func statusChanges() -> AsyncStream<SpeechStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SpeechStatus.self, bufferingPolicy: .bufferingNewest(64))
        let token = state.withLock { state in
            let token = state.makeToken()
            state.statusContinuations[token] = continuation
            if let current = state.speechStatus { continuation.yield(current) }
            return token
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.statusContinuations.removeValue(forKey: token) }
        }
        followStatus()
        return stream
    }

    /// Subscribes to daemon-wide events (`status-changed`, `focus-changed`, `speech`, `history`:
    /// ``Event/history(_:)`` as each announcement is kept) of `topics`; the subscription is renewed after the daemon restarts. Ends when the consumer
    /// stops iterating.
    public func events(_ topics: Set<Topic>) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
        let (token, connected) = state.withLock { state in
            let token = state.makeToken()
            state.eventSubscribers[token] = EventSubscriber(topics: topics, continuation: continuation)
            if case .connected = state.link { return (token, true) }
            return (token, false)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.eventSubscribers.removeValue(forKey: token) }
        }
        if connected {
            send(.subscribe(Topic.allCases.filter(topics.contains)), id: nil, pending: nil)
        } else {
            connectIfIdle()
        }
        return stream
    }

    /// Runs `handler` on the main queue each time the element with `elementID`, posted by this
    /// announcer, gets the focus (like Access's `onAccessibilityFocus`). Nil removes it.
    public func onFocus(_ elementID: String, perform handler: (@MainActor @Sendable () -> Void)?) {
        state.withLock { $0.focusHandlers[elementID, default: FocusHandlers()].onFocus = handler }
    }

    /// Runs `handler` on the main queue each time the element with `elementID`, posted by this
    /// announcer, loses the focus (like Access's `onAccessibilityDidLoseFocus`). Nil removes it.
    public func onLoseFocus(_ elementID: String, perform handler: (@MainActor @Sendable () -> Void)?) {
        state.withLock { $0.focusHandlers[elementID, default: FocusHandlers()].onLoseFocus = handler }
    }

    /// Starts following the status: subscribes and asks for the current state (once).
    func followStatus() {
        let connectedNow: Bool? = state.withLock { state in
            guard !state.followsStatus else { return nil }
            state.followsStatus = true
            if case .connected = state.link { return true }
            return false
        }
        switch connectedNow {
        case true?:
            send(.subscribe([.status]), id: nil, pending: nil)
            refreshStatus()
        case false?:
            connectIfIdle()
        case nil:
            break
        }
    }

    /// Asks for the status and records the answer.
    func refreshStatus() {
        let id = state.withLock { $0.makeID() }
        send(
            .status, id: id,
            pending: .control { [weak self] result in
                guard case .success(let fields) = result, let report = try? StatusReport(fields) else { return }
                self?.state.withLock { $0.update(.available(report)) }
            })
    }
}
