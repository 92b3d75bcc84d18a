// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

extension ScreenNavigator {
    /// `navigate` on the current screen: the focus moves, a rotor turns, an action goes to the
    /// screen's owner or a stop is read. Answers `ok` with the focus and the selected rotor, or
    /// an error. Speech is in `language`; the boundary earcon plays when `earcons` is on.
    mutating func navigate(_ request: NavigateRequest, language: String, earcons: Bool) -> NavigationOutcome {
        var turn = NavigationTurn(language: language, earcons: earcons)
        if request.action != .readAll, readAll != nil { turn.effects += endReadAll() }
        do throws(RequestError) {
            guard let screen = current else {
                throw RequestError(
                    .noScreen, "no app has published a screen: an app posts screen-changed with elements first")
            }
            try perform(request, on: screen, &turn)
            return NavigationOutcome(
                effects: turn.effects,
                answer: .success([
                    "focus": focusedStop(on: screen).map { .string(screen.stops[$0].id) } ?? .null,
                    "rotor": selectedRotor.map(JSONValue.string) ?? .null,
                ]))
        } catch {
            return NavigationOutcome(effects: turn.effects, answer: .failure(error))
        }
    }

    private mutating func perform(_ request: NavigateRequest, on screen: Screen, _ turn: inout NavigationTurn)
        throws(RequestError)
    {
        let focused = focusedStop(on: screen)
        let count = screen.stops.count
        switch request.action {
        case .next:
            try move(to: focused.map { $0 + 1 } ?? 0, on: screen, atEnd: "the last", &turn)
        case .previous:
            try move(to: focused.map { $0 - 1 } ?? count - 1, on: screen, atEnd: "the first", &turn)
        case .first:
            try move(to: 0, on: screen, atEnd: "the first", &turn)
        case .last:
            try move(to: count - 1, on: screen, atEnd: "the last", &turn)
        case .rotorSelect:
            try selectRotor(request.rotor, on: screen, &turn)
        case .rotorNext:
            try rotorStep(forward: true, on: screen, &turn)
        case .rotorPrevious:
            try rotorStep(forward: false, on: screen, &turn)
        case .activate:
            let stop = try requireFocus(focused, on: screen)
            if selectedRotor == BuiltInRotor.actions.rawValue, let chosenAction, chosenAction.stop == stop.id,
                chosenAction.index < stop.element.actions.count
            {
                let name = stop.element.actions[chosenAction.index]
                turn.effects.append(.send(.action(element: stop.id, action: .custom, name: name), to: screen.owner))
            } else {
                turn.effects.append(.send(.action(element: stop.id, action: .activate, name: nil), to: screen.owner))
            }
        case .increment, .decrement:
            let stop = try requireFocus(focused, on: screen)
            guard stop.element.traits.contains(.adjustable) else {
                throw RequestError(
                    .notAdjustable,
                    "the focused element \"\(stop.id)\" is not adjustable (it has no trait `adjustable`)")
            }
            let action: ElementActionKind = request.action == .increment ? .increment : .decrement
            turn.effects.append(.send(.action(element: stop.id, action: action, name: nil), to: screen.owner))
        case .custom:
            let stop = try requireFocus(focused, on: screen)
            guard let name = request.name, stop.element.actions.contains(name) else {
                let known =
                    stop.element.actions.isEmpty
                    ? "it has none" : "its actions: " + stop.element.actions.joined(separator: ", ")
                throw RequestError(
                    .notFound, "the focused element \"\(stop.id)\" has no action \"\(request.name ?? "")\" (\(known))")
            }
            turn.effects.append(.send(.action(element: stop.id, action: .custom, name: name), to: screen.owner))
        case .escape, .magicTap:
            let element = focused.map { screen.stops[$0].id }
            let action: ElementActionKind = request.action == .escape ? .escape : .magicTap
            turn.effects.append(.send(.action(element: element, action: action, name: nil), to: screen.owner))
        case .read:
            let stop = try requireFocus(focused, on: screen)
            turn.speak(stop.spokenText(language: turn.language))
        case .readAll:
            let start = focused ?? 0
            guard start < count else {
                throw RequestError(.endOfScreen, "the screen has no stops to read")
            }
            startReadAll(on: screen, from: start, &turn)
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
    private mutating func move(to index: Int, on screen: Screen, atEnd end: String, _ turn: inout NavigationTurn)
        throws(RequestError)
    {
        guard screen.stops.indices.contains(index) else {
            throw boundary("the focus is on \(end) element of the screen", &turn)
        }
        focusStop(index, on: screen, &turn)
    }

    private mutating func focusStop(_ index: Int, on screen: Screen, _ turn: inout NavigationTurn) {
        let stop = screen.stops[index]
        chosenAction = nil
        turn.effects += moveFocus(to: FocusCursor(client: screen.owner, element: stop.id))
        turn.speak(stop.spokenText(language: turn.language))
    }

    /// Plays the boundary earcon (if earcons are on) and makes the `end-of-screen` error.
    private func boundary(_ message: String, _ turn: inout NavigationTurn) -> RequestError {
        if turn.earcons { turn.speak("", earcon: .boundary) }
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

    private mutating func selectRotor(_ name: String?, on screen: Screen, _ turn: inout NavigationTurn)
        throws(RequestError)
    {
        let names = rotorNames(on: screen)
        let chosen: String
        if let name {
            guard rotorItems(name, on: screen) != nil else {
                throw RequestError(
                    .notFound, "there is no rotor \"\(name)\" on this screen (rotors: \(names.joined(separator: ", ")))"
                )
            }
            chosen = name
        } else {
            let start = selectedRotor.flatMap { names.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            let order = (0..<names.count).map { names[(start + $0) % names.count] }
            guard let available = order.first(where: { !(rotorItems($0, on: screen) ?? []).isEmpty }) else {
                throw RequestError(
                    .notFound,
                    "no rotor has items on this screen: it has no headings, links, buttons, form controls, actions or custom rotors"
                )
            }
            chosen = available
        }
        selectedRotor = chosen
        chosenAction = nil
        turn.speak(chosen)
    }

    private mutating func rotorStep(forward: Bool, on screen: Screen, _ turn: inout NavigationTurn) throws(RequestError)
    {
        guard let name = selectedRotor else {
            throw RequestError(.notFound, "no rotor is selected: select one first with rotor-select")
        }
        guard let items = rotorItems(name, on: screen) else {
            throw RequestError(
                .notFound, "the selected rotor \"\(name)\" is not on this screen: select another with rotor-select")
        }
        let focused = focusedStop(on: screen)
        if name == BuiltInRotor.actions.rawValue {
            guard let focused else {
                throw RequestError(
                    .noActions, "nothing has the focus, so there are no actions: move to an element first")
            }
            let stop = screen.stops[focused]
            guard !items.isEmpty else {
                throw RequestError(.noActions, "the focused element \"\(stop.id)\" has no custom actions")
            }
            let current = chosenAction.flatMap { $0.stop == stop.id ? $0.index : nil }
            let count = items.count
            let index = current.map { (forward ? $0 + 1 : $0 - 1 + count) % count } ?? (forward ? 0 : count - 1)
            chosenAction = (stop.id, index)
            turn.speak(stop.element.actions[index])
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
            throw boundary("there is no \(forward ? "next" : "previous") item of the rotor \"\(name)\"", &turn)
        }
        focusStop(target, on: screen, &turn)
    }
}
