// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

extension Dispatcher {
    // MARK: Screens

    /// The current screen (protocol, "The screen"), if any client has one.
    public var currentScreen: Screen? { navigation.current }

    /// Publishes `elements` as `client`'s screen, on top of the stack.
    func publishScreen(_ elements: [Element], rotors: [CustomRotor]?, from client: ClientID) {
        clients[client]?.screen = elements
        navigation.publish(Screen(owner: client, elements: elements, rotors: rotors ?? []))
    }

    /// Forgets a disconnected client's screen; the screen below becomes current.
    func removeScreen(of client: ClientID) {
        if navigation.readAll?.owner == client { endReadAll() }
        navigation.remove(owner: client)
    }

    /// For a `layout-changed` with `elements` and no subject of its own: the focused element's new
    /// value when the new elements keep it and its value changed, spoken alone.
    func changedFocusedValue(in elements: [Element], from client: ClientID) -> String? {
        guard let focus, focus.client == client,
            let old = navigation.screens.first(where: { $0.owner == client })?.element(withID: focus.element)
        else { return nil }
        let new = Screen(owner: client, elements: elements).element(withID: focus.element)
        guard let value = new?.value, value != old.value, !value.isBlank else { return nil }
        return value
    }

    // MARK: navigate

    /// Answers a `navigate` request: `ok` with the focus and the selected rotor, or an error.
    func navigate(_ request: NavigateRequest, id: RequestID?, from client: ClientID) {
        if request.action != .readAll, navigation.readAll != nil { endReadAll() }
        do throws(RequestError) {
            guard let screen = navigation.current else {
                throw RequestError(.noScreen, "no app has published a screen: an app posts screen-changed with elements first")
            }
            try perform(request, on: screen)
            reply(id, to: client, [
                "focus": focusedStop(on: screen).map { .string(screen.stops[$0].id) } ?? .null,
                "rotor": navigation.selectedRotor.map(JSONValue.string) ?? .null,
            ])
        } catch {
            send(.error(id: id, code: error.code, message: error.message), to: client)
        }
    }

    /// The index of the focused stop on `screen`, when the focus is on it.
    func focusedStop(on screen: Screen) -> Int? {
        guard let focus, focus.client == screen.owner else { return nil }
        return screen.stopIndex(of: focus.element)
    }

    private func perform(_ request: NavigateRequest, on screen: Screen) throws(RequestError) {
        let focused = focusedStop(on: screen)
        let count = screen.stops.count
        switch request.action {
        case .next:
            try move(to: focused.map { $0 + 1 } ?? 0, on: screen, atEnd: "the last")
        case .previous:
            try move(to: focused.map { $0 - 1 } ?? count - 1, on: screen, atEnd: "the first")
        case .first:
            try move(to: 0, on: screen, atEnd: "the first")
        case .last:
            try move(to: count - 1, on: screen, atEnd: "the last")
        case .rotorSelect:
            try selectRotor(request.rotor, on: screen)
        case .rotorNext:
            try rotorStep(forward: true, on: screen)
        case .rotorPrevious:
            try rotorStep(forward: false, on: screen)
        case .activate:
            let stop = try requireFocus(focused, on: screen)
            if navigation.selectedRotor == BuiltInRotor.actions.rawValue, let chosen = navigation.chosenAction,
                chosen.stop == stop.id, chosen.index < stop.element.actions.count
            {
                send(.action(element: stop.id, action: .custom, name: stop.element.actions[chosen.index]), to: screen.owner)
            } else {
                send(.action(element: stop.id, action: .activate, name: nil), to: screen.owner)
            }
        case .increment, .decrement:
            let stop = try requireFocus(focused, on: screen)
            guard stop.element.traits.contains(.adjustable) else {
                throw RequestError(.notAdjustable, "the focused element \"\(stop.id)\" is not adjustable (it has no trait `adjustable`)")
            }
            send(.action(element: stop.id, action: request.action == .increment ? .increment : .decrement, name: nil), to: screen.owner)
        case .custom:
            let stop = try requireFocus(focused, on: screen)
            guard let name = request.name, stop.element.actions.contains(name) else {
                let known = stop.element.actions.isEmpty ? "it has none" : "its actions: " + stop.element.actions.joined(separator: ", ")
                throw RequestError(.notFound, "the focused element \"\(stop.id)\" has no action \"\(request.name ?? "")\" (\(known))")
            }
            send(.action(element: stop.id, action: .custom, name: name), to: screen.owner)
        case .escape, .magicTap:
            let element = focused.map { screen.stops[$0].id }
            send(.action(element: element, action: request.action == .escape ? .escape : .magicTap, name: nil), to: screen.owner)
        case .read:
            let stop = try requireFocus(focused, on: screen)
            speakNavigation(stop.spokenText(language: navigationLanguage))
        case .readAll:
            let start = focused ?? 0
            guard start < count else {
                throw RequestError(.endOfScreen, "the screen has no stops to read")
            }
            endReadAll()
            let stop = screen.stops[start]
            let seq = speakNavigation(stop.spokenText(language: navigationLanguage), purpose: .readAll(stop: stop.id))
            navigation.readAll = seq.map { NavigationState.ReadAll(owner: screen.owner, next: start + 1, speaking: $0) }
        }
    }

    private func requireFocus(_ focused: Int?, on screen: Screen) throws(RequestError) -> FocusStop {
        guard let focused else {
            throw RequestError(.notFound, "nothing on the screen has the focus: move to an element first (next, first)")
        }
        return screen.stops[focused]
    }

    /// Moves the focus to stop `index` and speaks it; out of range is `end-of-screen` with the
    /// boundary earcon.
    private func move(to index: Int, on screen: Screen, atEnd end: String) throws(RequestError) {
        guard screen.stops.indices.contains(index) else { throw boundary("the focus is on \(end) element of the screen") }
        focusStop(index, on: screen)
    }

    private func focusStop(_ index: Int, on screen: Screen) {
        let stop = screen.stops[index]
        navigation.chosenAction = nil
        moveFocus(to: FocusCursor(client: screen.owner, element: stop.id))
        speakNavigation(stop.spokenText(language: navigationLanguage))
    }

    /// Plays the boundary earcon (if earcons are on) and makes the `end-of-screen` error.
    private func boundary(_ message: String) -> RequestError {
        if configuration.earcons { speakNavigation("", earcon: .boundary) }
        return RequestError(.endOfScreen, message + "; the focus stays where it is")
    }

    // MARK: Rotors

    /// The rotors in `rotor-select` order: the built-in ones, then the screen's custom rotors.
    private func rotorNames(on screen: Screen) -> [String] {
        BuiltInRotor.allCases.map(\.rawValue) + screen.rotors.map(\.name)
    }

    /// The stop indices of the rotor `name`, in the order `rotor-next` visits them; nil when the
    /// screen has no such rotor. For `actions`, the focused stop's actions count as its items.
    private func rotorItems(_ name: String, on screen: Screen) -> [Int]? {
        if let builtIn = BuiltInRotor(rawValue: name) {
            let traits: Set<Trait>
            switch builtIn {
            case .headings: traits = [.header]
            case .links: traits = [.link]
            case .buttons: traits = [.button]
            case .formControls: traits = [.adjustable, .toggle, .searchField]
            case .actions:
                guard let focused = focusedStop(on: screen) else { return [] }
                return Array(screen.stops[focused].element.actions.indices)
            }
            return screen.stops.indices.filter { !traits.isDisjoint(with: screen.stops[$0].element.traits) }
        }
        guard let custom = screen.rotors.first(where: { $0.name == name }) else { return nil }
        var seen = Set<Int>()
        return custom.elements.compactMap(screen.stopIndex(of:)).filter { seen.insert($0).inserted }
    }

    private func selectRotor(_ name: String?, on screen: Screen) throws(RequestError) {
        let names = rotorNames(on: screen)
        let chosen: String
        if let name {
            guard rotorItems(name, on: screen) != nil else {
                throw RequestError(.notFound, "there is no rotor \"\(name)\" on this screen (rotors: \(names.joined(separator: ", ")))")
            }
            chosen = name
        } else {
            let start = navigation.selectedRotor.flatMap { names.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            let order = (0..<names.count).map { names[(start + $0) % names.count] }
            guard let available = order.first(where: { !(rotorItems($0, on: screen) ?? []).isEmpty }) else {
                throw RequestError(.notFound, "no rotor has items on this screen: it has no headings, links, buttons, form controls, actions or custom rotors")
            }
            chosen = available
        }
        navigation.selectedRotor = chosen
        navigation.chosenAction = nil
        speakNavigation(chosen)
    }

    private func rotorStep(forward: Bool, on screen: Screen) throws(RequestError) {
        guard let name = navigation.selectedRotor else {
            throw RequestError(.notFound, "no rotor is selected: select one first with rotor-select")
        }
        guard let items = rotorItems(name, on: screen) else {
            throw RequestError(.notFound, "the selected rotor \"\(name)\" is not on this screen: select another with rotor-select")
        }
        let focused = focusedStop(on: screen)
        if name == BuiltInRotor.actions.rawValue {
            guard let focused else {
                throw RequestError(.noActions, "nothing has the focus, so there are no actions: move to an element first")
            }
            let stop = screen.stops[focused]
            guard !items.isEmpty else {
                throw RequestError(.noActions, "the focused element \"\(stop.id)\" has no custom actions")
            }
            let current = navigation.chosenAction.flatMap { $0.stop == stop.id ? $0.index : nil }
            let count = items.count
            let index = current.map { (forward ? $0 + 1 : $0 - 1 + count) % count } ?? (forward ? 0 : count - 1)
            navigation.chosenAction = (stop.id, index)
            speakNavigation(stop.element.actions[index])
            return
        }
        let target: Int?
        if screen.rotors.contains(where: { $0.name == name }) {
            let position = focused.flatMap { items.firstIndex(of: $0) }
            let next = position.map { forward ? $0 + 1 : $0 - 1 } ?? (forward ? 0 : items.count - 1)
            target = items.indices.contains(next) ? items[next] : nil
        } else if forward {
            target = items.first { $0 > (focused ?? -1) }
        } else {
            target = items.last { $0 < (focused ?? screen.stops.count) }
        }
        guard let target else {
            throw boundary("there is no \(forward ? "next" : "previous") item of the rotor \"\(name)\"")
        }
        focusStop(target, on: screen)
    }

    // MARK: Speech

    /// The language navigation speech is spoken in: the default voice's.
    private var navigationLanguage: String { language(ofVoice: defaults.voice) }

    /// Queues navigation speech: it interrupts what is speaking unless that is `high`, and
    /// replaces a waiting interrupting post (earlier navigation speech among them).
    @discardableResult
    func speakNavigation(_ text: String, purpose: NavigationState.Purpose = .speech, earcon: EarconSound? = nil) -> UInt64? {
        if text.isBlank && earcon == nil { return nil }
        let seq = nextSeq
        nextSeq += 1
        let utterance = Utterance(
            seq: seq, text: text, voice: resolve(voiceName: defaults.voice)?.synthesizerName ?? defaults.voice,
            rate: defaults.rate, pitch: defaults.pitch,
            volume: defaults.volume, punctuation: defaults.punctuation, earcon: earcon != nil,
            earconSound: earcon ?? .screenChange
        )
        let record = PostRecord(
            seq: seq, id: nil, client: navigationClientID, clientName: navigationClientName,
            options: SpeechOptions(), utterance: utterance, voiceName: nil
        )
        activePosts[navigationClientID, default: 0] += 1
        navigation.speech[seq] = purpose
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
        return seq
    }

    /// A post's audio began: a `read-all` stop takes the focus.
    func navigationSpeechStarted(_ post: PostRecord) {
        guard case .readAll(let id)? = navigation.speech[post.seq], let readAll = navigation.readAll,
            readAll.speaking == post.seq, let screen = navigation.screens.first(where: { $0.owner == readAll.owner })
        else { return }
        navigation.chosenAction = nil
        moveFocus(to: FocusCursor(client: screen.owner, element: id))
    }

    /// A post ended: a `read-all` stop spoken to the end is followed by the next stop; one
    /// ended early ends the `read-all`.
    func navigationSpeechEnded(_ post: PostRecord, _ termination: Termination) {
        guard let purpose = navigation.speech.removeValue(forKey: post.seq),
            case .readAll = purpose, let readAll = navigation.readAll, readAll.speaking == post.seq
        else { return }
        guard termination.success, let screen = navigation.screens.first(where: { $0.owner == readAll.owner }),
            readAll.next < screen.stops.count
        else {
            navigation.readAll = nil
            return
        }
        let stop = screen.stops[readAll.next]
        navigation.readAll?.next += 1
        let seq = speakNavigation(stop.spokenText(language: navigationLanguage), purpose: .readAll(stop: stop.id))
        if let seq { navigation.readAll?.speaking = seq } else { navigation.readAll = nil }
    }

    /// Ends a `read-all` under way: its speech stops and nothing more is read.
    func endReadAll() {
        guard navigation.readAll != nil else { return }
        navigation.readAll = nil
        let reading = Set(navigation.speech.compactMap { seq, purpose in
            if case .readAll = purpose { return seq } else { return nil }
        })
        if let current = speaking, reading.contains(current.seq) { interruptSpeaking(reason: .interrupted) }
        for post in pending.removeAll(where: { reading.contains($0.seq) }) {
            finish(post, .failure(reason: .interrupted, spokenChars: 0))
        }
    }

    // MARK: update

    /// Answers an `update` request from the current screen's owner.
    func update(_ change: ElementUpdate, id: RequestID?, from client: ClientID) {
        guard var screen = navigation.current, screen.owner == client else {
            send(.error(id: id, code: .forbidden, message: "only the current screen's owner may update its elements: post screen-changed with elements first"), to: client)
            return
        }
        let before = screen.element(withID: change.id)
        guard screen.apply(change) else {
            send(.error(id: id, code: .notFound, message: "there is no element \"\(change.id)\" on your screen"), to: client)
            return
        }
        navigation.publish(screen)
        clients[client]?.screen = screen.elements
        if let updated = screen.element(withID: change.id) { sendLint(for: [updated], to: client) }
        if focus == FocusCursor(client: client, element: change.id), let value = screen.element(withID: change.id)?.value,
            value != before?.value
        {
            speakNavigation(value)
        }
        reply(id, to: client)
    }
}
