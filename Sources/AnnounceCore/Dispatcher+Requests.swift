// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

extension Dispatcher {
    /// Handles what one read of a connection brought, in order.
    func receive(_ inputs: [ClientInput], from client: ClientID) {
        for input in inputs {
            switch input {
            case .request(let request):
                handle(request, from: client)
            case .postOffMain(let id, let post):
                drop(id: id, client: client, reason: .offMain)
                if let post { keepDropped(offMain: post, client: client) }
            case .invalid(let error):
                send(error.event, to: client)
            case .answered(let reply):
                send(answer: .reply(reply), to: client)
            case .message(let message):
                let options = options(of: message, from: client)
                _ = accept(
                    .announce(message.text, options: options), id: message.id, from: client, sound: message.sound,
                    priority: message.priority)
            case .queuedMessage(let message, let seq):
                // Bound to its output module like `.message` (python3-speechd's `speak` after
                // `set_output_module('piper')` comes this way, and spoke with espeak-ng).
                let options = options(of: message, from: client)
                _ = accept(
                    .announce(message.text, options: options), id: message.id, from: client, sound: message.sound,
                    priority: message.priority,
                    reservedSeq: seq
                )
            case .control(let control, let scope):
                if case .client(let other) = scope, clients[other] == nil {
                    send(answer: .control(.unknownClient(control)), to: client)
                } else {
                    // The answer first: every line the control causes comes after it.
                    send(answer: .control(.done(control)), to: client)
                    apply(control, to: scope, from: client)
                }
            case .name(let name):
                if !name.isBlank { clients[client]?.name = name }
            }
        }
    }

    /// Stop, cancel, pause or resume for a front-end. Stop ends the scope's speaking message,
    /// cancel its speaking and waiting ones (`cancelled`, even high ones: the client asked); the
    /// speaking one's terminal line comes when the backend has stopped it.
    ///
    /// Pause holds the scope's messages, owned by `client` (``PauseHolds``): `all` the whole
    /// channel; `own` or a connection its messages only: the speaking one holds where it is, the
    /// waiting ones are passed over while other connections' messages speak. Resume ends the holds
    /// on the scope, whoever made them.
    func apply(_ control: SpeechControl, to scope: ClientScope, from client: ClientID) {
        func inScope(_ post: PostRecord) -> Bool {
            switch scope {
            case .own: return post.client == client
            case .all: return true
            case .client(let other): return post.client == other
            }
        }
        switch control {
        case .stop, .cancel:
            // A message set aside while paused (``updateParking()``) is the one that was speaking.
            let ended = pending.removeAll { inScope($0) && (control == .cancel || $0.parked) }
            for post in ended { finish(post, .failure(reason: .cancelled, spokenChars: 0)) }
            if let current = speaking, inScope(current) {
                interruptSpeaking(reason: .cancelled, evenIfHigh: true)
            }
        case .pause:
            switch scope {
            case .own: holds.hold(client, by: client)
            case .all: holds.holdChannel(by: client)
            case .client(let other): holds.hold(other, by: client)
            }
        case .resume:
            switch scope {
            case .own: holds.resume(client)
            case .all: holds.resumeAll()
            case .client(let other): holds.resume(other)
            }
        }
    }

    /// Carries out one request of `client`: each kind is one function (a control's `ok` comes
    /// before the lines it causes: `finished`, `paused`, `resumed`).
    func handle(_ line: RequestLine, from client: ClientID) {
        let id = line.id
        switch line.request {
        case .speech(let post) where !post.options.isMainThread: dropOffMain(post, id: id, from: client)
        case .speech(let post): _ = accept(post, id: id, from: client)
        case .hello(let name, let lint): hello(id, name: name, lint: lint, from: client)
        case .status: reply(id, to: client, statusReport.jsonObject)
        case .stop: stopAll(id, from: client)
        case .pause(let untilResume): pauseAll(id, untilResume: untilResume, from: client)
        case .resume: resumeAll(id, from: client)
        case .cancel(let target): cancelPost(id, target: target, from: client)
        case .set(let change): set(change, id: id, from: client)
        case .subscribe(let topics): subscribe(id, to: topics, from: client)
        case .navigate(let request): navigate(request, id: id, from: client)
        case .update(let change): update(change, id: id, from: client)
        case .cancelOwn(let target): cancelOwn(id, target: target, from: client)
        case .short(let speech, let options): short(speech, options: options, id: id, from: client)
        case .history(let limit): answerHistory(id, limit: limit, to: client)
        case .voices(let language): voices(id, language: language, from: client)
        }
    }

    /// A post made off the main thread: dropped, and said so. ``ClientInput/init(decoded:)``
    /// makes these `postOffMain`; one made some other way is still a post made off the main thread.
    private func dropOffMain(_ post: SpeechPost, id: RequestID?, from client: ClientID) {
        drop(id: id, client: client, reason: .offMain)
        keepDropped(offMain: post, client: client)
    }

    /// `hello`: the client's name and lint wish kept, the daemon's version and features answered.
    private func hello(_ id: RequestID?, name: String?, lint: Bool, from client: ClientID) {
        if let name, !name.isBlank { clients[client]?.name = name }
        clients[client]?.wantsLint = lint
        reply(
            id, to: client,
            [
                "daemon": "announced", "version": .string(configuration.version),
                "protocol": .integer(Int64(protocolVersion)),
                "features": .array(Self.features.map { .string($0) }),
            ])
    }

    /// `stop`: every post of every client ends `cancelled`.
    private func stopAll(_ id: RequestID?, from client: ClientID) {
        reply(id, to: client)
        cancelAll(reason: .cancelled)
    }

    /// `pause`: the speech channel held, by this client or until `resume`.
    private func pauseAll(_ id: RequestID?, untilResume: Bool, from client: ClientID) {
        reply(id, to: client)
        holds.holdChannel(by: untilResume ? nil : client)
    }

    /// `resume`: every hold released.
    private func resumeAll(_ id: RequestID?, from client: ClientID) {
        reply(id, to: client)
        holds.resumeAll()
    }

    /// `cancel`: the client's post `target`, or `not_found` when it is neither pending nor speaking.
    private func cancelPost(_ id: RequestID?, target: RequestID, from client: ClientID) {
        guard isPendingOrSpeaking(target, of: client) else {
            return send(
                .error(
                    id: id, code: .notFound,
                    message: "no post with id \(target) of this connection is pending or speaking"), to: client)
        }
        reply(id, to: client)
        cancel(target, of: client)
    }

    /// `set`: a default changed for every client, or the error that says why not.
    private func set(_ change: SettingsChange, id: RequestID?, from client: ClientID) {
        switch apply(change) {
        case .success: reply(id, to: client)
        case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: client)
        }
    }

    /// `subscribe`: the client hears `topics` from now on.
    private func subscribe(_ id: RequestID?, to topics: [Topic], from client: ClientID) {
        if clients[client] != nil {
            for topic in topics { subscribers[topic, default: []].insert(client) }
        }
        reply(id, to: client)
    }

    /// `cancel_own`: the posts of every connection with this client's name (`target`: one id), or
    /// `not_found` when there are none.
    private func cancelOwn(_ id: RequestID?, target: RequestID?, from client: ClientID) {
        let name = clients[client]?.displayName ?? "client:\(client)"
        let count = postsCount(ofClientNamed: name, target: target)
        guard count > 0 else {
            let which = target.map { "with id \($0) " } ?? ""
            return send(
                .error(
                    id: id, code: .notFound,
                    message:
                        "no post \(which)of a client named \"\(clients[client]?.displayName ?? "")\" is pending or speaking"
                ), to: client)
        }
        reply(id, to: client, ["cancelled": .integer(Int64(count))])
        cancelPosts(ofClientNamed: name, target: target)
    }

    /// A short form (`say`, `spell`, `sound`…): posted as an announcement, a sound as an earcon.
    private func short(_ speech: ShortSpeech, options: SpeechOptions, id: RequestID?, from client: ClientID) {
        var options = options
        let spoken = speech.spokenText
        options.ssml = spoken.ssml
        options.spell = spoken.spell
        var sound: EarconSound?
        if case .sound(let name) = speech { sound = name == "boundary" ? .boundary : .screenChange }
        guard options.isMainThread else {
            drop(id: id, client: client, reason: .offMain)
            if sound == nil { keepDropped(offMain: .announce(spoken.text, options: options), client: client) }
            return
        }
        _ = accept(.announce(spoken.text, options: options), id: id, from: client, sound: sound)
    }

    /// `voices`: answered once the backend's voices are current, so a voice installed just
    /// before is listed, without a scan on this queue; the connection stays open for it.
    private func voices(_ id: RequestID?, language: String?, from client: ClientID) {
        guard let backend else { return answerVoices(id, language: language, to: client) }
        clients[client]?.answersOwed += 1
        backend.whenVoicesCurrent { [weak self] in
            self?.enqueue { dispatcher in
                dispatcher.clients[client]?.answersOwed -= 1
                dispatcher.answerVoices(id, language: language, to: client)
                dispatcher.closeIfAnswered(client)
            }
        }
    }

    /// Answers `voices` with the backend's voices as they are now.
    func answerVoices(_ id: RequestID?, language: String?, to client: ClientID) {
        refreshVoices()
        reply(id, to: client, ["voices": .array(voiceIndex.voices(speaking: language).map { .object($0.jsonObject) })])
    }

    /// A front-end message's options against the current defaults, its voice bound to the engine
    /// it must speak with (SSIP's `OUTPUT_MODULE`), if any.
    func options(of message: MessagePost, from client: ClientID) -> SpeechOptions {
        let own = defaults(for: client)
        var options = message.options(own)
        if let engine = message.engine {
            // The front-end let the module be set, so it has voices: ones installed since the
            // dispatcher last looked are found now.
            if !voiceIndex.all.contains(where: { $0.engine == engine }) { refreshVoices() }
            options.voice = voiceIndex.voiceName(
                of: engine, for: options, defaultVoice: own.voice, preferences: configuration.voicePreferences)
        }
        return options
    }

    func reply(_ id: RequestID?, to client: ClientID, _ fields: JSONObject = JSONObject()) {
        guard let id else { return }
        send(.ok(id: id, fields: fields), to: client)
    }

    /// The daemon's state, as `status` answers.
    public var statusReport: StatusReport {
        var report = StatusReport(
            running: !defaults.muted, muted: defaults.muted, speaking: speaking != nil, pending: pending.count,
            voice: defaults.voice, rate: defaults.rate, pitch: defaults.pitch, volume: defaults.volume,
            audio: backend?.outputDescription ?? "none", clients: clients.count, focus: focus?.element,
            uptimeSeconds: Int((ContinuousClock.now - startTime).components.seconds), version: configuration.version,
            screen: navigator.current.flatMap { clients[$0.owner]?.displayName },
            stops: navigator.current?.stops.count ?? 0
        )
        report.punctuation = defaults.punctuation
        report.paused = outputHeld
        report.ssipClients = clients.values.count { $0.registration.protocolName == "ssip" }
        report.screenReader = screenReaderRunning
        report.clientSettings = clients.sorted { $0.key < $1.key }.map { _, client in
            ClientSettingsMatch(
                name: client.displayName, matched: clientSettingsEntry(forClientNamed: client.displayName)?.match)
        }
        if let speaking {
            let scalars = speaking.utterance.text.unicodeScalars
            report.speakingText =
                scalars.count <= StatusReport.speakingTextLimit
                ? speaking.utterance.text
                : String(String.UnicodeScalarView(scalars.prefix(StatusReport.speakingTextLimit))) + "…"
            report.speakingClient = speaking.clientName
        }
        return report
    }

    // MARK: Control

    /// Holds or continues the backend's output as ``holds`` say: held while the whole channel is,
    /// or while the speaking post's connection is. The speaking post's owner hears `paused` or
    /// `resumed`, `status` subscribers `status-changed`; no change, no line. Called at the end of
    /// every turn's work and before a post starts.
    func updateOutputHold() {
        let hold = holds.isChannelHeld || (speaking.map { holds.holds($0.client) } ?? false)
        guard hold != outputHeld else { return }
        outputHeld = hold
        if hold { backend?.pause() } else { backend?.resume() }
        if let current = speaking, current.endReason == nil, !current.parking, let id = current.id {
            send(hold ? .paused(id: id, seq: current.seq) : .resumed(id: id, seq: current.seq), to: current.client)
            current.toldPaused = hold
        }
        broadcast(.statusChanged(statusReport), topic: .status)
    }

    /// Sets a paused message aside so others speak, and puts it back in line when its connection
    /// resumes, as speech-dispatcher does. The speaking post is set aside when its connection's
    /// messages are held (SSIP `PAUSE self`, `PAUSE <id>`; never for a hold of the whole channel),
    /// it waits in a first come first served queue, and another connection's post could start:
    /// its audio stops (``SpeechBackend/abort(seq:)``, no terminal line; ``handle(_:)`` parks it
    /// when the backend reports it stopped) and it waits in ``pending``, passed over while held.
    /// A parked post whose connection is no longer held is put back in line, ahead of its
    /// connection's other waiting posts, and continues from where it was heard to
    /// (``Continuation``), as the same post: `resumed` instead of a second `started`.
    func updateParking() {
        if pending.contains(where: \.parked) {
            for post in pending.removeAll(where: { $0.parked && !holds.holds($0.client) }) {
                post.parked = false
                pending.insertAhead(ofOwnPosts: post)
            }
        }
        guard let current = speaking, current.endReason == nil, !current.parking, current.postClass.isQueued,
            !holds.isChannelHeld, holds.holds(current.client), hasStartablePost
        else { return }
        current.parking = true
        backend?.abort(seq: current.seq)
    }

    /// True when a post could start now: one waits whose connection is not held, and the channel
    /// is not held.
    var hasStartablePost: Bool {
        if holds.isEmpty { return !pending.isEmpty }
        return !holds.isChannelHeld && pending.contains { !holds.holds($0.client) }
    }

    /// Takes the post that speaks next: the first waiting one whose connection is not held.
    func popStartablePost() -> PostRecord? {
        if holds.isEmpty { return pending.popNext() }
        if holds.isChannelHeld { return nil }
        return pending.popFirst { !holds.holds($0.client) }
    }

    /// Ends every pending post and the speaking one with `reason`.
    func cancelAll(reason: FinishReason) {
        for post in pending.removeAll(where: { _ in true }) {
            finish(post, .failure(reason: reason, spokenChars: 0))
        }
        interruptSpeaking(reason: reason, evenIfHigh: true)
    }

    /// True when the post `target` of `client` is pending or speaking.
    func isPendingOrSpeaking(_ target: RequestID, of client: ClientID) -> Bool {
        func matches(_ post: PostRecord) -> Bool { post.client == client && post.id == target }
        return speaking.map(matches) == true || pending.contains(where: matches)
    }

    /// Cancels the post `target` of `client`, if it is pending or speaking.
    func cancel(_ target: RequestID, of client: ClientID) {
        if let current = speaking, current.client == client, current.id == target {
            interruptSpeaking(reason: .cancelled, evenIfHigh: true)
            return
        }
        let removed = pending.removeAll { $0.client == client && $0.id == target }
        for post in removed { finish(post, .failure(reason: .cancelled, spokenChars: 0)) }
    }

    /// Whether a post belongs to a connection named `name` (`target`: and has that id).
    private func isPost(_ post: PostRecord, ofClientNamed name: String, target: RequestID?) -> Bool {
        post.clientName == name && (target == nil || post.id == target)
    }

    /// How many posts of connections named `name` (`target`: with that id) are speaking or pending.
    func postsCount(ofClientNamed name: String, target: RequestID?) -> Int {
        let speakingOne =
            speaking.map { $0.endReason == nil && isPost($0, ofClientNamed: name, target: target) } == true ? 1 : 0
        return speakingOne + pending.all.count { isPost($0, ofClientNamed: name, target: target) }
    }

    /// Cancels the posts of every connection named `name` (`target`: only the one with that id).
    func cancelPosts(ofClientNamed name: String, target: RequestID?) {
        if let current = speaking, current.endReason == nil, isPost(current, ofClientNamed: name, target: target) {
            interruptSpeaking(reason: .cancelled, evenIfHigh: true)
        }
        let removed = pending.removeAll { isPost($0, ofClientNamed: name, target: target) }
        for post in removed { finish(post, .failure(reason: .cancelled, spokenChars: 0)) }
    }

    func apply(_ change: SettingsChange) -> Result<Void, RequestError> {
        if let voice = change.voice, !knowsVoice(voice) {
            return .failure(RequestError(.invalid, unknownVoiceMessage(voice, field: "voice")))
        }
        let before = defaults
        if let voice = change.voice { defaults.voice = voice }
        if let rate = change.rate { defaults.rate = rate }
        if let pitch = change.pitch { defaults.pitch = pitch }
        if let volume = change.volume { defaults.volume = volume }
        if let punctuation = change.punctuation { defaults.punctuation = punctuation }
        if let muted = change.muted { defaults.muted = muted }
        if defaults.muted && !before.muted { cancelAll(reason: .cancelled) }
        if defaults.voice != before.voice { prepareVoice(defaults.voice) }
        if defaults != before { broadcast(.statusChanged(statusReport), topic: .status) }
        return .success(())
    }

    /// Takes every value `flow` publishes from now on (``adopt(_:)``), each in a turn of its own
    /// queued where it was published: a reload in a turn is adopted before anything that arrives
    /// after it.
    public nonisolated func follow(_ flow: SettingsFlow) {
        flow.observe { [weak self] settings in
            self?.enqueue { $0.adopt(settings) }
        }
    }

    /// Takes the settings of a reload (``SettingsFlow``): the speech defaults (what `set` had
    /// changed included), the language preferences, the earcon switch the `clients` entries, SSIP's top rate and the history's size and SSIP switch,
    /// which connected clients are matched against again from their next post. When the defaults
    /// or earcons changed, subscribers hear `status-changed`; posts already queued keep their options.
    public func adopt(_ settings: LiveSettings) {
        configuration.voicePreferences = settings.voicePreferences
        configuration.clientSettings = settings.clients
        updateDefaults(
            voice: settings.voice, rate: settings.rate, pitch: settings.pitch, volume: settings.volume,
            punctuation: settings.punctuation, earcons: settings.earcons, ssipMaxRate: settings.ssipMaxRate)
        updateHistory(size: settings.historySize, ssip: settings.historySSIP)
    }

    /// Replaces the speech defaults, and the earcon switch when `earcons` is given and SSIP's top
    /// rate when `ssipMaxRate` is (a configuration reload); when anything `status` shows changed,
    /// subscribers hear `status-changed`. Posts already queued keep the options they were given.
    public func updateDefaults(
        voice: String, rate: Int, pitch: Int, volume: Int, punctuation: Punctuation, earcons: Bool? = nil,
        ssipMaxRate: Int? = nil
    ) {
        transaction { dispatcher in
            let before = dispatcher.defaults
            let earconsBefore = dispatcher.configuration.earcons
            dispatcher.defaults.voice = voice
            dispatcher.defaults.rate = rate
            dispatcher.defaults.pitch = pitch
            dispatcher.defaults.volume = volume
            dispatcher.defaults.punctuation = punctuation
            if let earcons { dispatcher.configuration.earcons = earcons }
            if let ssipMaxRate { dispatcher.defaults.ssipMaxRate = ssipMaxRate }
            if dispatcher.defaults.voice != before.voice { dispatcher.prepareVoice(voice) }
            // `status` does not show ssip_max_rate: a change to it alone changes no status.
            var shownBefore = before
            shownBefore.ssipMaxRate = dispatcher.defaults.ssipMaxRate
            if dispatcher.defaults != shownBefore || dispatcher.configuration.earcons != earconsBefore {
                dispatcher.broadcast(.statusChanged(dispatcher.statusReport), topic: .status)
            }
        }
    }

    /// Ends every post with `shutdown`, in the next turn, and waits until the speaking one has
    /// stopped. Posts made after this also end `shutdown`.
    public nonisolated func shutdown() async {
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            enqueue { dispatcher in
                dispatcher.shuttingDown = true
                dispatcher.cancelAll(reason: .shutdown)
                dispatcher.idleWaiters.append(stopped)
            }
        }
    }

    // MARK: Ending posts

    /// Asks the backend to stop the speaking post; its terminal line follows when it has stopped.
    func interruptSpeaking(reason: FinishReason, evenIfHigh: Bool = false) {
        guard let current = speaking, current.endReason == nil else { return }
        if current.postClass == .high && !evenIfHigh { return }
        current.endReason = reason
        // A post being set aside is already stopping: it ends now instead (``handle(_:)``).
        if !current.parking { backend?.abort(seq: current.seq) }
    }

    /// Sends a post's terminal line to its client and `speech` subscribers.
    func finish(_ post: PostRecord, _ termination: Termination) {
        var termination = termination
        // A post set aside ends with what was heard of it before.
        if case .failure(let reason, let spoken, let message) = termination, spoken < post.heardChars {
            termination = .failure(reason: reason, spokenChars: post.heardChars, message: message)
        }
        activePosts[post.client, default: 1] -= 1
        if activePosts[post.client] == 0 { activePosts[post.client] = nil }
        if let id = post.id { send(.finished(id: id, seq: post.seq, termination: termination), to: post.client) }
        broadcast(.speech(.finished(seq: post.seq, client: post.clientName, termination: termination)), topic: .speech)
        keepInHistory(post, termination)
        if post.client == navigationClientID { navigationSpeechEnded(post, termination) }
        closeIfAnswered(post.client)
    }

    /// Reports a post that was never queued.
    func drop(id: RequestID?, client: ClientID, reason: DropReason) {
        if let id { send(.dropped(id: id, reason: reason), to: client) }
        let name = clients[client]?.displayName ?? "client:\(client)"
        broadcast(.speech(.dropped(client: name, reason: reason)), topic: .speech)
    }

    // MARK: Backend events

    /// Handles one event of the speech backend.
    func handle(_ event: SpeechBackendEvent) {
        guard let current = speaking, current.seq == event.seq else {
            logger.debug("ignored a backend event for a post that is not speaking", metadata: ["seq": "\(event.seq)"])
            return
        }
        switch event {
        case .started where current.started:
            // A post set aside continues: its client was told `started` when it first began.
            if let id = current.id { send(.resumed(id: id, seq: current.seq), to: current.client) }
        case .started:
            current.started = true
            // Set aside before its audio began: it was paused (`paused`), now it speaks. A client
            // never told `paused` (the post was already being set aside) hears no `resumed` either,
            // so no `resumed` comes before its `started`.
            if current.wasSetAside, current.toldPaused, let id = current.id {
                send(.resumed(id: id, seq: current.seq), to: current.client)
            }
            current.toldPaused = false
            if let id = current.id {
                send(
                    .started(id: id, seq: current.seq, text: current.utterance.text, voice: current.voiceName),
                    to: current.client)
            }
            let engine = backend?.engineName(for: current.utterance)
            broadcast(
                .speech(
                    .started(seq: current.seq, client: current.clientName, text: current.utterance.text, engine: engine)
                ), topic: .speech)
            if current.client == navigationClientID { navigationSpeechStarted(current) }
        case .run(_, var run):
            run.range = current.sourceOffset(of: run.range.lowerBound)..<current.sourceOffset(of: run.range.upperBound)
            broadcast(.speech(.run(seq: current.seq, run)), topic: .speech)
        case .word(_, let reported, let length):
            let offset = current.sourceOffset(of: reported)
            current.lastWordOffset = offset
            if current.wantsWords, let id = current.id {
                send(.word(id: id, seq: current.seq, offset: offset, length: length), to: current.client)
            }
        case .mark(_, let name):
            current.marksReached += 1
            if let id = current.id { send(.mark(id: id, seq: current.seq, name: name), to: current.client) }
        case .finished(_, .aborted(let spoken)) where current.parking && current.endReason == nil:
            speaking = nil
            current.park(spokenChars: spoken)
            pending.insertAhead(ofOwnPosts: current)
        case .finished(_, let outcome):
            current.parking = false
            speaking = nil
            finish(current, termination(of: current, outcome))
        }
    }

    /// The scalars of a post's whole text heard, when the backend heard `spoken` of what it spoke.
    private func heard(_ spoken: Int, of post: PostRecord) -> Int {
        max(post.heardChars, min(post.sourceOffset(of: spoken), post.textLength))
    }

    func termination(of post: PostRecord, _ outcome: SpeechOutcome) -> Termination {
        switch outcome {
        case .completed:
            return .success
        case .aborted(let spoken):
            return .failure(reason: post.endReason ?? .interrupted, spokenChars: heard(spoken, of: post))
        case .failed(let message, let spoken):
            logger.error("speech failed", metadata: ["seq": "\(post.seq)", "message": "\(message)"])
            return .failure(reason: .error, spokenChars: heard(spoken, of: post), message: message)
        }
    }
}

extension Event {
    /// The sequence number of the post a post's line is about; nil for other lines.
    var postSeq: UInt64? {
        switch self {
        case .queued(_, let seq, _), .started(_, let seq, _, _), .word(_, let seq, _, _), .mark(_, let seq, _),
            .paused(_, let seq), .resumed(_, let seq), .finished(_, let seq, _):
            return seq
        case .dropped, .error, .ok, .statusChanged, .focusChanged, .speech, .focused, .unfocused, .action, .lint,
            .history:
            return nil
        }
    }
}

extension SpeechBackendEvent {
    /// The sequence number of the utterance the event is about.
    public var seq: UInt64 {
        switch self {
        case .started(let seq), .run(let seq, _), .word(let seq, _, _), .mark(let seq, _), .finished(let seq, _):
            return seq
        }
    }
}
