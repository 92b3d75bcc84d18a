// SPDX-License-Identifier: Apache-2.0
/// Everything an ``Announcer`` knows, guarded by its mutex.
struct AnnouncerState {
    /// The connection to the daemon, if any.
    enum Link {
        /// Not connected; the next request connects.
        case idle
        /// Connecting, or waiting to reconnect; requests wait in `outbox`. The connection is nil
        /// only when it could not be made (the failure is being reported).
        case connecting(DaemonConnection?, generation: Int)
        /// Connected.
        case connected(DaemonConnection, generation: Int)
    }

    var link: Link = .idle
    /// Counts connection attempts, so a closed old connection cannot touch a newer one.
    var generation = 0
    var nextID: Int64 = 1
    /// Lines written while connecting, sent in order once connected.
    var outbox: [[UInt8]] = []
    var pending: [RequestID: PendingRequest] = [:]
    /// The last `error` line without an `id` (e.g. `forbidden`), to explain a closed connection.
    var lastConnectionError: String?

    /// True once someone asked for the speech status: the announcer then stays connected.
    var followsStatus = false
    var speechStatus: SpeechStatus?
    var statusContinuations: [Int: AsyncStream<SpeechStatus>.Continuation] = [:]
    var eventSubscribers: [Int: EventSubscriber] = [:]
    var focusHandlers: [String: FocusHandlers] = [:]
    /// Where `lint` findings go; nil writes them to standard error.
    var lintHandler: (@MainActor @Sendable (LintReport) -> Void)?
    /// The screen this announcer published last, if any: keeps it connected and is sent again
    /// after a reconnect.
    var publishedScreen: PublishedScreen?
    /// True once a connection was made: the next one is a reconnect.
    var connectedBefore = false
    /// The callbacks for `action` lines about this announcer's screen.
    var actionHandlers = ActionHandlers()
    var nextToken = 0

    /// How long the next reconnect waits.
    var reconnectDelay = AnnouncerState.firstReconnectDelay
    static let firstReconnectDelay = Duration.milliseconds(100)
    static let longestReconnectDelay = Duration.seconds(2)

    /// The topics this connection subscribes to.
    var topics: Set<Topic> {
        var topics = Set(eventSubscribers.values.flatMap(\.topics))
        if followsStatus { topics.insert(.status) }
        return topics
    }

    /// True when someone listens to the daemon, so a lost connection is re-established.
    var wantsLink: Bool { followsStatus || !eventSubscribers.isEmpty || publishedScreen != nil }

    mutating func makeID() -> RequestID {
        defer { nextID += 1 }
        return .integer(nextID)
    }

    mutating func makeToken() -> Int {
        nextToken += 1
        return nextToken
    }

    /// Records the status and yields it to every status stream when it changed.
    mutating func update(_ status: SpeechStatus) {
        guard status != speechStatus else { return }
        speechStatus = status
        for continuation in statusContinuations.values { continuation.yield(status) }
    }
}

/// A stream of events of some topics.
struct EventSubscriber: Sendable {
    var topics: Set<Topic>
    var continuation: AsyncStream<Event>.Continuation

    func wants(_ event: Event) -> Bool {
        switch event {
        case .statusChanged: return topics.contains(.status)
        case .focusChanged: return topics.contains(.focus)
        case .speech: return topics.contains(.speech)
        case .history: return topics.contains(.history)
        default: return false
        }
    }
}

/// The callbacks for one of this announcer's elements.
struct FocusHandlers: Sendable {
    var onFocus: (@MainActor @Sendable () -> Void)?
    var onLoseFocus: (@MainActor @Sendable () -> Void)?
}
