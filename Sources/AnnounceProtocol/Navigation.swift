// SPDX-License-Identifier: Apache-2.0
/// How an element's `children` are presented (the protocol's `children_mode`).
public enum ChildrenMode: String, Sendable, Hashable, CaseIterable {
    /// The container is not a stop; its children are stops in its place, in order.
    case contain
    /// One stop spoken from its own label and each child's spoken text; children are not stops.
    case combine
    /// One stop spoken from its own fields; its children are not stops.
    case ignore
}

/// A custom rotor a screen post gives: a name and element ids in the rotor's order.
public struct CustomRotor: Sendable, Hashable {
    /// The rotor's name, spoken when it is selected.
    public var name: String
    /// The ids of its elements, in the order `rotor-next` visits them.
    public var elements: [String]

    /// Creates a custom rotor.
    public init(name: String, elements: [String]) {
        self.name = name
        self.elements = elements
    }
}

/// What a `navigate` request asks for.
public enum NavigationAction: String, Sendable, Hashable, CaseIterable {
    /// Focus the next stop in reading order.
    case next
    /// Focus the previous stop in reading order.
    case previous
    /// Focus the first stop.
    case first
    /// Focus the last stop.
    case last
    /// Select a rotor (the named one, or the next available one).
    case rotorSelect = "rotor-select"
    /// Focus the next stop of the selected rotor (or the focused element's next custom action).
    case rotorNext = "rotor-next"
    /// Focus the previous stop of the selected rotor (or the previous custom action).
    case rotorPrevious = "rotor-previous"
    /// Activate the focused element (or its chosen custom action).
    case activate
    /// Increment the focused adjustable element.
    case increment
    /// Decrement the focused adjustable element.
    case decrement
    /// Perform a named custom action of the focused element.
    case custom
    /// The escape gesture (dismiss, go back).
    case escape
    /// The magic tap (the app's most important action).
    case magicTap = "magic-tap"
    /// Speak the focused element again.
    case read
    /// Speak every stop from the focused one to the end.
    case readAll = "read-all"
}

/// A `navigate` request: an action, with a rotor name for `rotor-select` and an action name for
/// `custom`.
public struct NavigateRequest: Sendable, Hashable {
    /// What to do.
    public var action: NavigationAction
    /// For `rotor-select`: the rotor to select (built-in or custom); nil selects the next one.
    public var rotor: String?
    /// For `custom`: the custom action's name.
    public var name: String?

    /// Creates a navigate request.
    public init(_ action: NavigationAction, rotor: String? = nil, name: String? = nil) {
        self.action = action
        self.rotor = rotor
        self.name = name
    }
}

/// The built-in rotors, in the order `rotor-select` without a name visits them (custom rotors
/// follow).
public enum BuiltInRotor: String, Sendable, Hashable, CaseIterable {
    /// Elements with trait `header`.
    case headings
    /// Elements with trait `link`.
    case links
    /// Elements with trait `button`.
    case buttons
    /// Elements with trait `adjustable`, `toggle` or `search-field`.
    case formControls = "form-controls"
    /// The focused element's custom actions.
    case actions
}

/// What an `action` line asks the screen's owner to do.
public enum ElementActionKind: String, Sendable, Hashable, CaseIterable {
    /// Activate the element (a double tap on iOS).
    case activate
    /// Increment an adjustable element.
    case increment
    /// Decrement an adjustable element.
    case decrement
    /// Perform a custom action; the line has its `name`.
    case custom
    /// The escape gesture.
    case escape
    /// The magic tap.
    case magicTap = "magic-tap"
}

/// A field-by-field change to an element on the owner's screen (the `update` request). A field
/// given replaces the element's; `null` clears it (for the optional fields); absent keeps it.
public struct ElementUpdate: Sendable, Hashable {
    /// The id of the element to change.
    public var id: String
    /// The new label, or `.some(nil)` to clear it; nil keeps it.
    public var label: String??
    /// The new value, or `.some(nil)` to clear it; nil keeps it.
    public var value: String??
    /// The new traits; nil keeps them.
    public var traits: [Trait]?
    /// The new hint, or `.some(nil)` to clear it; nil keeps it.
    public var hint: String??
    /// The new hidden state; nil keeps it.
    public var hidden: Bool?
    /// The new custom actions; nil keeps them.
    public var actions: [String]?

    /// Creates an update of the element `id` that changes nothing yet.
    public init(
        id: String, label: String?? = nil, value: String?? = nil, traits: [Trait]? = nil,
        hint: String?? = nil, hidden: Bool? = nil, actions: [String]? = nil
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.traits = traits
        self.hint = hint
        self.hidden = hidden
        self.actions = actions
    }

    /// `element` with the fields this update gives replaced.
    public func applied(to element: Element) -> Element {
        var result = element
        if let label { result.label = label }
        if let value { result.value = value }
        if let traits { result.traits = traits }
        if let hint { result.hint = hint }
        if let hidden { result.hidden = hidden }
        if let actions { result.actions = actions }
        return result
    }
}
