// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The client name navigation speech carries in `speech` events.
let navigationClientName = "navigation"
/// The connection number navigation speech is counted under: no connection has it (numbers
/// count up from 1), so its lines go nowhere and no client's pending limit is charged.
let navigationClientID = ClientID.max

/// The dispatcher's side of navigation: it hands `navigate` and `update` to its
/// ``ScreenNavigator``, does what the navigator hands back (focus lines, speech, actions), and
/// answers.
extension Dispatcher {
    /// The current screen (protocol, "The screen"), if any client has one.
    public var currentScreen: Screen? { navigator.current }

    /// Which element has the focus, and whose.
    var focus: FocusCursor? { navigator.focus }

    /// Moves the focus, telling the owners (`focused`, `unfocused`) and `focus` subscribers.
    func moveFocus(to cursor: FocusCursor?) {
        perform(navigator.moveFocus(to: cursor))
    }

    /// Answers a `navigate` request: `ok` with the focus and the selected rotor, or an error.
    func navigate(_ request: NavigateRequest, id: RequestID?, from client: ClientID) {
        let outcome = navigator.navigate(request, language: navigationLanguage, earcons: configuration.earcons)
        perform(outcome.effects)
        answer(outcome.answer, id: id, to: client)
    }

    /// Answers an `update` request from the current screen's owner.
    func update(_ change: ElementUpdate, id: RequestID?, from client: ClientID) {
        let outcome = navigator.update(change, from: client)
        perform(outcome.effects)
        answer(outcome.answer, id: id, to: client)
    }

    private func answer(_ answer: Result<JSONObject, RequestError>, id: RequestID?, to client: ClientID) {
        switch answer {
        case .success(let fields): reply(id, to: client, fields)
        case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: client)
        }
    }

    /// Does what the navigator handed back, in order.
    func perform(_ effects: [NavigationEffect]) {
        for effect in effects {
            switch effect {
            case .focusMoved(let old, let new): sendFocusMove(from: old, to: new)
            case .speak(let speech): speakNavigation(speech)
            case .send(let event, let client): send(event, to: client)
            case .stopReadAll: stopReadAllSpeech()
            case .lint(let element, let owner): sendLint(for: [element], to: owner)
            }
        }
    }

    /// Tells the owners (`unfocused`, `focused`) and `focus` subscribers that the focus moved.
    private func sendFocusMove(from old: FocusCursor?, to new: FocusCursor?) {
        if let old { send(.unfocused(element: old.element), to: old.client) }
        if let new { send(.focused(element: new.element), to: new.client) }
        for id in subscribers[.focus] ?? [] {
            outbox[id, default: []].append(
                .event(.focusChanged(from: old?.element, to: new?.element, owner: new?.client == id)))
        }
    }

    // MARK: Speech

    /// The language navigation speech is spoken in: the default voice's.
    private var navigationLanguage: String { voiceIndex.language(ofVoice: defaults.voice) }

    /// Queues navigation speech: it interrupts what is speaking unless that is `high`, and
    /// replaces a waiting interrupting post (earlier navigation speech among them).
    private func speakNavigation(_ speech: NavigationSpeech) {
        let seq = sequenceNumbers.next()
        let utterance = Utterance(
            seq: seq, text: speech.text,
            voice: voiceIndex.resolve(voiceName: defaults.voice)?.synthesizerName ?? defaults.voice,
            rate: defaults.rate, pitch: defaults.pitch,
            volume: defaults.volume, punctuation: defaults.punctuation, earcon: speech.earcon != nil,
            earconSound: speech.earcon ?? .screenChange
        )
        let record = PostRecord(
            seq: seq, id: nil, client: navigationClientID, clientName: navigationClientName,
            options: SpeechOptions(), utterance: utterance, voiceName: nil, readAllStop: speech.readAllStop
        )
        activePosts[navigationClientID, default: 0] += 1
        if shuttingDown {
            finish(record, .failure(reason: .shutdown, spokenChars: 0))
        } else if defaults.muted {
            finish(record, .failure(reason: .muted, spokenChars: 0))
        } else {
            interruptSpeaking(reason: .interrupted)
            if let replaced = pending.insert(record) {
                finish(replaced, .failure(reason: .interrupted, spokenChars: 0))
            }
        }
    }

    /// Ends the speaking and waiting stops of a `read-all`.
    private func stopReadAllSpeech() {
        if speaking?.readAllStop != nil { interruptSpeaking(reason: .interrupted) }
        for post in pending.removeAll(where: { $0.readAllStop != nil }) {
            finish(post, .failure(reason: .interrupted, spokenChars: 0))
        }
    }

    /// A post's audio began: a `read-all` stop takes the focus.
    func navigationSpeechStarted(_ post: PostRecord) {
        guard let stop = post.readAllStop else { return }
        perform(navigator.readAllStopStarted(stop))
    }

    /// A post ended: a `read-all` stop spoken to the end is followed by the next stop; one ended
    /// early ends the `read-all`.
    func navigationSpeechEnded(_ post: PostRecord, _ termination: Termination) {
        guard let stop = post.readAllStop else { return }
        perform(navigator.readAllStopEnded(stop, completed: termination.success, language: navigationLanguage))
    }
}
