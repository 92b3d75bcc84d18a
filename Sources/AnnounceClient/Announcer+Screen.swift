// SPDX-License-Identifier: Apache-2.0
/// Publishing a screen for the user to navigate, and the actions the user performs on it.
extension Announcer {
    /// Changes fields of one element of the published screen. When it has the focus and its value
    /// changed, the daemon speaks the new value alone (as after adjusting a slider). Throws
    /// `refused` with `forbidden` when this announcer's screen is not the current one, and with
    /// `not-found` for an unknown id.
    public func update(_ change: ElementUpdate) async throws(AnnouncerError) {
        state.withLock { state in
            guard var screen = state.publishedScreen else { return }
            screen.elements = screen.elements.applying(change)
            state.publishedScreen = screen
        }
        _ = try await control(.update(change))
    }

    /// Sends a `navigate` request, as a user's key does, and returns where the focus is and which
    /// rotor is selected. Errors come as `refused` with `no-screen`, `end-of-screen`,
    /// `not-adjustable`, `no-actions` or `not-found`.
    public func navigate(_ request: NavigateRequest) async throws(AnnouncerError) -> NavigationAnswer {
        let fields = try await control(.navigate(request))
        return NavigationAnswer(focus: fields["focus"]?.stringValue, rotor: fields["rotor"]?.stringValue)
    }

    // MARK: Callbacks

    /// Runs `handler` on the main queue with the element's id when the user activates one of this
    /// announcer's elements (VoiceOver's double tap). Nil removes it.
    public func onActivate(perform handler: (@MainActor @Sendable (String) -> Void)?) {
        state.withLock { $0.actionHandlers.activate = handler }
    }

    /// Runs `handler` on the main queue with the element's id when the user increments one of this
    /// announcer's adjustable elements. Nil removes it.
    public func onIncrement(perform handler: (@MainActor @Sendable (String) -> Void)?) {
        state.withLock { $0.actionHandlers.increment = handler }
    }

    /// Runs `handler` on the main queue with the element's id when the user decrements one of this
    /// announcer's adjustable elements. Nil removes it.
    public func onDecrement(perform handler: (@MainActor @Sendable (String) -> Void)?) {
        state.withLock { $0.actionHandlers.decrement = handler }
    }

    /// Runs `handler` on the main queue with the element's id and the action's name when the user
    /// performs one of an element's custom `actions`. Nil removes it.
    public func onCustomAction(perform handler: (@MainActor @Sendable (String, String) -> Void)?) {
        state.withLock { $0.actionHandlers.custom = handler }
    }

    /// Runs `handler` on the main queue when the user makes the escape gesture on this announcer's
    /// screen (dismiss, go back), like `accessibilityPerformEscape`. Nil removes it.
    public func onEscape(perform handler: (@MainActor @Sendable () -> Void)?) {
        state.withLock { $0.actionHandlers.escape = handler }
    }

    /// Runs `handler` on the main queue when the user makes the magic tap on this announcer's
    /// screen (its most important action), like `accessibilityPerformMagicTap`. Nil removes it.
    public func onMagicTap(perform handler: (@MainActor @Sendable () -> Void)?) {
        state.withLock { $0.actionHandlers.magicTap = handler }
    }

    // MARK: Internals

    /// Records the screen a `screen-changed` or `layout-changed` publishes: the announcer then
    /// stays connected, so the screen stays current, and publishes it again after a reconnect.
    func recordPublishedScreen(of post: SpeechPost) {
        guard let elements = post.elements else { return }
        state.withLock { $0.publishedScreen = PublishedScreen(elements: elements, rotors: post.rotors ?? []) }
    }

    /// Hands an `action` line to its callback on the main queue.
    func receiveAction(element: String?, action: ElementActionKind, name: String?) {
        let handlers = state.withLock { $0.actionHandlers }
        switch action {
        case .activate:
            if let handler = handlers.activate, let element { Self.onMain { handler(element) } }
        case .increment:
            if let handler = handlers.increment, let element { Self.onMain { handler(element) } }
        case .decrement:
            if let handler = handlers.decrement, let element { Self.onMain { handler(element) } }
        case .custom:
            if let handler = handlers.custom, let element, let name { Self.onMain { handler(element, name) } }
        case .escape:
            if let handler = handlers.escape { Self.onMain(handler) }
        case .magicTap:
            if let handler = handlers.magicTap { Self.onMain(handler) }
        }
    }
}

/// Where the focus is after a `navigate` request, and which rotor is selected.
public struct NavigationAnswer: Sendable, Hashable {
    /// The focused element's id, or nil.
    public var focus: String?
    /// The selected rotor's name, or nil.
    public var rotor: String?

    /// Creates an answer.
    public init(focus: String?, rotor: String?) {
        self.focus = focus
        self.rotor = rotor
    }
}

/// The screen an announcer published, sent again after a reconnect.
struct PublishedScreen: Sendable {
    var elements: [Element]
    var rotors: [CustomRotor]

    /// The `layout-changed` that publishes it again without speaking.
    var republishLine: [UInt8] {
        RequestLine(
            id: nil,
            .speech(
                SpeechPost(
                    kind: .layoutChanged, subject: .none, elements: elements, rotors: rotors.isEmpty ? nil : rotors))
        ).line
    }
}

/// The action callbacks of an announcer's screen.
struct ActionHandlers: Sendable {
    var activate: (@MainActor @Sendable (String) -> Void)?
    var increment: (@MainActor @Sendable (String) -> Void)?
    var decrement: (@MainActor @Sendable (String) -> Void)?
    var custom: (@MainActor @Sendable (String, String) -> Void)?
    var escape: (@MainActor @Sendable () -> Void)?
    var magicTap: (@MainActor @Sendable () -> Void)?
}

extension Array where Element == AnnounceProtocol.Element {
    /// The elements with `change` applied to the one with its id, children included.
    func applying(_ change: ElementUpdate) -> [AnnounceProtocol.Element] {
        map { element in
            if element.id == change.id { return change.applied(to: element) }
            var element = element
            if let children = element.children { element.children = children.applying(change) }
            return element
        }
    }
}
