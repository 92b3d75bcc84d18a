// SPDX-License-Identifier: Apache-2.0
/// An accessibility trait of an element, as named on the wire.
public enum Trait: String, Sendable, Hashable, CaseIterable {
    /// A button.
    case button
    /// A link.
    case link
    /// A heading.
    case header
    /// A search field.
    case searchField = "search-field"
    /// An image.
    case image
    /// Currently selected.
    case selected
    /// Plays its own sound when activated.
    case playsSound = "plays-sound"
    /// A keyboard key.
    case keyboardKey = "keyboard-key"
    /// Static text that cannot change.
    case staticText = "static-text"
    /// Summarizes the screen when it appears.
    case summaryElement = "summary-element"
    /// Not enabled: spoken as "dimmed".
    case notEnabled = "not-enabled"
    /// Updates its label or value often.
    case updatesFrequently = "updates-frequently"
    /// Can be adjusted up and down.
    case adjustable
    /// A toggle: spoken as "switch button".
    case toggle
    /// A tab bar.
    case tabBar = "tab-bar"
}

/// One user interface element, as VoiceOver sees it.
public struct Element: Sendable, Hashable {
    /// Unique within the posting connection's screen.
    public var id: String
    /// What the element is ("Share"): no control type, no final period.
    public var label: String?
    /// Its current value ("45 percent").
    public var value: String?
    /// Its traits, in the order given.
    public var traits: [Trait]
    /// What activating it does ("Opens the sharing sheet.").
    public var hint: String?
    /// Higher is read first within a screen's `elements`; ties keep array order.
    public var sortPriority: Double?
    /// The element's own elements, in order (a list row's parts, a toolbar's buttons).
    public var children: [Element]?
    /// How `children` are presented; nil means `contain` when there are children.
    public var childrenMode: ChildrenMode?
    /// Neither a stop nor spoken, with its children.
    public var hidden: Bool
    /// The names of its custom actions ("Delete", "Flag").
    public var actions: [String]

    /// Creates an element.
    public init(
        id: String, label: String? = nil, value: String? = nil, traits: [Trait] = [],
        hint: String? = nil, sortPriority: Double? = nil, children: [Element]? = nil,
        childrenMode: ChildrenMode? = nil, hidden: Bool = false, actions: [String] = []
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.traits = traits
        self.hint = hint
        self.sortPriority = sortPriority
        self.children = children
        self.childrenMode = childrenMode
        self.hidden = hidden
        self.actions = actions
    }

    /// How the children are presented: the given mode, else `contain` (meaningful only with children).
    public var effectiveChildrenMode: ChildrenMode { childrenMode ?? .contain }
}

extension Element {
    /// The element as a JSON object.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("id", .string(id))
        if let label { object.append("label", .string(label)) }
        if let value { object.append("value", .string(value)) }
        if !traits.isEmpty { object.append("traits", .array(traits.map { .string($0.rawValue) })) }
        if let hint { object.append("hint", .string(hint)) }
        if let sortPriority { object.append("sort_priority", .number(sortPriority)) }
        if let children { object.append("children", .array(children.map(\.json))) }
        if let childrenMode { object.append("children_mode", .string(childrenMode.rawValue)) }
        if hidden { object.append("hidden", true) }
        if !actions.isEmpty { object.append("actions", .array(actions.map { .string($0) })) }
        return .object(object)
    }

    /// Reads an element object; `field` names it in error messages (e.g. `element`, `elements[2]`).
    public init(json: JSONValue, field: String) throws(FieldError) {
        guard let object = json.objectValue else {
            throw FieldError(field: field, problem: "must be an object, not \(json.typeName)")
        }
        guard let idValue = object["id"] else { throw FieldError(field: "\(field).id", problem: "is required") }
        guard let id = idValue.stringValue, !id.isEmpty else {
            throw FieldError(field: "\(field).id", problem: "must be a non-empty string")
        }
        self.id = id
        self.label = try object.optionalString("label", in: field)
        self.value = try object.optionalString("value", in: field)
        self.hint = try object.optionalString("hint", in: field)
        self.traits = try Self.traits(object["traits"], field: field) ?? []
        if let priority = object["sort_priority"], !priority.isNull {
            guard let number = priority.doubleValue else {
                throw FieldError(field: "\(field).sort_priority", problem: "must be a number")
            }
            self.sortPriority = number
        } else {
            self.sortPriority = nil
        }
        if let children = object["children"], !children.isNull {
            guard let array = children.arrayValue else {
                throw FieldError(field: "\(field).children", problem: "must be an array of element objects")
            }
            var decoded: [Element] = []
            decoded.reserveCapacity(array.count)
            for (index, item) in array.enumerated() {
                decoded.append(try Element(json: item, field: "\(field).children[\(index)]"))
            }
            self.children = decoded
        } else {
            self.children = nil
        }
        self.childrenMode = try object.optionalEnum("children_mode", ChildrenMode.self, in: field)
        self.hidden = try object.optionalBool("hidden", in: field) ?? false
        self.actions = try Self.actionNames(object["actions"], field: field) ?? []
    }

    /// Reads a `traits` array; nil when absent or null.
    static func traits(_ value: JSONValue?, field: String) throws(FieldError) -> [Trait]? {
        guard let value, !value.isNull else { return nil }
        guard let array = value.arrayValue else {
            throw FieldError(field: "\(field).traits", problem: "must be an array of strings")
        }
        return try array.map { (item: JSONValue) throws(FieldError) -> Trait in
            guard let name = item.stringValue else {
                throw FieldError(field: "\(field).traits", problem: "must be an array of strings")
            }
            guard let trait = Trait(rawValue: name) else {
                let known = Trait.allCases.map(\.rawValue).joined(separator: ", ")
                throw FieldError(field: "\(field).traits", problem: "has unknown trait \"\(name)\" (known: \(known))")
            }
            return trait
        }
    }

    /// Reads an `actions` array of non-empty, distinct names; nil when absent or null.
    static func actionNames(_ value: JSONValue?, field: String) throws(FieldError) -> [String]? {
        guard let value, !value.isNull else { return nil }
        let problem = "must be an array of distinct, non-empty action names"
        guard let array = value.arrayValue else { throw FieldError(field: "\(field).actions", problem: problem) }
        var names: [String] = []
        for item in array {
            guard let name = item.stringValue, !name.isEmpty, !names.contains(name) else {
                throw FieldError(field: "\(field).actions", problem: problem)
            }
            names.append(name)
        }
        return names
    }

    /// Every id of this element and its descendants, depth-first.
    public var allIDs: [String] {
        var ids = [id]
        for child in children ?? [] { ids += child.allIDs }
        return ids
    }
}

/// A field with a wrong type or value: becomes an `invalid` error naming the field.
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's name, with its path (`element.traits`).
    public var field: String
    /// What is wrong with it.
    public var problem: String

    /// Creates a field error.
    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    /// "`field` problem".
    public var description: String { "`\(field)` \(problem)" }
}

extension JSONObject {
    func optionalString(_ key: String, in parent: String? = nil) throws(FieldError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let string = value.stringValue else {
            let name = parent.map { "\($0).\(key)" } ?? key
            throw FieldError(field: name, problem: "must be a string, not \(value.typeName)")
        }
        return string
    }

    func optionalBool(_ key: String, in parent: String? = nil) throws(FieldError) -> Bool? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else {
            let name = parent.map { "\($0).\(key)" } ?? key
            throw FieldError(field: name, problem: "must be true or false, not \(value.typeName)")
        }
        return bool
    }

    func optionalInt(_ key: String, range: ClosedRange<Int>) throws(FieldError) -> Int? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let integer = value.integerValue, let int = Int(exactly: integer), range.contains(int) else {
            throw FieldError(field: key, problem: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return int
    }

    func optionalEnum<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type, in parent: String? = nil)
        throws(FieldError) -> T?
    where T.RawValue == String {
        guard let value = self[key], !value.isNull else { return nil }
        guard let string = value.stringValue, let result = T(rawValue: string) else {
            let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw FieldError(field: parent.map { "\($0).\(key)" } ?? key, problem: "must be one of \(allowed)")
        }
        return result
    }
}
