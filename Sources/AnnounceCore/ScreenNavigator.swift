// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// Which element has the focus, and whose it is.
struct FocusCursor: Hashable {
    let client: ClientID
    let element: String
}

/// The screens apps publish, the focus on them, the rotor and `read-all`: everything `navigate`
/// and `update` act on (protocol, "Additions: screens, navigation and lint").
///
/// The dispatcher owns one and calls it on its turns. The navigator keeps its own state and never
/// speaks or sends: each call hands back what is to be done (``NavigationEffect``), which the
/// dispatcher does in order, and for a request the answer (``NavigationOutcome``). The actions
/// and rotors of `navigate` are in ScreenNavigator+Navigate, `read-all` in ScreenNavigator+ReadAll.
struct ScreenNavigator {
    /// A `read-all` under way: whose screen, its number (its speech carries it, see
    /// ``ReadAllStop``), and the index of the stop to read after the one speaking.
    struct ReadAll: Hashable {
        var owner: ClientID
        var run: UInt64
        var next: Int

        /// Whether `stop` is the one this `read-all` is speaking (not one of an earlier run).
        func isReading(_ stop: ReadAllStop) -> Bool {
            stop.run == run && stop.index == next - 1
        }
    }

    /// The published screens, one per client, the most recent (the current screen) last.
    private(set) var screens: [Screen] = []
    /// Which element has the focus.
    private(set) var focus: FocusCursor?
    /// The selected rotor's name.
    var selectedRotor: String?
    /// The custom action the `actions` rotor points at: the stop's id and the action's index.
    var chosenAction: (stop: String, index: Int)?
    /// The `read-all` under way, if any.
    var readAll: ReadAll?
    /// The number of the latest `read-all`.
    var readAllRuns: UInt64 = 0

    /// The current screen: the latest one still published.
    var current: Screen? { screens.last }

    /// `client`'s screen, if it has published one.
    func screen(of client: ClientID) -> Screen? {
        screens.first { $0.owner == client }
    }

    /// Publishes `elements` as `owner`'s screen, on top of the stack.
    mutating func publish(_ elements: [Element], rotors: [CustomRotor], owner: ClientID) {
        put(Screen(owner: owner, elements: elements, rotors: rotors))
    }

    /// Puts `screen` on top, replacing the owner's earlier one.
    private mutating func put(_ screen: Screen) {
        screens.removeAll { $0.owner == screen.owner }
        screens.append(screen)
    }

    /// Moves the focus to `cursor` (nil: nowhere); the move, when the focus changed.
    mutating func moveFocus(to cursor: FocusCursor?) -> [NavigationEffect] {
        let old = focus
        guard old != cursor else { return [] }
        focus = cursor
        return [.focusMoved(from: old, to: cursor)]
    }

    /// `client` disconnected: the focus leaves its element, its `read-all` ends, and its screen
    /// is forgotten (the one below becomes current if it was on top).
    mutating func remove(owner client: ClientID) -> [NavigationEffect] {
        var effects: [NavigationEffect] = []
        if focus?.client == client { effects += moveFocus(to: nil) }
        if readAll?.owner == client { effects += endReadAll() }
        screens.removeAll { $0.owner == client }
        return effects
    }

    /// `client` made a speech post: a `read-all` of its screen ends.
    mutating func clientPosted(_ client: ClientID) -> [NavigationEffect] {
        readAll?.owner == client ? endReadAll() : []
    }

    /// For a `layout-changed` with `elements` and no subject of its own: the focused element's new
    /// value when the new elements keep it and its value changed, spoken alone.
    func changedFocusedValue(in elements: [Element], from client: ClientID) -> String? {
        guard let focus, focus.client == client, let old = screen(of: client)?.element(withID: focus.element) else {
            return nil
        }
        let new = Screen(owner: client, elements: elements).element(withID: focus.element)
        guard let value = new?.value, value != old.value, !value.isBlank else { return nil }
        return value
    }

    /// The index of the focused stop on `screen`, when the focus is on it.
    func focusedStop(on screen: Screen) -> Int? {
        guard let focus, focus.client == screen.owner else { return nil }
        return screen.stopIndex(of: focus.element)
    }

    // MARK: update

    /// `update` from `client`, which must own the current screen: the element changes, its `lint`
    /// lines follow, and a changed value of the focused element is spoken.
    mutating func update(_ change: ElementUpdate, from client: ClientID) -> NavigationOutcome {
        guard var screen = current, screen.owner == client else {
            return NavigationOutcome(
                answer: .failure(
                    RequestError(
                        .forbidden,
                        "only the current screen's owner may update its elements: post screen-changed with elements first"
                    )))
        }
        let before = screen.element(withID: change.id)
        guard screen.apply(change) else {
            return NavigationOutcome(
                answer: .failure(RequestError(.notFound, "there is no element \"\(change.id)\" on your screen")))
        }
        put(screen)
        var effects: [NavigationEffect] = []
        let updated = screen.element(withID: change.id)
        if let updated { effects.append(.lint(updated, owner: client)) }
        if focus == FocusCursor(client: client, element: change.id), let value = updated?.value, value != before?.value,
            !value.isBlank
        {
            effects.append(.speak(NavigationSpeech(text: value)))
        }
        return NavigationOutcome(effects: effects, answer: .success(JSONObject()))
    }
}
