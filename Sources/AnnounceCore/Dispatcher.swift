// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol
import Dispatch
public import Logging

/// Runs a piece of dispatcher work on a later turn of the main queue.
public typealias TurnScheduler = @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void

/// The one place that decides what is spoken, in what order, and what every client is told.
///
/// It lives on the main actor (the daemon's main queue), like UIKit's accessibility notifications:
/// front-ends hand it what their connections send (``open(_:)``, ``submit(_:from:)``,
/// ``finishedSending(_:)``, ``closed(_:)``), the speech backend reports progress, and everything
/// else happens here, one turn at a time. What other threads hand it
/// waits in an inbox; a turn takes everything that has arrived, decides it together, and only
/// then starts the next post.
@MainActor
public final class Dispatcher {
    nonisolated let logger: Logger
    /// The defaults and limits; ``updateDefaults(voice:rate:pitch:volume:punctuation:earcons:)`` changes `earcons`.
    var configuration: DispatcherConfiguration
    let scheduleTurn: TurnScheduler
    private(set) var backend: (any SpeechBackend)?
    /// The backend's voices, indexed.
    private(set) var voiceIndex = VoiceIndex([])
    var defaults: SpeechDefaults
    var clients: [ClientID: ClientState] = [:]
    /// The connections subscribed to each topic (a broadcast costs its subscribers, not every
    /// connection).
    var subscribers: [Topic: Set<ClientID>] = [:]
    /// Posts pending or speaking, per connection, for `max_pending_per_client`.
    var activePosts: [ClientID: Int] = [:]
    var speaking: PostRecord?
    var pending = PendingList()
    /// Where every post's sequence number comes from, shared with the event loops
    /// (``reserveSequenceNumber()``).
    nonisolated let sequenceNumbers = SequenceNumbers()
    /// The screens, the focus, the rotor and `read-all` (see Dispatcher+Navigation).
    var navigator = ScreenNavigator()
    /// The last announcements, for `history` (see AnnouncementHistory).
    var history: AnnouncementHistory
    /// What other threads handed over for the next turn.
    nonisolated let inbox = DispatcherInbox()
    var shuttingDown = false
    /// Who holds whose speech (``PauseHolds``): each pause ends with the connection that made it.
    var holds = PauseHolds()
    /// True while the backend's output is paused: the whole channel is held, or the speaking
    /// post's connection is (see ``updateOutputHold()``).
    var outputHeld = false
    /// A screen reader runs, as the daemon's screen reader watch last reported
    /// (``screenReaderChanged(_:)``).
    var screenReaderRunning = false
    /// The callers of ``shutdown()`` waiting until nothing speaks or is pending.
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var outbox: [ClientID: [ClientLine]] = [:]
    /// Connections to close once this turn's lines are handed to them.
    var closing: [any EventSink] = []
    let startTime = ContinuousClock.now
    /// Called at the end of every turn (a post, request, connection change or speech event
    /// handled), e.g. to notice when the daemon has gone quiet.
    public var turnObserver: (@MainActor () -> Void)?

    /// True when nothing is speaking and nothing is pending.
    public var isIdle: Bool { speaking == nil && pending.isEmpty }

    /// Creates the dispatcher. Call on the main thread; attach a backend before posts arrive.
    ///
    /// - Parameter scheduleTurn: how turns are scheduled; the main queue by default.
    public init(
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        logger: Logger = Logger(label: "announced.dispatcher"),
        scheduleTurn: @escaping TurnScheduler = Dispatcher.mainQueueTurn
    ) {
        self.configuration = configuration
        self.logger = logger
        self.scheduleTurn = scheduleTurn
        self.history = AnnouncementHistory(size: configuration.historySize)
        self.defaults = SpeechDefaults(
            voice: configuration.voice, rate: configuration.rate, pitch: configuration.pitch,
            volume: configuration.volume, punctuation: configuration.punctuation, ssipMaxRate: configuration.ssipMaxRate
        )
    }

    /// Schedules `work` on the main queue, after everything already queued there.
    public nonisolated static let mainQueueTurn: TurnScheduler = { work in
        DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
    }

    /// Connects the speech backend. Its events must be passed to ``handle(_:)`` on the main actor,
    /// in order; ``backendEventHandler`` does that.
    public func attach(_ backend: any SpeechBackend) {
        self.backend = backend
        voiceIndex = VoiceIndex(backend.voices)
        prepareVoice(defaults.voice)
    }

    /// Has the backend get the voice `name` ready in the background (a Piper voice loads its
    /// model), when it was chosen as a default, so that its first post does not wait.
    func prepareVoice(_ name: String) {
        guard let resolved = voiceIndex.resolve(voiceName: name) else { return }
        backend?.prepare(voice: resolved.synthesizerName)
    }

    /// True when `name` selects one of the backend's voices (any name does when it lists none;
    /// see ``VoiceIndex``). The backend's voices are taken as they are now first
    /// (``refreshVoices()``), so a voice installed while the daemon runs is taken and one removed
    /// is refused: this answers `set`, the start and a reload, which are rare, unlike posts.
    public func knowsVoice(_ name: String) -> Bool {
        refreshVoices()
        return voiceIndex.resolve(voiceName: name) != nil
    }

    /// Asks the backend for its voices as they are now (``SpeechBackend/rescanVoices()``, a copy
    /// of its catalog, never a scan) and indexes them again when they changed.
    public func refreshVoices() {
        guard let backend else { return }
        let voices = backend.rescanVoices()
        if voices != voiceIndex.all { voiceIndex = VoiceIndex(voices) }
    }

    /// The voice a post's options select (see ``VoiceIndex``), with the configured language
    /// preferences. A voice name or language no voice answers to makes it take the backend's
    /// voices as they are now first, so a voice installed while the daemon runs is taken.
    func resolveVoice(_ options: SpeechOptions, defaultVoice: String? = nil) throws(RequestError) -> ResolvedVoice {
        let preferences = configuration.voicePreferences
        let defaultVoice = defaultVoice ?? defaults.voice
        if let resolved = try? voiceIndex.resolve(options, defaultVoice: defaultVoice, preferences: preferences),
            resolved.warning == nil
        {
            return resolved
        }
        refreshVoices()
        return try voiceIndex.resolve(options, defaultVoice: defaultVoice, preferences: preferences)
    }

    /// The speech defaults `client`'s posts speak with: the first `clients` entry its name
    /// matches over the defaults (which `set` changes), muted when either is.
    func defaults(for client: ClientID) -> SpeechDefaults {
        var own = defaults
        if let name = clients[client]?.displayName, let entry = clientSettingsEntry(forClientNamed: name) {
            own.overlay(entry)
        }
        return own
    }

    /// The first `clients` entry `name` matches, if any.
    func clientSettingsEntry(forClientNamed name: String) -> ClientSettingsEntry? {
        configuration.clientSettings.first { $0.matches(name) }
    }

    /// Replaces the language preferences (a configuration reload). Posts already queued keep
    /// their voices.
    public func updateVoicePreferences(_ preferences: VoicePreferences) {
        configuration.voicePreferences = preferences
    }

    /// Why `voice` was refused, and what to use instead.
    public func unknownVoiceMessage(_ voice: String, field: String) -> String {
        VoiceIndex.unknownVoiceMessage(voice, field: field)
    }

    /// A handler for the backend's events: hands each to the next turn, in order, and handles it.
    public nonisolated var backendEventHandler: @Sendable (SpeechBackendEvent) -> Void {
        { [weak self] event in
            self?.enqueue { $0.handle(event) }
        }
    }

    // MARK: Connections

    // A front-end calls these four from the connection's event loop, in the order things happen
    // on the connection. Each is an inbox entry, and the inbox is first in, first out: a
    // connection's lines are decided after its `open` and before its `finishedSending` and
    // `closed`, with no thread hop and no read held back.

    /// A connection opened.
    public nonisolated func open(_ registration: ClientRegistration) {
        enqueue { $0.register(registration) }
    }

    /// Hands the dispatcher what a front-end decoded from one read of a connection, in order.
    /// Everything is decided in one turn, together with whatever else has arrived by then.
    public nonisolated func submit(_ inputs: [ClientInput], from client: ClientID) {
        enqueue { $0.receive(inputs, from: client) }
    }

    /// The client finished sending (it half-closed its connection): the dispatcher closes the
    /// connection once every post of the client has its terminal line.
    public nonisolated func finishedSending(_ client: ClientID) {
        enqueue { $0.markFinishedSending(client) }
    }

    /// The connection must close now, after the lines already answered (its framing is lost).
    public nonisolated func hangUp(_ client: ClientID) {
        enqueue { $0.closeConnection(client) }
    }

    /// A connection closed. Its posts play on, their lines discarded, unless a pause it made or
    /// a pause of its messages is in effect: then its messages end `cancelled`, and every pause
    /// it made ends (``unregister(_:)``).
    public nonisolated func closed(_ client: ClientID) {
        enqueue { $0.unregister(client) }
    }

    func register(_ registration: ClientRegistration) {
        clients[registration.id] = ClientState(registration: registration)
    }

    /// Forgets a closed connection. A connection that closes paused (its own messages held, or a
    /// hold it made in effect) takes its messages with it: nobody can resume them any more. Every
    /// hold it made ends, so nothing it held keeps other connections' messages from speaking.
    func unregister(_ client: ClientID) {
        let wasPaused = holds.holdsOwnMessages(of: client) || holds.isOwner(client)
        holds.release(client)
        clients[client] = nil
        for topic in Topic.allCases { subscribers[topic]?.remove(client) }
        perform(navigator.remove(owner: client))
        guard wasPaused else { return }
        for post in pending.removeAll(where: { $0.client == client }) {
            finish(post, .failure(reason: .cancelled, spokenChars: 0))
        }
        if speaking?.client == client { interruptSpeaking(reason: .cancelled, evenIfHigh: true) }
    }

    func markFinishedSending(_ client: ClientID) {
        clients[client]?.finishedSending = true
        closeIfAnswered(client)
    }

    /// Closes a client's connection that has finished sending once none of its posts waits for a
    /// terminal line and none of its requests for an answer.
    func closeIfAnswered(_ client: ClientID) {
        guard let state = clients[client], state.finishedSending, state.answersOwed == 0,
            activePosts[client, default: 0] == 0
        else { return }
        closeConnection(client)
    }

    /// Closes the connection after the lines this turn has for it; it hears nothing more.
    func closeConnection(_ client: ClientID) {
        guard let sink = clients[client]?.registration.sink else { return }
        if let events = outbox.removeValue(forKey: client) { sink.deliver(events) }
        closing.append(sink)
        unregister(client)
    }

    /// The dispatcher's entry point for a speech post. Like UIKit's `UIAccessibility.post`, it
    /// must be called on the main thread: a post made on any other thread is dropped, logged, and
    /// reported to its client as `dropped` with reason `off-main`.
    @discardableResult
    public nonisolated func post(_ post: SpeechPost, id: RequestID?, from client: ClientID) -> PostAdmission {
        guard isMainThread else {
            logger.notice(
                "dropped a post made off the main thread",
                metadata: ["client": "\(client)", "id": "\(id.map(\.description) ?? "none")"])
            enqueue { $0.drop(id: id, client: client, reason: .offMain) }
            return .dropped(.offMain)
        }
        return MainActor.assumeIsolated {
            var admission = PostAdmission.dropped(.offMain)
            transaction { admission = $0.accept(post, id: id, from: client) }
            return admission
        }
    }

    /// Reserves the sequence number of a message whose `queued` answer a front-end writes from the
    /// connection's event loop, before the dispatcher sees the message; hand the message over as
    /// ``ClientInput/queuedMessage(_:seq:)`` with it. Callable on any thread.
    public nonisolated func reserveSequenceNumber() -> UInt64 {
        sequenceNumbers.next()
    }

    /// True on the main queue, UIKit's main thread (see `MainThread`).
    nonisolated var isMainThread: Bool { MainThread.isMainQueue }

    // MARK: Turns

    // A turn is the one way dispatcher code runs: a block on the main queue (`scheduleTurn`,
    // `mainQueueTurn` in the daemon) that takes everything in the inbox. Event loops, the speech
    // thread and the daemon's services all hand their work to the inbox; a service that needs an
    // answer awaits it with `inTurn`.

    /// Runs `work` in the next turn, with whatever else has arrived by then, and returns what it
    /// returns: how the daemon's services (reload, the memory trimmer) reach the dispatcher.
    public nonisolated func inTurn<Result: Sendable>(_ work: @escaping @MainActor @Sendable (Dispatcher) -> Result)
        async -> Result
    {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: work($0)) }
        }
    }

    /// Hands `work` to the next turn (with none, only makes sure a turn comes), scheduling one if
    /// none is.
    nonisolated func enqueue(_ work: DispatcherInbox.Work? = nil) {
        guard inbox.add(work) else { return }
        scheduleTurn { [weak self] in self?.runTurn() }
    }

    /// One turn: everything that has arrived, in order, then the next start if nothing speaks.
    func runTurn() {
        let work = inbox.takeAll()
        transaction { dispatcher in
            for item in work { item(dispatcher) }
            dispatcher.startNext()
        }
    }

    /// Runs `body`, then sends the lines it produced and schedules a turn to start the next
    /// post if one is due (a post accepted here, on the main actor, starts on a later turn, so
    /// what arrives meanwhile is decided with it).
    func transaction(_ body: (Dispatcher) -> Void) {
        body(self)
        updateParking()
        updateOutputHold()
        if speaking == nil, hasStartablePost { enqueue() }
        flushOutbox()
        resumeIdleWaitersIfIdle()
        turnObserver?()
    }

    func startNext() {
        updateParking()
        updateOutputHold()
        guard speaking == nil, let next = popStartablePost() else { return }
        speaking = next
        guard let backend else {
            finish(next, .failure(reason: .error, spokenChars: 0, message: "no speech backend is attached"))
            speaking = nil
            return
        }
        backend.speak(next.spokenUtterance)
    }

    /// Queues `event` for `client`; sent at the end of the turn.
    func send(_ event: Event, to client: ClientID) {
        queue(.event(event), for: client)
    }

    /// Queues a front-end's reply or a control's answer for `client`, in its place.
    func send(answer line: ClientLine, to client: ClientID) {
        queue(line, for: client)
    }

    /// Queues `line` for `client`, in order; nothing for a connection that has closed.
    private func queue(_ line: ClientLine, for client: ClientID) {
        guard clients[client] != nil else { return }
        outbox[client, default: []].append(line)
    }

    /// Queues `event` for every client subscribed to `topic`; the event is made only if one is.
    func broadcast(_ event: @autoclosure () -> Event, topic: Topic) {
        guard let ids = subscribers[topic], !ids.isEmpty else { return }
        let event = event()
        for id in ids { outbox[id, default: []].append(.event(event)) }
    }

    func flushOutbox() {
        if !outbox.isEmpty {
            let batches = outbox
            outbox = [:]
            for (client, events) in batches {
                clients[client]?.registration.sink.deliver(events)
            }
        }
        if !closing.isEmpty {
            let sinks = closing
            closing = []
            for sink in sinks { sink.close() }
        }
    }

    func resumeIdleWaitersIfIdle() {
        guard speaking == nil, pending.isEmpty, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}

/// What became of a speech post handed to the dispatcher.
public enum PostAdmission: Sendable, Hashable {
    /// Queued with this sequence number.
    case queued(seq: UInt64)
    /// Dropped before it was queued.
    case dropped(DropReason)
    /// Invalid; never queued.
    case rejected(RequestError)
}
