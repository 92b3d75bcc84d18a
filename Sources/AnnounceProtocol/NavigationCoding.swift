// SPDX-License-Identifier: Apache-2.0
extension RequestLine {
    static func decodeNavigate(_ object: JSONObject) throws(FieldError) -> NavigateRequest {
        guard object["action"] != nil else {
            let actions = NavigationAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError(field: "action", problem: "is required: one of \(actions)")
        }
        guard let action = try object.optionalEnum("action", NavigationAction.self) else {
            throw FieldError(field: "action", problem: "must not be null")
        }
        let rotor = try object.optionalString("rotor")
        let name = try object.optionalString("name")
        if rotor?.isEmpty == true { throw FieldError(field: "rotor", problem: "must not be empty") }
        if action == .custom, name?.isEmpty ?? true {
            throw FieldError(
                field: "name",
                problem: "is required for the custom action: the name of one of the focused element's actions")
        }
        return NavigateRequest(action, rotor: rotor, name: name)
    }

    static func decodeUpdate(_ object: JSONObject) throws(FieldError) -> ElementUpdate {
        guard let value = object["element"], let element = value.objectValue else {
            throw FieldError(
                field: "element", problem: "is required: an object with the element's `id` and the fields to change")
        }
        guard let id = element["id"]?.stringValue, !id.isEmpty else {
            throw FieldError(field: "element.id", problem: "is required: the id of an element on your screen")
        }
        var update = ElementUpdate(id: id)
        update.label = try element.clearableString("label", in: "element")
        update.value = try element.clearableString("value", in: "element")
        update.hint = try element.clearableString("hint", in: "element")
        update.traits = try Element.traits(element["traits"], field: "element")
        update.hidden = try element.optionalBool("hidden", in: "element")
        update.actions = try Element.actionNames(element["actions"], field: "element")
        return update
    }

    /// Element ids must be unique within a screen, children included.
    static func checkUniqueIDs(_ elements: [Element]) throws(FieldError) {
        var seen = Set<String>()
        for (index, element) in elements.enumerated() {
            for id in element.allIDs where !seen.insert(id).inserted {
                throw FieldError(
                    field: "elements[\(index)]", problem: "repeats the id \"\(id)\": ids must be unique within a screen"
                )
            }
        }
    }

    static func decodeRotors(_ value: JSONValue?, elements: [Element]?) throws(FieldError) -> [CustomRotor]? {
        guard let value, !value.isNull else { return nil }
        guard let elements else {
            throw FieldError(field: "rotors", problem: "needs `elements`: a rotor lists ids of the screen's elements")
        }
        guard let array = value.arrayValue else {
            throw FieldError(field: "rotors", problem: "must be an array of {\"name\": ..., \"elements\": [ids]}")
        }
        let known = Set(elements.flatMap(\.allIDs))
        var rotors: [CustomRotor] = []
        for (index, item) in array.enumerated() {
            let field = "rotors[\(index)]"
            guard let object = item.objectValue else { throw FieldError(field: field, problem: "must be an object") }
            guard let name = object["name"]?.stringValue, !name.isEmpty else {
                throw FieldError(field: "\(field).name", problem: "is required: a non-empty string")
            }
            if BuiltInRotor(rawValue: name) != nil || rotors.contains(where: { $0.name == name }) {
                throw FieldError(
                    field: "\(field).name",
                    problem: "\"\(name)\" is already a rotor's name; give each custom rotor its own")
            }
            guard let ids = object["elements"]?.arrayValue else {
                throw FieldError(field: "\(field).elements", problem: "is required: an array of element ids")
            }
            var members: [String] = []
            for id in ids {
                guard let id = id.stringValue else {
                    throw FieldError(field: "\(field).elements", problem: "must hold element ids (strings)")
                }
                guard known.contains(id) else {
                    throw FieldError(
                        field: "\(field).elements", problem: "names \"\(id)\", which is not among the screen's elements"
                    )
                }
                members.append(id)
            }
            rotors.append(CustomRotor(name: name, elements: members))
        }
        return rotors
    }
}

extension JSONObject {
    /// A string field that may be cleared: absent → nil, `null` → `.some(nil)`, a string → it.
    func clearableString(_ key: String, in parent: String) throws(FieldError) -> String?? {
        guard let value = self[key] else { return nil }
        if value.isNull { return .some(nil) }
        guard let string = value.stringValue else {
            throw FieldError(field: "\(parent).\(key)", problem: "must be a string or null, not \(value.typeName)")
        }
        return .some(string)
    }
}

extension CustomRotor {
    /// The rotor as a JSON object.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        object.append("elements", .array(elements.map { .string($0) }))
        return .object(object)
    }
}

extension ElementUpdate {
    /// The update's element object: `id` and the fields it changes (`null` for a cleared one).
    public var json: JSONValue {
        var object = JSONObject()
        object.append("id", .string(id))
        if let label { object.append("label", label.map(JSONValue.string) ?? .null) }
        if let value { object.append("value", value.map(JSONValue.string) ?? .null) }
        if let traits { object.append("traits", .array(traits.map { .string($0.rawValue) })) }
        if let hint { object.append("hint", hint.map(JSONValue.string) ?? .null) }
        if let hidden { object.append("hidden", .bool(hidden)) }
        if let actions { object.append("actions", .array(actions.map { .string($0) })) }
        return .object(object)
    }
}
