// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// Something the ``ScreenNavigator`` needs done outside its own state. It hands these back; the
/// dispatcher does them in order, on the same turn.
enum NavigationEffect: Hashable {
    /// The focus moved: the old element's owner hears `unfocused`, the new one's `focused`, and
    /// `focus` subscribers `focus-changed`.
    case focusMoved(from: FocusCursor?, to: FocusCursor?)
    /// Queue this as navigation speech.
    case speak(NavigationSpeech)
    /// Send `event` (an `action`) to `client`, the screen's owner.
    case send(Event, to: ClientID)
    /// End the speaking and waiting stops of a `read-all` (`interrupted`).
    case stopReadAll
    /// `update` changed `element` on `owner`'s screen: its `lint` lines, if it asked for them.
    case lint(Element, owner: ClientID)
}

/// One piece of navigation speech: a focus move, `read`, a rotor or action name, a changed
/// value, the boundary earcon or a stop of a `read-all`.
struct NavigationSpeech: Hashable {
    /// What is spoken; empty for an earcon alone.
    var text: String
    /// The earcon it plays, if any.
    var earcon: EarconSound?
    /// Set when it is a stop of a `read-all`: the focus moves there when it starts, and the next
    /// stop follows when it ends.
    var readAllStop: ReadAllStop?
}

/// One stop of a `read-all`, as its speech carries it back to the navigator.
struct ReadAllStop: Hashable {
    /// The `read-all` it belongs to (the navigator numbers them).
    var run: UInt64
    /// The stop's index on the screen.
    var index: Int
    /// The stop's element id.
    var element: String
}

/// What the navigator answers a request with: what is to be done first, then the answer (the
/// fields of `ok`, or the error).
struct NavigationOutcome {
    /// Done before the answer is sent, in order.
    var effects: [NavigationEffect] = []
    /// The `ok` line's fields, or the error.
    var answer: Result<JSONObject, RequestError>
}

/// The effects of one call into the navigator as they are collected, and how its speech is
/// spoken.
struct NavigationTurn {
    /// The language stops are spoken in (the default voice's).
    let language: String
    /// Whether the boundary earcon plays.
    let earcons: Bool
    /// What the dispatcher is to do, in order.
    var effects: [NavigationEffect] = []

    /// Queues `text` as navigation speech; blank text without an earcon says nothing.
    mutating func speak(_ text: String, earcon: EarconSound? = nil, readAllStop: ReadAllStop? = nil) {
        if text.isBlank && earcon == nil { return }
        effects.append(.speak(NavigationSpeech(text: text, earcon: earcon, readAllStop: readAllStop)))
    }
}
