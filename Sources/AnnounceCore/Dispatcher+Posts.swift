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
    ///
    /// `reservedSeq` is the sequence number of a message whose `queued` answer its front-end
    /// already wrote (``ClientInput/queuedMessage(_:seq:)``): the post takes that number, is not
    /// answered `queued` again, and one the dispatcher will not queue ends at once with its
    /// terminal line (``endUnqueued(id:seq:client:because:)``) instead of an `error` or `dropped`.
    func accept(
        _ post: SpeechPost, id: RequestID?, from client: ClientID, sound: EarconSound? = nil,
        priority: MessagePriority? = nil,
        reservedSeq: UInt64? = nil
    ) -> PostAdmission {
        let plan: PostPlan
        let voice: ResolvedVoice
        // The message's own options, then the client's `clients` entry, then the defaults.
        let own = defaults(for: client)
        var options = post.options
        if options.voice == nil, options.lang == nil, let language = own.language {
            options.lang = language
        }
        do {
            voice = try resolveVoice(options, defaultVoice: own.voice)
            plan = sound != nil ? PostPlan(text: "") : try self.plan(post, client: client, language: voice.language)
        } catch {
            var error = error
            error.id = id
            if let reservedSeq, let id {
                endUnqueued(id: id, seq: reservedSeq, client: client, because: error.message)
            } else {
                send(error.event, to: client)
            }
            return .rejected(error)
        }
        sendLint(for: post, language: voice.language, to: client)
        let speakingOwn = speaking?.client == client ? 1 : 0
        guard activePosts[client, default: 0] - speakingOwn < configuration.maxPendingPerClient else {
            if sound == nil {
                keepDropped(text: plan.text, ssml: post.options.ssml, voice: voice, client: client, reason: .queueFull)
            }
            dropForFullQueue(id: id, client: client, reservedSeq: reservedSeq)
            return .dropped(.queueFull)
        }

        perform(navigator.clientPosted(client))
        let seq = reservedSeq ?? sequenceNumbers.next()
        if let screen = plan.screen { navigator.publish(screen, rotors: post.rotors ?? [], owner: client) }
        if let target = plan.focusTarget { moveFocus(to: FocusCursor(client: client, element: target.id)) }
        let utterance = Utterance(
            seq: seq, text: plan.text ?? "", ssml: options.ssml, voice: voice.synthesizerName,
            rate: options.rate ?? own.rate, pitch: options.pitch ?? own.pitch,
            volume: options.volume ?? own.volume, punctuation: options.punctuation ?? own.punctuation,
            spell: options.spell, earcon: sound != nil || (post.kind == .screenChanged && configuration.earcons),
            earconSound: sound ?? .screenChange)
        let record = PostRecord(
            seq: seq, id: id, client: client, clientName: clients[client]?.displayName ?? "client:\(client)",
            options: options, utterance: utterance,
            // Only a post that asked for a voice or a language is told which voice spoke, so a
            // plain post's lines stay exactly the contract's.
            voiceName: options.voice != nil || options.lang != nil ? voice.name : nil,
            priority: priority
        )
        if sound == nil, let text = plan.text, !text.isBlank {
            record.historySource = historySource(for: client, voice: voice)
        }
        activePosts[client, default: 0] += 1
        if let warning = voice.warning {
            logger.notice("\(warning)", metadata: ["seq": "\(seq)", "client": "\(record.clientName)"])
        }
        if let id, reservedSeq == nil { send(.queued(id: id, seq: seq, warning: voice.warning), to: client) }

        if post.kind == .screenChanged { clearForNewScreen() }
        if shuttingDown {
            finish(record, .failure(reason: .shutdown, spokenChars: 0))
        } else if own.muted {
            finish(record, .failure(reason: .muted, spokenChars: 0))
        } else if plan.text == nil {
            finish(record, .success)
        } else {
            admit(record)
        }
        return .queued(seq: seq)
    }

    /// Drops a post because `client` has `max_pending_per_client` posts waiting: a message whose
    /// `queued` its front end wrote (`reservedSeq`) ends at once with its terminal line, and the
    /// `speech` subscribers hear of the drop; any other post is answered `dropped`.
    private func dropForFullQueue(id: RequestID?, client: ClientID, reservedSeq: UInt64?) {
        if let reservedSeq, let id {
            endUnqueued(
                id: id, seq: reservedSeq, client: client,
                because: "the connection has \(configuration.maxPendingPerClient) messages waiting")
            drop(id: nil, client: client, reason: .queueFull)
        } else {
            drop(id: id, client: client, reason: .queueFull)
        }
    }

    /// A new screen: what speaks, and every waiting post but the high ones, end `interrupted`.
    private func clearForNewScreen() {
        interruptSpeaking(reason: .interrupted)
        let discarded = pending.removeAll { $0.postClass != .high }
        for old in discarded { finish(old, .failure(reason: .interrupted, spokenChars: 0)) }
    }

    /// Ends a message whose `queued` answer its front-end already wrote but which the dispatcher
    /// will not queue (too many waiting, options it refuses): its client hears its terminal line
    /// at once (`finished` with reason `error`; SSIP's 703 CANCELED, as for a message cancelled
    /// before it began, shared/ssip.md §5), and nothing else about it.
    func endUnqueued(id: RequestID, seq: UInt64, client: ClientID, because reason: String) {
        logger.notice(
            "ended a message answered queued before it could be queued",
            metadata: [
                "seq": "\(seq)", "client": "\(clients[client]?.displayName ?? "client:\(client)")",
                "reason": "\(reason)",
            ])
        send(
            .finished(id: id, seq: seq, termination: .failure(reason: .error, spokenChars: 0, message: reason)),
            to: client)
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

    /// Whether a notification or progress message may wait: not while it is held (the channel,
    /// or its connection's messages, paused), and not
    /// while any other kind of post speaks or waits; a progress message may wait behind a speaking
    /// progress or notification and beside a waiting notification, a notification only beside
    /// notifications (shared/ssip.md §4: a waiting progress drops it too).
    func mayWait(droppable record: PostRecord) -> Bool {
        if holds.holds(record.client) { return false }
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
        let screen = post.elements ?? navigator.screen(of: client)?.elements ?? []
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
                plan.text = navigator.changedFocusedValue(in: elements, from: client)
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
}
