// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// One focus stop of a screen: what `next` and `previous` land on and what is spoken there.
public struct FocusStop: Sendable, Hashable {
    /// The element the stop is. For a `combine` container: the container, with the union of its
    /// own and its children's traits and actions, and its own hint, else its first child's.
    public var element: Element
    /// For a `combine` container: its children as stops, in reading order (spoken without hints).
    public var combinedChildren: [FocusStop]?

    /// The stop's element id.
    public var id: String { element.id }

    /// What navigation speaks at this stop (label, value, traits, hint; for a `combine` container
    /// its own label, then each child's spoken text, then the hint).
    public func spokenText(language: String?) -> String {
        guard let combinedChildren else { return element.spokenText(language: language) }
        var parts: [String] = []
        if let label = element.label, !label.isBlank { parts.append(label) }
        for child in combinedChildren {
            var withoutHint = child
            withoutHint.element.hint = nil
            let text = withoutHint.spokenText(language: language)
            if !text.isBlank { parts.append(text) }
        }
        let head = parts.joined(separator: ", ")
        guard let hint = element.hint, !hint.isBlank else { return head }
        return head.isEmpty ? hint : head + ". " + hint
    }
}

/// A screen one client published with `screen-changed` (or `layout-changed` with `elements`):
/// its elements, custom rotors and the focus stops in reading order.
public struct Screen: Sendable {
    /// The connection that posted it.
    public let owner: ClientID
    /// The elements as posted.
    public private(set) var elements: [Element]
    /// The custom rotors the post gave.
    public var rotors: [CustomRotor]
    /// The focus stops, in reading order.
    public private(set) var stops: [FocusStop]
    /// The stop of every id on the screen that is a stop or inside one (a `combine` or `ignore`
    /// container's children map to the container's stop).
    private var stopOfID: [String: Int]

    /// Builds the screen's stops from `elements`.
    public init(owner: ClientID, elements: [Element], rotors: [CustomRotor] = []) {
        self.owner = owner
        self.elements = elements
        self.rotors = rotors
        self.stops = []
        self.stopOfID = [:]
        rebuildStops()
    }

    /// The index of the stop that holds the element `id`, if it is on a stop.
    public func stopIndex(of id: String) -> Int? { stopOfID[id] }

    /// The element with `id`, searched depth-first, children included.
    public func element(withID id: String) -> Element? {
        func search(_ elements: [Element]) -> Element? {
            for element in elements {
                if element.id == id { return element }
                if let found = search(element.children ?? []) { return found }
            }
            return nil
        }
        return search(elements)
    }

    /// Replaces the element `id` (wherever it is) with `change` applied; false when there is none.
    public mutating func apply(_ change: ElementUpdate) -> Bool {
        func replace(in elements: inout [Element]) -> Bool {
            for index in elements.indices {
                if elements[index].id == change.id {
                    elements[index] = change.applied(to: elements[index])
                    return true
                }
                if var children = elements[index].children, replace(in: &children) {
                    elements[index].children = children
                    return true
                }
            }
            return false
        }
        guard replace(in: &elements) else { return false }
        rebuildStops()
        return true
    }

    private mutating func rebuildStops() {
        stops = Self.stops(of: elements)
        stopOfID = [:]
        for (index, stop) in stops.enumerated() {
            for id in stop.element.allIDs { stopOfID[id] = index }
        }
    }

    /// The focus stops of `elements` in reading order: siblings by `sort_priority` (higher first,
    /// ties in array order), hidden ones left out with their children, `contain` containers
    /// replaced by their children's stops, `combine` and `ignore` containers one stop each.
    public static func stops(of elements: [Element]) -> [FocusStop] {
        var stops: [FocusStop] = []
        for element in elements.inReadingOrder() where !element.hidden {
            let children = element.children ?? []
            if children.isEmpty {
                stops.append(FocusStop(element: element))
                continue
            }
            switch element.effectiveChildrenMode {
            case .contain:
                stops += Self.stops(of: children)
            case .ignore:
                stops.append(FocusStop(element: element))
            case .combine:
                stops.append(combined(element))
            }
        }
        return stops
    }

    /// A `combine` container as one stop.
    static func combined(_ container: Element) -> FocusStop {
        let children = (container.children ?? []).inReadingOrder().filter { !$0.hidden }
        var element = container
        var parts: [FocusStop] = []
        for child in children {
            let stop = childStop(child)
            parts.append(stop)
            for trait in stop.element.traits where !element.traits.contains(trait) { element.traits.append(trait) }
            for action in stop.element.actions where !element.actions.contains(action) {
                element.actions.append(action)
            }
        }
        if element.hint == nil { element.hint = children.first?.hint }
        return FocusStop(element: element, combinedChildren: parts)
    }

    /// A child inside a `combine` container, presented as the stop it would be on its own (a
    /// nested container speaks its label and its children).
    private static func childStop(_ child: Element) -> FocusStop {
        guard let children = child.children, !children.isEmpty, child.effectiveChildrenMode != .ignore else {
            return FocusStop(element: child)
        }
        return combined(child)
    }
}
