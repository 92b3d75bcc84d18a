// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// What a speech post will say and do, worked out before anything changes.
struct PostPlan {
    var text: String?
    var focusTarget: Element?
    var screen: [Element]?
}

extension Dispatcher {
    /// Accepts a speech post made on the main thread: validates it, queues it and schedules it.
    /// With `sound`, the post is the earcon alone (the `sound` request): it plays even with an
    /// empty text.
    ///
    /// `priority` is a front-end message's (SSIP's): it decides how the post takes its turn
    /// instead of the options' `priority` and `queue` (see ``admit(_:)``).
    func accept(
        _ post: SpeechPost, id: RequestID?, from client: ClientID, sound: EarconSound? = nil, priority: MessagePriority? = nil
    ) -> PostAdmission {
        let plan: PostPlan
        let voice: ResolvedVoice
        do {
            voice = try resolveVoice(post.options)
            plan = sound != nil ? PostPlan(text: "") : try self.plan(post, client: client, language: voice.language)
        } catch {
            var error = error
            error.id = id
            send(error.event, to: client)
            return .rejected(error)
        }
        sendLint(for: post, language: voice.language, to: client)
        let speakingOwn = speaking?.client == client ? 1 : 0
        guard activePosts[client, default: 0] - speakingOwn < configuration.maxPendingPerClient else {
            drop(id: id, client: client, reason: .queueFull)
            return .dropped(.queueFull)
        }

        if navigation.readAll?.owner == client { endReadAll() }
        let seq = nextSeq
        nextSeq += 1
        if let screen = plan.screen { publishScreen(screen, rotors: post.rotors, from: client) }
        if let target = plan.focusTarget { moveFocus(to: FocusCursor(client: client, element: target.id)) }
        let options = post.options
        let utterance = Utterance(
            seq: seq, text: plan.text ?? "", ssml: options.ssml, voice: voice.synthesizerName,
            rate: options.rate ?? defaults.rate, pitch: options.pitch ?? defaults.pitch,
            volume: options.volume ?? defaults.volume, punctuation: options.punctuation ?? defaults.punctuation,
            spell: options.spell, earcon: sound != nil || (post.kind == .screenChanged && configuration.earcons),
            earconSound: sound ?? .screenChange
        )
        let record = PostRecord(
            seq: seq, id: id, client: client, clientName: clients[client]?.displayName ?? "client:\(client)",
            options: options, utterance: utterance,
            // Only a post that asked for a voice or a language is told which voice spoke, so a
            // plain post's lines stay exactly the contract's.
            voiceName: options.voice != nil || options.lang != nil ? voice.name : nil,
            priority: priority
        )
        activePosts[client, default: 0] += 1
        if let warning = voice.warning {
            logger.notice("\(warning)", metadata: ["seq": "\(seq)", "client": "\(record.clientName)"])
        }
        if let id { send(.queued(id: id, seq: seq, warning: voice.warning), to: client) }

        if post.kind == .screenChanged {
            interruptSpeaking(reason: .interrupted)
            let discarded = pending.removeAll { $0.postClass != .high }
            for old in discarded { finish(old, .failure(reason: .interrupted, spokenChars: 0)) }
        }
        if shuttingDown {
            finish(record, .failure(reason: .shutdown, spokenChars: 0))
        } else if defaults.muted {
            finish(record, .failure(reason: .muted, spokenChars: 0))
        } else if plan.text == nil {
            finish(record, .success)
        } else {
            admit(record)
        }
        return .queued(seq: seq)
    }

    /// Puts a queued post in line by its class's rules (the native ones, and speech-dispatcher's
    /// five priorities, shared/ssip.md §4): what it ends on arrival, and where it waits. A
    /// notification or progress message that may not wait ends at once, never started.
    func admit(_ record: PostRecord) {
        switch record.postClass {
        case .notification, .progress:
            guard mayWait(droppable: record) else {
                finish(record, .failure(reason: .interrupted, spokenChars: 0))
                return
            }
            // A newer notification replaces a speaking one.
            if record.postClass == .notification, speaking?.postClass == .notification {
                interruptSpeaking(reason: .interrupted)
            }
        case .queuedLow:
            break
        case .high, .interrupting, .queuedDefault, .message, .text:
            endDroppables()
            if record.postClass == .message || record.postClass == .text {
                // Only the newest text survives, and a message ends text too.
                if speaking?.postClass == .text { interruptSpeaking(reason: .interrupted) }
                for old in pending.removeAll(where: { $0.postClass == .text }) {
                    finish(old, .failure(reason: .interrupted, spokenChars: 0))
                }
            }
        }
        if record.interrupts { interruptSpeaking(reason: .interrupted) }
        if let replaced = pending.insert(record) {
            finish(replaced, .failure(reason: .interrupted, spokenChars: 0))
        }
    }

    /// Whether a notification or progress message may wait: not while output is paused, and not
    /// while any other kind of post speaks or waits; a progress message may wait behind a speaking
    /// progress or notification and beside a waiting notification, a notification only beside
    /// notifications (shared/ssip.md §4: a waiting progress drops it too).
    func mayWait(droppable record: PostRecord) -> Bool {
        if paused { return false }
        let isProgress = record.postClass == .progress
        if let current = speaking, current.endReason == nil {
            let giving = isProgress ? current.postClass.isDroppable : current.postClass == .notification
            if !giving { return false }
        }
        return !pending.contains { isProgress ? !$0.postClass.isDroppable : $0.postClass != .notification }
    }

    /// Ends the speaking and waiting notification and progress messages: every other post
    /// (but `low`) comes before them.
    func endDroppables() {
        if speaking?.postClass.isDroppable == true { interruptSpeaking(reason: .interrupted) }
        for old in pending.removeAll(where: { $0.postClass.isDroppable }) {
            finish(old, .failure(reason: .interrupted, spokenChars: 0))
        }
    }

    /// Works out the text, focus and screen of a post; throws `text-too-long` for an element whose
    /// spoken text is over the limit.
    func plan(_ post: SpeechPost, client: ClientID, language: String?) throws(RequestError) -> PostPlan {
        var plan = PostPlan(screen: post.elements)
        let screen = post.elements ?? clients[client]?.screen ?? []
        switch post.subject {
        case .text(let text):
            plan.text = text
        case .element(let element):
            let full = completed(element, from: screen)
            plan.focusTarget = full
            plan.text = full.spokenText(language: language)
        case .none:
            if post.kind == .screenChanged, let elements = post.elements, let first = Screen.stops(of: elements).first {
                plan.focusTarget = first.element
                plan.text = first.spokenText(language: language)
            } else if post.kind == .layoutChanged, let elements = post.elements {
                plan.text = changedFocusedValue(in: elements, from: client)
            }
        }
        if let text = plan.text {
            if text.isBlank {
                plan.text = nil
            } else {
                try DecodingLimits(maxTextChars: configuration.maxTextChars).checkLength(text, field: "element")
            }
        }
        return plan
    }

    /// An element posted with only its `id` takes the rest from the screen's element of that id.
    func completed(_ element: Element, from screen: [Element]) -> Element {
        guard element.label == nil, element.value == nil, element.traits.isEmpty, element.hint == nil,
            let known = screen.first(where: { $0.id == element.id })
        else { return element }
        return known
    }

    /// Moves the focus cursor, telling the owners (`focused`, `unfocused`) and `focus` subscribers.
    func moveFocus(to cursor: FocusCursor?) {
        let old = focus
        guard old != cursor else { return }
        focus = cursor
        if let old { send(.unfocused(element: old.element), to: old.client) }
        if let cursor { send(.focused(element: cursor.element), to: cursor.client) }
        for id in subscribers[.focus] ?? [] {
            outbox[id, default: []].append(.event(.focusChanged(from: old?.element, to: cursor?.element, owner: cursor?.client == id)))
        }
    }

    // MARK: Voices

    /// The voice a post speaks with, resolved.
    struct ResolvedVoice {
        /// The voice's name, as `started` reports it (`en-us`, `en+f3`).
        var name: String
        /// What the synthesizer selects it with (`gmw/en-US`, `gmw/en+f3`).
        var synthesizerName: String
        /// The language the text is in, for trait names.
        var language: String?
        /// Set when the post asked for a language no voice speaks.
        var warning: String?
    }

    /// The voice a post speaks with: its `voice`, else one for its `lang`, else the default.
    func resolveVoice(_ options: SpeechOptions) throws(RequestError) -> ResolvedVoice {
        if let voice = options.voice {
            guard let resolved = resolve(voiceName: voice) else {
                throw RequestError(.invalid, unknownVoiceMessage(voice, field: "voice"))
            }
            return ResolvedVoice(
                name: resolved.name, synthesizerName: resolved.synthesizerName,
                language: options.lang ?? resolved.language
            )
        }
        let fallback = resolve(voiceName: defaults.voice)
            ?? ResolvedVoice(name: defaults.voice, synthesizerName: defaults.voice, language: defaults.voice)
        if let lang = options.lang {
            if let match = voice(forLanguage: lang), let resolved = resolve(voiceName: match) {
                return ResolvedVoice(name: resolved.name, synthesizerName: resolved.synthesizerName, language: lang)
            }
            var chosen = fallback
            chosen.language = lang
            if !voiceIndex.isEmpty {
                chosen.warning = "no voice speaks the language \"\(lang)\"; spoken with the default voice \(fallback.name)"
            }
            return chosen
        }
        return fallback
    }

    /// The voice `name` selects (with its `+variant` suffix, if any), or nil when there is none.
    /// Any name is taken as it is when the backend lists no voices.
    func resolve(voiceName name: String) -> ResolvedVoice? {
        let parts = name.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts.first.map(String.init) ?? name
        let variant = parts.count > 1 ? "+" + parts[1] : ""
        guard !voiceIndex.isEmpty else { return ResolvedVoice(name: name, synthesizerName: name, language: base) }
        guard !base.isEmpty, let voice = voiceIndex.voice(named: base) else { return nil }
        return ResolvedVoice(
            name: voice.name + variant, synthesizerName: voice.identifier + variant, language: voice.languages.first ?? voice.name
        )
    }

    /// The best language of the voice `name` selects, else `name` itself.
    func language(ofVoice name: String) -> String {
        resolve(voiceName: name)?.language ?? name
    }

    /// True when `name` selects a voice (see ``resolve(voiceName:)``).
    public func knowsVoice(_ name: String) -> Bool {
        resolve(voiceName: name) != nil
    }

    /// A voice for a BCP 47 tag: one that lists it, else one for its primary subtag.
    func voice(forLanguage tag: String) -> String? {
        let lower = tag.lowercased().replacingUnderscores()
        if let exact = voiceIndex.voice(speaking: lower) { return exact.name }
        let primary = TraitNames.primarySubtag(lower)
        let candidates = primary == "zh" ? ["cmn", "zh"] : [primary]
        for candidate in candidates {
            if let match = voiceIndex.voice(speakingOrNamed: candidate) { return match.name }
        }
        return nil
    }

    /// Why `voice` was refused, and what to use instead.
    public func unknownVoiceMessage(_ voice: String, field: String) -> String {
        "`\(field)` names the unknown voice \"\(voice)\"; give a language or file name from `espeak-ng --voices` "
            + "(e.g. \"en-us\", \"en-gb\", \"gmw/en\", \"fr-fr\", \"de\", \"cmn\"), or run `announcectl voices`"
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
